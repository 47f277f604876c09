"""The weight of every installed kind's board: the game page's HTML and every board push a
player's socket receives, over whole games, within its kind's budget for that player count.

One seeded game per size (a second per size doubled the test's time; its boards peaked up to 4
KB heavier: docs/performance.md) is played to the scored end through the services, every seat a
person whose moves a bot chooses: even seats the kind's stand-in, odd ones any legal move
(random seats hoard cards, the heaviest boards). After every move the seats asked something get
their push as the consumer renders it (the move buttons are much of a board's weight: twenty
cards to discard after a Gold auction, Biblios' heaviest moment), every seat its push every few
moves and at the end. The acting seat loads the game page every few moves, whenever its push is
the heaviest yet, and at the end. Bytes are the UTF-8 bytes of the HTML, as the socket frame or
the document carries it (uncompressed). The first board over the budget fails the game at once.
Measured peaks: docs/performance.md.
"""

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.access import Visitor
from games.kinds import registry
from games.play import rendering, services
from tests.play import started_game

pytestmark = pytest.mark.django_db

KB = 1024
# Per kind, (players -> budget). Biblios: 30 KB at two players, the game page's promise, and 2 KB
# more for each other player, whose end page draws another column of scores, five more bars and
# another final hand (30.2 KB at three, 33.3 KB at four when seats hoard at random). Ex Libris: 30
# KB alone, 48 KB with 2–4 players: a multiplayer board draws every seat's bookshelf (up to four
# of ~20 cards, each card's books as symbols), the locations' cards, a hand of up to 30 and, at
# the end, each player's form and a chart: about three times the cards of a Biblios board, already
# drawn as lightly as the look allows (the other seats' shelves without spoken names, their books
# counted once; turned-down cards and final hands by name; move buttons' JSON unescaped).
BUDGETS = {
    "biblios": lambda players: (30 + 2 * (players - 2)) * KB,
    "exlibris": lambda players: 30 * KB if players == 1 else 48 * KB,
}
# Table settings other than the default, per (kind, players): solo Ex Libris at difficulty 3
# (X85), as the weight was first measured.
TABLES = {("exlibris", 1): {"options": {"difficulty": 3}}}
# Every seat's push and the page are weighed every this many moves (and at the end).
EVERY_SEAT_EVERY = 10
KINDS = registry.kinds()


def live_board(game, user) -> str:
    """What a player's socket receives after someone else's move: every region, oob."""
    return rendering.board_html(game, Visitor.of(game, user), oob=True)


def play_a_whole_game_within_the_budget(kind, players: int, seed: int) -> None:
    """Play one seeded game to its end, weighing pushes and pages as it goes."""
    users = [
        get_user_model().objects.create_user(f"weigh{seed}-{i}", display_name=f"Reader {seed}-{i}")
        for i in range(players)
    ]
    browsers = []
    for user in users:
        browser = Client()
        browser.force_login(user)
        browsers.append(browser)
    game = started_game(
        users, players, seed=seed, kind=kind.slug, **TABLES.get((kind.slug, players), {})
    )
    engine, rng = kind.engine, random.Random(seed)
    budget = BUDGETS[kind.slug](players)
    heaviest_push = 0
    state = game.engine_state()
    while seats := engine.to_act(state):
        seat = seats[0]
        if seat % 2 == 0:
            action = kind.bots.choose(kind.stand_in, engine.view(state, seat), None, rng)
        else:
            action = rng.choice(engine.legal_actions(state, seat))
        services.submit_action(game.pk, users[seat], action, version=game.version)
        game.refresh_from_db()
        state = game.engine_state()
        over = not engine.to_act(state)
        every_seat = over or game.version % EVERY_SEAT_EVERY == 0
        weigh_page = every_seat
        for reader in range(players) if every_seat else engine.to_act(state):
            size = len(live_board(game, users[reader]).encode())
            assert size < budget, (
                f"{kind.slug}, {players} players, seed {seed}: seat {reader}'s push at"
                f" v{game.version} is {size / KB:.1f} KB"
            )
            if size > heaviest_push:
                heaviest_push, weigh_page = size, True
        if weigh_page:
            reader = 0 if over else engine.to_act(state)[0]
            size = len(browsers[reader].get(f"/games/{game.pk}/").content)
            assert size < budget, (
                f"{kind.slug}, {players} players, seed {seed}: seat {reader}'s page at"
                f" v{game.version} is {size / KB:.1f} KB"
            )


@pytest.mark.slow(seconds=15)
@pytest.mark.parametrize(
    "kind, players",
    [(kind, players) for kind in KINDS for players in kind.engine.PLAYER_COUNTS],
    ids=lambda value: getattr(value, "slug", value),
)
def test_the_page_and_every_push_stay_within_the_budget_over_whole_games(kind, players):
    """Biblios R1 at every table size, Ex Libris X30 and X83 (the multiplayer discard pile
    stays public on the board, its count, newest cards and an index by category, without a face
    per card; solo shows its top card only)."""
    play_a_whole_game_within_the_budget(kind, players, seed=players)
