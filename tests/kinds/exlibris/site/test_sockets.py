"""Ex Libris on the game socket (`ws/games/<id>/`): the board's HTML partials and, with
`?format=json`, the JSON frames. Each seat and each spectator gets its own frame after every move,
and over a whole game no frame names a card its reader may not know (X77)."""

import json
import random

import pytest

from accounts.models import ApiToken
from games.kinds.exlibris import engine
from games.models import Game
from games.play import services
from tests.kinds.exlibris.site.doors import assert_view_keeps_secrets
from tests.kinds.exlibris.site.helpers import (
    Knowledge,
    assert_board_keeps_secrets,
    cards_in,
    open_table,
    play_bot,
)
from tests.live.conftest import own_channel_layer  # noqa: F401  (autouse fixture)
from tests.live.helpers import (
    QUIET,
    TIMEOUT,
    HeldBoard,
    Sockets,
    board_version,
    run,
    seated_users,
    session_cookie,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def users(django_user_model):
    return [
        django_user_model.objects.create_user(f"sock{i}", password="x", display_name=f"Sock {i}")
        for i in range(5)
    ]


def token(user) -> str:
    return ApiToken.issue(user)[1]


def play_past_the_draft(game: Game, rng: random.Random, knowledge: Knowledge) -> Game:
    """Random legal moves (people's through the services, bots' by the turn worker) until the
    first round's placements (X8), and a person to act."""
    users = seated_users(game)
    state = game.engine_state()
    while state["phase"] in ("draft", "round_start") or users[engine.to_act(state)[0]] is None:
        seat = engine.to_act(state)[0]
        if users[seat] is None:
            game = play_bot(game, rng)
        else:
            action = rng.choice(engine.legal_actions(state, seat))
            services.submit_action(game.pk, users[seat], action, version=state.version)
        state = Game.objects.get(pk=game.pk).engine_state()
        knowledge.update(state)
    game.refresh_from_db()
    return game


class Listener:
    """One open socket and whose eyes it has: a seat, or None (a spectator); HTML or JSON; and
    for a page, the board the page holds after the frames (`HeldBoard`)."""

    def __init__(self, reader, socket, as_json: bool, board: HeldBoard):
        self.reader, self.socket, self.as_json, self.board = reader, socket, as_json, board

    def check(self, frame: str, state, knowledge: Knowledge) -> None:
        where = f"the {'JSON' if self.as_json else 'HTML'} frame to {self.reader}, v{state.version}"
        knowledge.assert_no_leak(frame, self.reader, where)
        if self.as_json:
            board = json.loads(frame)
            status = Game.Status.FINISHED if state["phase"] == "over" else Game.Status.ACTIVE
            assert board["version"] == state.version and board["status"] == status
            assert board["view"] == engine.view(state, self.reader), where
            seen = knowledge.seen_shelved
            assert_view_keeps_secrets(board, board["view"], state, self.reader, where, seen)
        else:
            assert board_version(frame) == state.version, where
            assert_board_keeps_secrets(frame, state, self.reader, where)
            self.board.apply(frame)
            if self.reader is not None:  # its own hand is on its board
                hand = state["seats"][self.reader]["hand"]
                assert set(hand) <= cards_in(self.board.html), where


def test_each_seat_and_each_spectator_gets_its_own_frame(users):
    """Three seats (two pages, one JSON client) and two spectators (a page, a JSON client): after
    a move each socket receives one frame, its reader's board of the new version."""
    rng = random.Random(3)
    game = open_table(users, 3, seed=31)
    knowledge = Knowledge(3)
    knowledge.update(game.engine_state())
    game = play_past_the_draft(game, rng, knowledge)
    by_seat = seated_users(game)
    path = f"/ws/games/{game.pk}/"
    json_path = f"{path}?format=json&token="
    state = game.engine_state()
    mover = engine.to_act(state)[0]
    action = rng.choice(engine.legal_actions(state, mover))
    after = engine.apply_action(state, mover, action)
    knowledge.update(after)
    cookies = [session_cookie(by_seat[0]), session_cookie(by_seat[2]), session_cookie(users[3])]
    tokens = [token(by_seat[1]), token(users[4])]

    async def scenario():
        sockets = Sockets()
        seats = await sockets.connect_seats(
            [
                (path, {"cookie": cookies[0]}),
                (json_path + tokens[0], {}),
                (path, {"cookie": cookies[1]}),
            ]
        )
        page_watcher, first = await sockets.connect(path, cookie=cookies[2])
        json_watcher, first_json = await sockets.connect(json_path + tokens[1])
        assert board_version(first) == json.loads(first_json)["version"] == state.version
        listeners = [
            Listener(0, seats[0][0], False, sockets.boards[seats[0][0]]),
            Listener(1, seats[1][0], True, sockets.boards[seats[1][0]]),
            Listener(2, seats[2][0], False, sockets.boards[seats[2][0]]),
            Listener(None, page_watcher, False, sockets.boards[page_watcher]),
            Listener(None, json_watcher, True, sockets.boards[json_watcher]),
        ]
        await seats[mover][0].send_json_to({"action": action, "version": state.version})
        frames = [await listener.socket.receive_from(timeout=TIMEOUT) for listener in listeners]
        for listener in listeners:
            assert await listener.socket.receive_nothing(timeout=QUIET / 5)
        await sockets.close_all()
        return listeners, frames

    listeners, frames = run_and_return(scenario)
    for listener, frame in zip(listeners, frames, strict=True):
        listener.check(frame, after, knowledge)
    # Each seat's frame holds its own hand and no other seat's.
    for seat in range(3):
        others = {
            card for other in after["seats"] if other["seat"] != seat for card in other["hand"]
        }
        assert not cards_in(frames[seat]) & others - knowledge.known[seat]
    assert json.loads(frames[1])["view"]["seat"] == 1
    assert json.loads(frames[4])["view"]["seat"] is None
    assert Game.objects.get(pk=game.pk).version == after.version


@pytest.mark.look  # a leak scan: what a reader is sent is the same on any services
@pytest.mark.slow(seconds=8)
def test_no_frame_of_a_whole_game_shows_a_card_its_reader_may_not_know(users):
    """A whole 2-player game played on the sockets: seat 0 on its page, seat 1 as a JSON
    client, a spectator of each kind. Every frame to every reader is checked (X77)."""
    rng = random.Random(5)
    game = open_table(users, 2, seed=1)  # a short game: 249 moves
    by_seat = seated_users(game)
    path = f"/ws/games/{game.pk}/"
    json_path = f"{path}?format=json&token="
    state = game.engine_state()
    knowledge = Knowledge(2)
    knowledge.update(state)
    cookies = [session_cookie(by_seat[0]), session_cookie(users[3])]
    tokens = [token(by_seat[1]), token(users[4])]

    async def scenario():
        nonlocal state
        sockets = Sockets()
        seats = await sockets.connect_seats(
            [(path, {"cookie": cookies[0]}), (json_path + tokens[0], {})]
        )
        page_watcher, _ = await sockets.connect(path, cookie=cookies[1])
        json_watcher, _ = await sockets.connect(json_path + tokens[1])
        listeners = [
            Listener(0, seats[0][0], False, sockets.boards[seats[0][0]]),
            Listener(1, seats[1][0], True, sockets.boards[seats[1][0]]),
            Listener(None, page_watcher, False, sockets.boards[page_watcher]),
            Listener(None, json_watcher, True, sockets.boards[json_watcher]),
        ]
        frames = 0
        while engine.to_act(state):
            seat = engine.to_act(state)[0]
            action = rng.choice(engine.legal_actions(state, seat))
            await seats[seat][0].send_json_to({"action": action, "version": state.version})
            state = engine.apply_action(state, seat, action)
            knowledge.update(state)
            for listener in listeners:
                listener.check(
                    await listener.socket.receive_from(timeout=TIMEOUT), state, knowledge
                )
                frames += 1
        await sockets.close_all()
        return frames

    assert run_and_return(scenario) == 4 * state.version
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.version == state.version


def test_refused_moves_on_the_json_socket_name_the_reason_and_change_nothing(users):
    """A stale version (with the current board after it), another seat's decision (X86) and an
    action the engine does not list: an error frame each, to the sender only; a resync frame
    brings the board back, and a bot's move (the turn worker's) reaches the socket like any."""
    game = open_table(users, 3, bots=["greedy"], seed=33)
    knowledge = Knowledge(3)
    game = play_past_the_draft(game, random.Random(4), knowledge)
    state = game.engine_state()
    mover = engine.to_act(state)[0]
    person = next(seat for seat in (0, 2) if seat != mover)
    action = engine.legal_actions(state, mover)[0]
    by_seat = seated_users(game)
    json_path = f"/ws/games/{game.pk}/?format=json&token="
    tokens = {seat: token(by_seat[seat]) for seat in (0, 2)}

    async def scenario():
        sockets = Sockets()
        (first, _), (second, _) = await sockets.connect_seats(
            [(json_path + tokens[0], {}), (json_path + tokens[2], {})]
        )
        sockets_by_seat = {0: first, 2: second}
        acting, waiting = sockets_by_seat[mover], sockets_by_seat[person]
        await acting.send_json_to({"action": action, "version": state.version - 1})
        refusal = await acting.receive_json_from(timeout=TIMEOUT)
        assert refusal["status"] == 409 and refusal["version"] == state.version
        board = await acting.receive_json_from(timeout=TIMEOUT)
        assert board["view"] == engine.view(state, mover)
        await waiting.send_json_to({"action": action, "version": state.version})
        refusal = await waiting.receive_json_from(timeout=TIMEOUT)
        assert refusal["status"] == 400
        assert refusal["error"].startswith(f"X86: seat {person} is not asked anything now")
        await acting.send_json_to({"action": {"type": "fly"}, "version": state.version})
        refusal = await acting.receive_json_from(timeout=TIMEOUT)
        assert refusal["status"] == 400 and "is not a legal" in refusal["error"]
        assert await waiting.receive_nothing(timeout=QUIET)
        await waiting.send_json_to({"type": "resync"})
        board = await waiting.receive_json_from(timeout=TIMEOUT)
        assert board["version"] == state.version and board["view"] == engine.view(state, person)
        assert board["connected"] == [0, 2]
        await sockets.close_all()

    run(scenario)
    game.refresh_from_db()
    assert game.version == state.version and game.moves.count() == state.version


def run_and_return(scenario):
    box = []

    async def keep():
        box.append(await scenario())

    run(keep)
    return box[0]
