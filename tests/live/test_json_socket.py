"""`ws/games/<id>/?format=json`: API-token clients get `{"version", "status", "view"}` per move."""

import json
import random

import pytest

from accounts.models import ApiToken
from games.models import Game, Move
from games.play import consumers

from .helpers import TIMEOUT, Sockets, closed_with, play, run, seated_users, started_game, submit

pytestmark = pytest.mark.django_db(transaction=True)


def tokens_for(game):
    return {seat: ApiToken.issue(user)[1] for seat, user in seated_users(game).items()}


def test_token_in_header_or_query_gets_own_view_after_each_move(users):
    game = play(started_game(users, 2), random.Random(1), 4)
    raw = tokens_for(game)
    hands = {seat: game.engine_state().hands[seat] for seat in raw}
    path = f"/ws/games/{game.pk}/?format=json"
    sockets = Sockets()

    async def scenario():
        (by_header, first0), (by_query, first1) = await sockets.connect_seats(
            [
                (path, {"headers": [(b"authorization", f"Bearer {raw[0]}".encode())]}),
                (f"{path}&token={raw[1]}", {}),
            ]
        )
        for seat, frame in ((0, first0), (1, first1)):
            board = json.loads(frame)
            assert board["version"] == game.version == board["view"]["version"]
            assert board["status"] == "active"
            assert board["view"]["seat"] == seat
            assert set(board["view"]["hand"]) == set(hands[seat])

        to_act = json.loads(first0)["view"]["to_act"][0]
        mover = (by_header, by_query)[to_act]
        action = json.loads((first0, first1)[to_act])["view"]["legal_actions"][0]
        await mover.send_json_to({"action": action, "version": game.version})
        for seat, socket in enumerate((by_header, by_query)):
            board = await socket.receive_json_from(timeout=TIMEOUT)
            assert board["version"] == game.version + 1
            assert board["view"]["seat"] == seat
        await sockets.close_all()

    run(scenario)
    assert Move.objects.filter(game=game).count() == game.version + 1


def test_bad_token_and_no_token_are_refused(users):
    game = started_game(users, 2)
    sockets = Sockets()

    async def scenario():
        for path in (
            f"/ws/games/{game.pk}/?format=json",
            f"/ws/games/{game.pk}/?format=json&token=not-a-token",
        ):
            socket = sockets.open(path)
            assert (await socket.connect(timeout=TIMEOUT))[0]
            assert await closed_with(socket) == consumers.CLOSE_UNAUTHENTICATED
        await sockets.close_all()

    run(scenario)


def test_stale_version_is_refused_with_the_current_board(users):
    rng = random.Random(2)
    game = play(started_game(users, 2), rng, 3)
    raw = tokens_for(game)
    sockets = Sockets()

    async def scenario():
        connections = await sockets.connect_seats(
            [(f"/ws/games/{game.pk}/?format=json&token={raw[seat]}", {}) for seat in (0, 1)]
        )
        to_act = json.loads(connections[0][1])["view"]["to_act"][0]
        socket, first = connections[to_act]
        action = json.loads(first)["view"]["legal_actions"][0]
        await socket.send_json_to({"action": action, "version": game.version - 1})
        refusal = await socket.receive_json_from(timeout=TIMEOUT)
        assert refusal == {
            "error": refusal["error"],
            "status": 409,
            "version": game.version,
        }
        assert "changed" in refusal["error"]
        board = await socket.receive_json_from(timeout=TIMEOUT)
        assert board["version"] == game.version and board["view"]["seat"] == to_act
        assert await connections[1 - to_act][0].receive_nothing(timeout=0.5)
        await sockets.close_all()

    run(scenario)
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Move.objects.filter(game=game).count() == game.version


