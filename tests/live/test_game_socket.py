"""`ws/games/<id>/` for the game page: each socket gets its own board as oob HTML partials."""

import json
import random

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.access import INVITED_SESSION_KEY
from games.kinds.biblios import engine as biblios
from games.models import Game, Move
from games.play import consumers
from games.tables import services

from .helpers import (
    ORIGIN,
    QUIET,
    TIMEOUT,
    Sockets,
    board_version,
    card_ids_in,
    cards_on_data_attributes,
    closed_with,
    next_move,
    play,
    play_until_hands,
    run,
    seated_users,
    session_cookie,
    started_game,
    submit,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_each_seat_receives_its_own_board_and_a_spectator_only_public_cards(users):
    rng = random.Random(4)
    game, knowledge = play_until_hands(started_game(users, 3), rng)
    by_seat = seated_users(game)
    cookies = {seat: session_cookie(user) for seat, user in by_seat.items()}
    spectator = session_cookie(users[4])
    mover, action, version = next_move(game, rng)
    after = biblios.apply_action(game.engine_state(), services_seat(game, mover), action)
    knowledge.see(after)
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()

    async def scenario():
        seats = await sockets.connect_seats([(path, {"cookie": cookies[s]}) for s in range(3)])
        watcher, first = await sockets.connect(path, cookie=spectator)
        assert board_version(first) == version
        await submit(game.pk, mover, action, version=version)
        frames, boards = [], []  # what each socket sent, and the board its page then holds
        for socket, _ in seats:
            frames.append(sockets.boards[socket].apply(await socket.receive_from(timeout=TIMEOUT)))
            boards.append(sockets.boards[socket].html)
        watched = await watcher.receive_from(timeout=TIMEOUT)
        await sockets.close_all()
        return frames, boards, watched

    frames, boards, watched = run_and_return(scenario)
    secrets = [knowledge.secret_hand(after, seat) for seat in range(3)]
    assert all(secrets)
    for seat, frame in enumerate(frames):
        assert board_version(frame) == version + 1
        assert set(after.hands[seat]) <= cards_on_data_attributes(boards[seat])
        for other in range(3):
            if other != seat:
                assert not secrets[other] & card_ids_in(frame)
        assert not knowledge.hidden_from(seat) & card_ids_in(frame)
    assert board_version(watched) == version + 1
    assert not knowledge.hidden_from(None) & card_ids_in(watched)
    assert not any(set(hand) <= card_ids_in(watched) for hand in after.hands if hand)


def services_seat(game, user) -> int:
    return next(seat for seat, seated in seated_users(game).items() if seated == user)


def run_and_return(scenario):
    box = []

    async def keep():
        box.append(await scenario())

    run(keep)
    return box[0]


def test_a_stale_move_is_refused_with_the_current_board_and_changes_nothing(users):
    rng = random.Random(5)
    game = play(started_game(users, 2), rng, 3)
    mover, action, version = next_move(game, rng)
    cookies = {seat: session_cookie(user) for seat, user in seated_users(game).items()}
    mover_seat = services_seat(game, mover)
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()

    async def scenario():
        seats = await sockets.connect_seats([(path, {"cookie": cookies[s]}) for s in (0, 1)])
        socket = seats[mover_seat][0]
        await socket.send_json_to({"action": action, "version": version - 1})
        refused = await socket.receive_from(timeout=TIMEOUT)
        assert board_version(refused) == version
        assert 'id="board-message"' in refused and "has changed" in refused
        assert await seats[1 - mover_seat][0].receive_nothing(timeout=QUIET)
        await sockets.close_all()

    run(scenario)
    assert Game.objects.get(pk=game.pk).version == version
    assert Move.objects.filter(game=game).count() == version


def test_a_move_sent_on_the_socket_reaches_every_seat(users):
    rng = random.Random(6)
    game = started_game(users, 2)
    mover, action, version = next_move(game, rng)
    cookies = {seat: session_cookie(user) for seat, user in seated_users(game).items()}
    mover_seat = services_seat(game, mover)
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()

    async def scenario():
        seats = await sockets.connect_seats([(path, {"cookie": cookies[s]}) for s in (0, 1)])
        await seats[mover_seat][0].send_json_to({"action": action, "version": version})
        for socket, _ in seats:
            assert board_version(await socket.receive_from(timeout=TIMEOUT)) == version + 1
        await sockets.close_all()

    run(scenario)
    assert list(Move.objects.filter(game=game).values_list("action", flat=True)) == [action]


def test_reconnecting_gets_the_current_board(users):
    rng = random.Random(7)
    game = started_game(users, 2)
    cookie = session_cookie(users[0])
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()

    async def scenario():
        socket, first = await sockets.connect(path, cookie=cookie)
        assert board_version(first) == 0
        await socket.disconnect(timeout=TIMEOUT)
        await database_play(game, rng, 3)
        again, board = await sockets.connect(path, cookie=cookie)
        assert board_version(board) == 3
        assert 'id="board"' in board and 'id="board-hand"' in board
        await again.send_json_to({"type": "resync"})
        assert board_version(await again.receive_from(timeout=TIMEOUT)) == 3
        await sockets.close_all()

    run(scenario)


async def database_play(game, rng, moves):
    return await database_sync_to_async(play)(game, rng, moves)


def test_who_may_not_watch_is_refused_with_a_close_code(users, django_user_model):
    closed = started_game(users, 2, spectators_allowed=False)
    private = started_game(users, 2, private=True)
    outsider = session_cookie(users[4])
    player = session_cookie(users[0])
    invited = Client()
    invited.force_login(users[3])
    session = invited.session
    session[INVITED_SESSION_KEY] = [private.pk]
    session.save()
    invited_cookie = f"sessionid={session.session_key}".encode()
    sockets = Sockets()

    async def scenario():
        refusals = [
            (f"/ws/games/{closed.pk}/", None, consumers.CLOSE_UNAUTHENTICATED),
            (f"/ws/games/{closed.pk}/", outsider, consumers.CLOSE_FORBIDDEN),
            (f"/ws/games/{private.pk}/", outsider, consumers.CLOSE_FORBIDDEN),
            ("/ws/games/999999/", player, consumers.CLOSE_NOT_FOUND),
        ]
        for path, cookie, code in refusals:
            socket = sockets.open(path, cookie=cookie)
            assert (await socket.connect(timeout=TIMEOUT))[0]
            assert await closed_with(socket) == code, path
        for path, cookie in (
            (f"/ws/games/{closed.pk}/", player),
            (f"/ws/games/{private.pk}/", player),
            (f"/ws/games/{private.pk}/", invited_cookie),
        ):
            _, board = await sockets.connect(path, cookie=cookie)
            assert board_version(board) == 0
        await sockets.close_all()

    run(scenario)


def test_a_foreign_origin_is_refused_before_the_handshake(users):
    game = started_game(users, 2)
    cookie = session_cookie(users[0])
    sockets = Sockets()

    async def scenario():
        for path in (f"/ws/games/{game.pk}/", "/ws/lobby/"):
            socket = sockets.open(path, cookie=cookie, origin=b"http://evil.example")
            connected, _ = await socket.connect(timeout=TIMEOUT)
            assert not connected
        await sockets.close_all()

    run(scenario)
    assert not game.connections.exists()


def test_bad_frames_get_a_message_and_change_nothing(users):
    game = started_game(users, 2)
    cookie = session_cookie(seated_users(game)[game.engine_state().active])
    sockets = Sockets()

    async def scenario():
        socket, _ = await sockets.connect(f"/ws/games/{game.pk}/", cookie=cookie)
        for kind, payload in (
            ("bytes", b"\xff"),
            ("text", "{]"),
            ("text", "x" * (consumers.MAX_FRAME_BYTES + 1)),
            ("text", json.dumps({"action": [], "version": 0})),
            ("text", json.dumps({"action": {"type": "pick", "card": "gold-1-01"}, "version": 0})),
        ):
            await socket.send_to(**{f"{kind}_data": payload})
            refused = await socket.receive_from(timeout=TIMEOUT)
            assert refused.startswith('<div id="board-message"') and 'role="alert"' in refused
            assert 'hx-swap-oob="true"' in refused and board_version(refused) == 0
        await sockets.close_all()

    run(scenario)
    game.refresh_from_db()
    assert game.version == 0 and not Move.objects.filter(game=game).exists()


def test_the_waiting_room_follows_joins_and_the_start(users):
    game = services.create_table(users[0], services.TableSettings(2))
    host = session_cookie(users[0])
    sockets = Sockets()

    async def scenario():
        socket, first = await sockets.connect(f"/ws/games/{game.pk}/", cookie=host)
        assert 'id="board-waiting"' in first and "1 free seat" in first
        await socket.send_json_to({"action": {"type": "pass"}, "version": 0})
        refused = await socket.receive_from(timeout=TIMEOUT)
        assert 'id="board-waiting"' in refused and "waiting for players" in refused
        await join_table(game.pk, users[1])
        joined = await socket.receive_from(timeout=TIMEOUT)
        assert "0 free seats" in joined and str(users[1]) in joined
        await start_game(game.pk, users[0])
        started = await socket.receive_from(timeout=TIMEOUT)
        assert 'hx-swap-oob="outerHTML:#board-waiting, #board"' in started
        assert board_version(started) == 0 and 'id="board-hand"' in started
        await sockets.close_all()

    run(scenario)


join_table = database_sync_to_async(services.join_table)
start_game = database_sync_to_async(services.start_game)


def test_the_waiting_rooms_invite_link_is_the_full_url_of_the_sockets_site(users):
    """A live redraw of the waiting room (here: when a guest joins) keeps the full invite URL
    the page showed, built from the socket's own origin (a seat is still free after it)."""
    game = services.create_table(users[0], services.TableSettings(3))
    sockets = Sockets()
    link = f"{ORIGIN.decode()}/join/{game.invite_code}/"
    shown = f'<a href="{link}" id="invite-link">{link}</a>'
    host = session_cookie(users[0])

    async def scenario():
        socket, first = await sockets.connect(f"/ws/games/{game.pk}/", cookie=host)
        assert shown in first
        await join_table(game.pk, users[1])
        joined = await socket.receive_from(timeout=TIMEOUT)
        assert shown in joined
        await sockets.close_all()

    run(scenario)
