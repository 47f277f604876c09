"""Shared pieces of the WebSocket tests: sockets on the real ASGI app, games, and secrecy.

Each test runs one coroutine through `run` (async_to_sync), so no pytest-asyncio is needed; the
database work of setting a game up happens before, in the plain synchronous test body.
"""

import functools
import random
import re

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from biblios_site.asgi import application
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS
from games.models import Game
from games.play import services
from tests import play

# Generous for a slow machine: only reached when an expected frame never comes.
TIMEOUT = 10
# How long "nothing arrives" is watched for.
QUIET = 0.5

# The site as a browser names it: the Host every socket is sent to, and the Origin of the page
# that opens it (biblios_site.origin accepts a socket only when the two agree).
HOST = b"localhost"
ORIGIN = b"http://" + HOST

CARD_PATTERN = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(card) for card in CARD_IDS) + r")(?![\w-])"
)


def run(scenario):
    """Run the coroutine function `scenario` to the end on a fresh event loop."""
    async_to_sync(scenario)()


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


def card_ids_in(text: str) -> set[str]:
    return set(CARD_PATTERN.findall(text))


def cards_on_data_attributes(text: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]+)"', text))


class HeldBoard:
    """The board a page holds after its socket's frames, as htmx swaps them: a frame's regions
    replace those of the same id, a frame that brings the board's frame (`#board`) starts over.
    A push carries only the regions that changed (games/live_regions.py)."""

    REGION = re.compile(r'<(?:div|section|aside)\b[^>]*?\bid="([^"]+)"[^>]*?\bhx-swap-oob="true"')

    def __init__(self):
        self.frame = ""
        self.regions: dict[str, str] = {}

    def apply(self, frame: str) -> str:
        """Swap `frame` in (a JSON frame or a waiting room changes nothing kept); the frame."""
        starts = [found.start() for found in self.REGION.finditer(frame)]
        if not starts:
            return frame
        if frame[: starts[0]].strip():
            self.frame, self.regions = frame[: starts[0]], {}
        for start, end in zip(starts, [*starts[1:], len(frame)], strict=True):
            self.regions[self.REGION.match(frame, start).group(1)] = frame[start:end]
        return frame

    @property
    def html(self) -> str:
        return self.frame + "".join(self.regions.values())


class Sockets:
    """Opens WebSocket connections on the real application and closes them all at the end;
    `boards` holds what each page socket's frames read so far have drawn (`HeldBoard`)."""

    def __init__(self):
        self.opened = []
        self.boards = {}

    def open(self, path, *, cookie=None, origin=ORIGIN, headers=()):
        sent = [(b"host", HOST)] + ([(b"origin", origin)] if origin else [])
        if cookie:
            sent.append((b"cookie", cookie))
        sent.extend(headers)
        communicator = WebsocketCommunicator(application, path, headers=sent)
        self.opened.append(communicator)
        self.boards[communicator] = HeldBoard()
        return communicator

    async def connect(self, path, **kwargs):
        """An accepted socket, with its first frame (the whole board) already read."""
        communicator = self.open(path, **kwargs)
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected, f"{path} was refused"
        first = self.boards[communicator].apply(await communicator.receive_from(timeout=TIMEOUT))
        return communicator, first

    async def connect_seats(self, paths):
        """Connect players ((path, options) each) one by one, reading off the presence update
        each one causes on the sockets already open. Returns [(communicator, latest frame)]."""
        connected = []
        for path, options in paths:
            communicator, first = await self.connect(path, **options)
            for i, (earlier, _) in enumerate(connected):
                frame = await earlier.receive_from(timeout=TIMEOUT)
                connected[i] = (earlier, self.boards[earlier].apply(frame))
            connected.append((communicator, first))
        return connected

    async def close_all(self):
        for communicator in self.opened:
            await communicator.disconnect(timeout=TIMEOUT)


async def closed_with(communicator) -> int:
    """The close code of a socket the server accepted and then closed."""
    output = await communicator.receive_output(timeout=TIMEOUT)
    assert output["type"] == "websocket.close", output
    return output["code"]


# The live tests replay one fixed deal, so their expectations about who acts stay put.
started_game = functools.partial(play.started_game, seed=1)
seated_users = play.seated_users


def next_move(game: Game, rng: random.Random):
    """(user, action, version) for a random legal move by whoever is to act."""
    game.refresh_from_db()
    state = game.engine_state()
    seat = biblios.to_act(state)[0]
    return seated_users(game)[seat], rng.choice(biblios.legal_actions(state, seat)), state.version


def play(game: Game, rng: random.Random, moves: int) -> Game:
    """Random legal moves through the service layer."""
    for _ in range(moves):
        user, action, version = next_move(game, rng)
        services.submit_action(game.pk, user, action, version=version)
    game.refresh_from_db()
    return game


def play_until_hands(game: Game, rng: random.Random):
    """Play until every seat holds a card none of the others may know (a self card, say).

    Returns the game and the Knowledge learnt along the way.
    """
    knowledge = Knowledge(game.num_players)
    knowledge.see(game.engine_state())
    while True:
        state = game.engine_state()
        if all(knowledge.secret_hand(state, seat) for seat in range(state.num_players)):
            return game, knowledge
        game = play(game, rng, 1)
        knowledge.see(game.engine_state())


def others(state, seat):
    return [other for other in range(state.num_players) if other != seat]


submit = database_sync_to_async(services.submit_action)


class Knowledge:
    """Which cards each seat (or a spectator) may know so far, learnt state by state (R22).

    Worked out from the omniscient zones and the rules, not from `view`: everyone knows what
    was ever face up and, at the end, every hand; a seat also knows every card it ever held,
    the card it draws and keeps face down, what it put in the auction pile, and the face-down
    discards it was shown.
    """

    def __init__(self, num_players: int):
        self.public: set[str] = set()
        self.known = [set() for _ in range(num_players)]

    def see(self, state: biblios.State) -> None:
        zones = biblios.view(state, "all")["zones"]
        self.public.update(
            zones["public_space"], zones["auction_card"], zones["church_card"], state.discard
        )
        for seat, hand in enumerate(zones["hands"]):
            self.known[seat].update(hand)
        self.known[state.active].update(zones["drawing"], zones["self_card"])
        for card, seat in state.placed_by.items():
            self.known[seat].add(card)
        for card, knowers in state.hidden_discard:
            for seat in knowers:
                self.known[seat].add(card)
        if state.phase == "over":
            self.public.update(card for hand in zones["hands"] for card in hand)

    def secret_hand(self, state: biblios.State, seat: int) -> set[str]:
        """The cards in `seat`'s hand that no other seat may know."""
        hidden = [self.hidden_from(other) for other in others(state, seat)]
        return set(state.hands[seat]).intersection(*hidden)

    def hidden_from(self, seat) -> set[str]:
        """Card ids `seat` (None: a spectator) must not be shown."""
        allowed = self.public if seat is None else self.public | self.known[seat]
        return set(CARD_IDS) - allowed


def board_version(frame: str) -> int:
    """The version an HTML board frame shows (every region carries it; they must agree)."""
    versions = {int(v) for v in re.findall(r'data-version="(\d+)"', frame)}
    assert len(versions) == 1, versions
    return versions.pop()