def test_refused_moves_name_the_reason_and_change_nothing(users):
    game = started_game(users, 2)
    raw = tokens_for(game)
    waiting = 1 - game.engine_state().active
    sockets = Sockets()

    async def scenario():
        socket, _ = await sockets.connect(f"/ws/games/{game.pk}/?format=json&token={raw[waiting]}")
        await socket.send_json_to({"action": {"type": "place", "to": "self"}, "version": 0})
        refusal = await socket.receive_json_from(timeout=TIMEOUT)
        assert refusal["status"] == 400 and refusal["version"] == 0
        assert "turn" in refusal["error"]
        await socket.send_json_to({"action": {"type": "fly"}, "version": 0})
        refusal = await socket.receive_json_from(timeout=TIMEOUT)
        assert refusal["status"] == 400 and "malformed" in refusal["error"]
        await sockets.close_all()

    run(scenario)
    assert not Move.objects.filter(game=game).exists()


BAD_FRAMES = [
    ("bytes", b"\x00\x01"),
    ("text", "x" * (consumers.MAX_FRAME_BYTES + 1)),
    ("text", "{not json"),
    ("text", "[" * 5000 + "]" * 5000),
    ("text", "[1, 2]"),
    ("text", '"resync"'),
    ("text", json.dumps({"action": "place", "version": 0})),
    ("text", json.dumps({"action": {"type": "place", "to": "self"}, "version": "0"})),
    ("text", json.dumps({"action": {"type": "place", "to": "self"}, "version": True})),
    ("text", json.dumps({"action": {"type": "place", "to": "self"}})),
    ("text", json.dumps({"action": {"type": "place", "to": "self"}, "version": 0, "x": 1})),
    ("text", json.dumps({"type": "resync", "game_id": 999999})),
]


def test_bad_frames_get_an_error_and_change_nothing(users):
    game = started_game(users, 2)
    active = game.engine_state().active
    raw = ApiToken.issue(seated_users(game)[active])[1]
    sockets = Sockets()

    async def scenario():
        socket, _ = await sockets.connect(f"/ws/games/{game.pk}/?format=json&token={raw}")
        for kind, payload in BAD_FRAMES:
            await socket.send_to(**{f"{kind}_data": payload})
            refusal = await socket.receive_json_from(timeout=TIMEOUT)
            assert refusal["status"] == 400 and refusal["version"] == 0, (payload, refusal)
        await socket.send_json_to({"type": "resync"})
        board = await socket.receive_json_from(timeout=TIMEOUT)
        assert board["version"] == 0 and board["view"]["seat"] == active
        await sockets.close_all()

    run(scenario)
    game.refresh_from_db()
    assert game.version == 0 and not Move.objects.filter(game=game).exists()


def test_a_stream_of_garbage_closes_the_socket(users):
    game = started_game(users, 2)
    raw = ApiToken.issue(users[0])[1]
    sockets = Sockets()

    async def scenario():
        socket, _ = await sockets.connect(f"/ws/games/{game.pk}/?format=json&token={raw}")
        for _ in range(consumers.MAX_BAD_FRAMES):
            await socket.send_to(text_data="garbage")
            assert (await socket.receive_json_from(timeout=TIMEOUT))["status"] == 400
        assert await closed_with(socket) == consumers.CLOSE_BAD_FRAMES
        await sockets.close_all()

    run(scenario)


def test_a_move_made_elsewhere_reaches_json_clients(users):
    game = started_game(users, 3)
    raw = ApiToken.issue(users[4])[1]  # a spectator
    mover = seated_users(game)[game.engine_state().active]
    sockets = Sockets()

    async def scenario():
        socket, first = await sockets.connect(f"/ws/games/{game.pk}/?format=json&token={raw}")
        assert json.loads(first)["view"]["hand"] is None
        await submit(game.pk, mover, {"type": "place", "to": "self"}, version=0)
        board = await socket.receive_json_from(timeout=TIMEOUT)
        assert board["version"] == 1 and board["view"]["seat"] is None
        assert board["view"]["hand"] is None and board["view"]["legal_actions"] == []
        await sockets.close_all()

    run(scenario)
