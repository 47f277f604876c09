"""Seeing a game reads its notices (issue 19). A live table's start and end are told to its
players, but one who opens the game's page, or whose open page is pushed the news, needs no
unread badge for what they are looking at; other games' notices, and other players', stay
unread."""

import random
import re

import pytest
from channels.db import database_sync_to_async
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import services
from notifications import sending
from notifications.models import Delivery, Notification
from notifications.services import SEEN_GRACE
from tests.live.conftest import own_channel_layer  # noqa: F401  (a fresh channel layer)
from tests.live.helpers import QUIET, TIMEOUT, Sockets, run, session_cookie
from tests.notifications.helpers import hand_over
from tests.play import play_to_end, started_game

pytestmark = pytest.mark.django_db(transaction=True)

Event = Notification.Event
NAV_UNREAD = re.compile(r'<span id="nav-unread"[^>]*>(\d*)</span>')


def unread(user, game=None) -> int:
    rows = Notification.objects.filter(recipient=user, read_at=None)
    return (rows.filter(game=game) if game else rows).count()


def test_opening_a_game_reads_its_notices_and_no_others(people):
    ada, basil, clio = people[:3]
    first = started_game([ada, basil], 2, seed=5, turn_seconds=60)
    second = started_game([ada, basil], 2, seed=6, turn_seconds=60)
    assert unread(basil, first) == unread(basil, second) == 1  # each start

    # A spectator and a visitor open the second game: nobody's notices are read.
    spectator = Client()
    spectator.force_login(clio)
    for visitor in (spectator, Client()):
        assert visitor.get(f"/games/{second.pk}/").status_code == 200
    assert unread(basil, second) == 1

    player = Client()
    player.force_login(basil)
    page = player.get(f"/games/{first.pk}/")
    assert page.status_code == 200
    assert unread(basil, first) == 0 and unread(basil, second) == 1
    # The page's navigation counts what is left unread.
    assert NAV_UNREAD.search(page.content.decode()).group(1) == "1"


def test_the_start_and_the_end_pushed_to_an_open_page_are_read(people):
    """Both players sit at a live table with the page open: the guest's "game started" and
    the end told to whoever did not make the last move are read as their boards arrive."""
    ada, basil = people[:2]
    table = services.create_table(ada, services.TableSettings(2, turn_seconds=60))
    services.join_table(table.pk, basil)
    path = f"/ws/games/{table.pk}/"

    async def drain(socket):
        while not await socket.receive_nothing(timeout=QUIET):
            await socket.receive_from(timeout=TIMEOUT)

    async def scenario():
        sockets = Sockets()
        cookies = [await database_sync_to_async(session_cookie)(user) for user in (ada, basil)]
        seats = [await sockets.connect(path, cookie=cookie) for cookie in cookies]
        await database_sync_to_async(services.start_game)(table.pk, ada)
        for socket, _ in seats:
            await drain(socket)
        started = await database_sync_to_async(Notification.objects.get)(event=Event.GAME_STARTED)
        assert started.recipient_id == basil.pk and started.read_at is not None

        await database_sync_to_async(play_to_end)(table, random.Random(5))
        for socket, _ in seats:
            await drain(socket)
        finished = await database_sync_to_async(Notification.objects.get)(event=Event.GAME_FINISHED)
        assert finished.read_at is not None
        await sockets.close_all()

    run(scenario)
    assert unread(ada) == unread(basil) == 0
    # What they saw at the board is not e-mailed to them afterwards.
    assert sending.send_pending(now=timezone.now() + SEEN_GRACE) == 0
    assert mail.outbox == [] and Delivery.objects.count() == 2


def test_turns_pushed_to_an_open_page_are_read_and_others_wait(people):
    """At a turn-based table the player whose page is open sees each turn come; the one with
    no page open keeps each notice until they open the game."""
    ada, basil = people[:2]
    game = started_game([ada, basil], 2, seed=19, turn_seconds=86400)
    (first,) = Notification.objects.filter(recipient=basil)  # her start, or his turn
    rng = random.Random(19)

    async def drain(socket):
        while not await socket.receive_nothing(timeout=QUIET):
            await socket.receive_from(timeout=TIMEOUT)

    async def scenario():
        sockets = Sockets()
        cookie = await database_sync_to_async(session_cookie)(basil)
        socket, _ = await sockets.connect(f"/ws/games/{game.pk}/", cookie=cookie)
        for _ in range(4):  # the turn passes back and forth
            await database_sync_to_async(hand_over)(game, rng)
            await drain(socket)
        await sockets.close_all()

    run(scenario)
    first.refresh_from_db()
    assert first.read_at is not None
    assert Notification.objects.filter(recipient=basil, event=Event.YOUR_TURN).count() >= 2
    assert unread(basil) == 0
    assert unread(ada, game) >= 2  # each turn that came to her, in no page of hers
