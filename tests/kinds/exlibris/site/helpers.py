"""Playing Ex Libris through its board: reading the move buttons out of a page or a partial,
opening tables with people and bots, and what each seat may have known so far (X77)."""

import json
import re
from dataclasses import dataclass
from datetime import timedelta
from html import unescape

from django.utils import timezone

from games.access import Visitor
from games.kinds.exlibris import engine
from games.kinds.exlibris.engine.cards import CARDS
from games.models import Game
from games.play import rendering, turns
from games.tables import services

HTMX = {"HTTP_HX_REQUEST": "true"}

# (players, seed) of the seeded random games the board tests walk: every size, and seeds in
# which every decision kind comes up (with the powers owner-wide).
SEEDED_GAMES = (
    (1, 1),
    (2, 2),
    (3, 3),
    (4, 4),
    (2, 5),
    (3, 6),
    (4, 7),
    (4, 8),
    (2, 9),
    (3, 10),
    (3, 13),
)
CARD_ID = re.compile(r"(?<![\w-])[A-Z]-\d{1,2}(?![\w-])")


@dataclass
class Move:
    """One button of a move form: where it posts, the form's hidden fields, its action."""

    url: str
    fields: dict
    action: dict

    def data(self) -> dict:
        return {**self.fields, "action": json.dumps(self.action)}


FORM = re.compile(r"<form\b[^>]*>.*?</form>", re.DOTALL)
FORM_URL = re.compile(r'<form\b[^>]*\baction="([^"]*)"')
HIDDEN = re.compile(r'<input type="hidden" name="([^"]*)" value="([^"]*)">')
BUTTON = re.compile(r"""<button\b[^>]*\bname="action" value='([^']*)'""")


def moves_in(html: str) -> list[Move]:
    """Every move button of a board: the buttons named "action" of its forms posting a move
    (read with patterns: a board has a thousand tags, an HTML parser took most of a test)."""
    moves = []
    for form in FORM.findall(html):
        found = FORM_URL.match(form)
        url = unescape(found.group(1)) if found else ""
        if not url.endswith("/act/"):
            continue
        fields = {name: unescape(value) for name, value in HIDDEN.findall(form)}
        moves += [Move(url, fields, json.loads(unescape(value))) for value in BUTTON.findall(form)]
    return moves


def canonical(actions) -> list[str]:
    return sorted(json.dumps(action, sort_keys=True) for action in actions)


def cards_in(text: str) -> set[str]:
    return {card for card in CARD_ID.findall(text) if card in CARDS}


def open_table(users, players: int, *, bots=(), seed: int, **table) -> Game:
    """A started Ex Libris table of `users` (host first) and `bots` (levels) after them."""
    settings = services.TableSettings(players, kind="exlibris", bots=tuple(bots), **table)
    game = services.create_table(users[0], settings, seed=seed)
    for user in users[1 : players - len(bots)]:
        services.join_table(game.pk, user, invited=True)
    game.refresh_from_db()
    if game.status == Game.Status.OPEN:
        game = services.start_game(game.pk, users[0])
    return game


def play_bot(game: Game, rng) -> Game:
    """The turn worker plays the bot seat on turn (its move is due at once for the test)."""
    due = (game.due_at or timezone.now()) + timedelta(seconds=1)
    moved = turns.play_turn(game.pk, now=due, rng=rng)
    assert moved is not None, "the bot seat on turn did not move"
    return moved


def live_board(game: Game, user) -> str:
    """What a player's socket receives after someone else's move: every region, oob."""
    return rendering.board_html(game, Visitor.of(game, user), oob=True)


def shelved(state, *, face_up: bool = False) -> set[str]:
    """The cards on the bookshelves now, under the top cards too; only the face-up top cards
    with `face_up` (those every reader sees, X77)."""
    stacks = [stack for record in state["seats"] for stack in record["bookshelf"].values()]
    if face_up:
        return {stack["top"] for stack in stacks if stack["up"]}
    return {card for stack in stacks for card in (stack["top"], stack["under"])} - {None}


class Knowledge:
    """The cards each reader (a seat, or None: a spectator) has been shown so far: anything in
    its views and events at every step up to now. A page may name nothing else.

    Read off the raw states, not the views: `seen_shelved`, the cards that have stayed on a
    bookshelf since everyone saw them there face up (X77). The Mummy may cover one (X56), or a
    pre-flip turn it over (X90.2): it is still no secret, unlike a card put straight under."""

    def __init__(self, players: int):
        self.known = {seat: set() for seat in [*range(players), None]}
        self.seen_shelved = set()

    def update(self, state) -> None:
        """Call it with every state in turn: a card that leaves the bookshelves is forgotten."""
        for seat, known in self.known.items():
            known |= cards_in(json.dumps(engine.view(state, seat)))
            known |= cards_in(json.dumps(engine.events_for(state, seat)))
        self.seen_shelved = (self.seen_shelved | shelved(state, face_up=True)) & shelved(state)

    def assert_no_leak(self, html: str, seat, where: str) -> None:
        leaked = cards_in(html) - self.known[seat]
        assert not leaked, f"{where} shows {sorted(leaked)}, never shown to seat {seat}"


def secret_cards(state, seat) -> set[str]:
    """What `seat` may not know now (X77): the deck and, until the end, the other seats' hands
    (less the cards a Yard Sale shows)."""
    hidden = set(state["deck"])
    if state["phase"] == "over":
        return hidden
    for record in state["seats"]:
        if record["seat"] != seat:
            hidden |= set(record["hand"])
    shown = {card for tile in state["tiles"].values() for card in tile.get("revealed", [])}
    return hidden - shown


LOG_PARTS = re.compile(
    r'<section id="board-log".*?</section>|<div id="move-announcer".*?</div>'
    r'|<section class="region replay-log".*?</section>',
    re.DOTALL,
)


def assert_board_keeps_secrets(html: str, state, seat, where: str) -> None:
    """The board's regions (all but the logs: `Knowledge` checks the board's; a replay's lists
    every move as its reader saw them, later ones included) show no card of the deck
    or of another seat's hand (X77), whatever the seat saw before."""
    shown = cards_in(LOG_PARTS.sub("", html)) & secret_cards(state, seat)
    assert not shown, f"{where} shows {sorted(shown)}, hidden from seat {seat} now"
