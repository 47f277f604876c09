"""Who is connected: shared through the database, shown to the other players live."""

import json
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from accounts.models import ApiToken
from games.models import Connection
from games.play import broadcast, presence
from games.tables import services

from .helpers import QUIET, TIMEOUT, Sockets, run, session_cookie, started_game

pytestmark = pytest.mark.django_db(transaction=True)

connected_seats = database_sync_to_async(presence.connected_seats)


def shown_presence(frame: str) -> dict[int, str]:
    """Seat -> "online"/"offline" as the players region shows it."""
    players = re.findall(
        r'data-seat="(\d+)">.*?class="presence (online|offline)"', frame, flags=re.S
    )
    return {int(seat): state for seat, state in players}


def test_a_player_coming_and_going_is_seen_by_the_others(users):
    game = started_game(users, 3)
    cookies = [session_cookie(user) for user in users[:3]]
    spectator = session_cookie(users[4])
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()

    async def scenario():
        first, board = await sockets.connect(path, cookie=cookies[0])
        assert shown_presence(board) == {0: "online", 1: "offline", 2: "offline"}
        second, board = await sockets.connect(path, cookie=cookies[1])
        assert shown_presence(board) == {0: "online", 1: "online", 2: "offline"}
        update = await first.receive_from(timeout=TIMEOUT)
        assert 'id="board-players"' in update and 'id="board-hand"' not in update
        assert shown_presence(update) == {0: "online", 1: "online", 2: "offline"}
        assert await connected_seats(game) == {0, 1}

        await sockets.connect(path, cookie=spectator)  # spectators are not shown
        assert await first.receive_nothing(timeout=QUIET)
        assert await connected_seats(game) == {0, 1}

        await second.disconnect(timeout=TIMEOUT)
        update = await first.receive_from(timeout=TIMEOUT)
        assert shown_presence(update) == {0: "online", 1: "offline", 2: "offline"}
        assert await connected_seats(game) == {0}
        await sockets.close_all()

    run(scenario)
    assert not Connection.objects.filter(game=game).exists()


def test_a_page_still_showing_the_waiting_room_gets_no_players_region(users, monkeypatch):
    """A presence redraw handled between the start's commit and its push would send the players
    region alone to a page that still shows the waiting room: htmx finds no #board-players there
    (oobErrorNoTarget, seen in a real browser). It waits for the start's push instead, which
    brings the whole board, who is connected included."""
    game = services.create_table(users[0], services.TableSettings(2))
    services.join_table(game.pk, users[1])
    withheld = []  # the start's hint, held back until the presence redraw has been handled
    real_game_changed = broadcast.game_changed
    monkeypatch.setattr(broadcast, "game_changed", lambda *args, **kw: withheld.append((args, kw)))
    path = f"/ws/games/{game.pk}/"
    cookies = [session_cookie(user) for user in users[:2]]
    sockets = Sockets()

    async def scenario():
        host, waiting = await sockets.connect(path, cookie=cookies[0])
        assert 'id="board-waiting"' in waiting
        await database_sync_to_async(services.start_game)(game.pk, users[0])
        await sockets.connect(path, cookie=cookies[1])  # the guest's page opens
        assert await host.receive_nothing(timeout=QUIET)
        assert withheld
        for args, kw in withheld:
            await database_sync_to_async(real_game_changed)(*args, **kw)
        board = await host.receive_from(timeout=TIMEOUT)
        assert board.index('id="board"') < board.index('id="board-players"')
        assert shown_presence(board) == {0: "online", 1: "online"}
        await sockets.close_all()

    run(scenario)


def test_json_clients_get_the_connected_seats(users):
    game = started_game(users, 2)
    raw = [ApiToken.issue(user)[1] for user in users[:2]]
    path = f"/ws/games/{game.pk}/?format=json&token="
    sockets = Sockets()

    async def scenario():
        first, board = await sockets.connect(path + raw[0])
        assert json.loads(board)["connected"] == [0]
        await sockets.connect(path + raw[1])
        update = json.loads(await first.receive_from(timeout=TIMEOUT))
        assert update["connected"] == [0, 1] and update["version"] == 0
        await sockets.close_all()

    run(scenario)


def test_one_of_two_tabs_closing_keeps_the_player_connected(users):
    game = started_game(users, 2)
    cookie = session_cookie(users[1])
    sockets = Sockets()

    async def scenario():
        tab, _ = await sockets.connect(f"/ws/games/{game.pk}/", cookie=cookie)
        await sockets.connect(f"/ws/games/{game.pk}/", cookie=cookie)
        await tab.receive_from(timeout=TIMEOUT)  # the second tab's arrival
        await tab.disconnect(timeout=TIMEOUT)
        assert await connected_seats(game) == {1}
        await sockets.close_all()

    run(scenario)


def test_a_connection_a_dead_worker_left_behind_stops_counting(users):
    game = started_game(users, 2)
    presence.connected(game.pk, users[0], "dead-worker!1")
    assert presence.connected_seats(game) == {0}
    Connection.objects.filter(channel_name="dead-worker!1").update(
        seen_at=timezone.now() - presence.STALE_AFTER - timedelta(seconds=1)
    )
    assert presence.connected_seats(game) == set()
    presence.connected(game.pk, users[1], "live!1")
    assert set(Connection.objects.values_list("channel_name", flat=True)) == {"live!1"}
    assert presence.connected_seats(game) == {1}


def test_one_heartbeat_keeps_every_socket_of_a_process_fresh_and_restores_swept_rows(users):
    game = started_game(users, 2)
    long_ago = timezone.now() - presence.STALE_AFTER + timedelta(seconds=5)
    sockets = {"worker!a": (game.pk, users[0].pk), "worker!b": (game.pk, users[1].pk)}
    presence.heartbeats.sockets.update(sockets)
    try:
        for name, (game_id, user_id) in sockets.items():
            Connection.objects.create(
                game_id=game_id, user_id=user_id, channel_name=name, seen_at=long_ago
            )
        Connection.objects.filter(channel_name="worker!b").delete()  # as a sweep would
        presence.still_connected(sockets)
        rows = Connection.objects.filter(channel_name__in=sockets)
        assert {row.channel_name: row.user_id for row in rows} == {
            name: user_id for name, (_, user_id) in sockets.items()
        }
        assert all(row.seen_at > long_ago + timedelta(seconds=4) for row in rows)
        assert presence.connected_seats(game) == {0, 1}
    finally:
        for name in sockets:
            presence.heartbeats.sockets.pop(name, None)
