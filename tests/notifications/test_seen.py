"""Seeing a game reads its notices. A live table's start and end are told to its
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

from games.play import presence
from games.tables import services
from notifications import sending
from notifications.models import Delivery, Notification, Preference
from notifications.services import SEEN_GRACE, set_email_choice
from tests.live.conftest import own_channel_layer  # noqa: F401  (a fresh channel layer)
from tests.live.helpers import QUIET, TIMEOUT, Sockets, run, session_cookie
from tests.notifications.helpers import hand_over, move, notices
from tests.play import play_to_end, started_game
from tests.turns.helpers import acting_seat

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


def test_turns_that_come_to_an_open_page_are_no_notice_and_others_wait(people):
    """At a turn-based table the player whose page is open sees each turn come: no notice, no
    e-mail or push for it; the one with no page open keeps one unread "Your turn" for the game,
    the newest turn's, until they open it."""
    ada, basil = people[:2]
    game = started_game([ada, basil], 2, seed=19, turn_seconds=86400)
    (first,) = Notification.objects.filter(recipient=basil)  # her start, or his turn
    rng = random.Random(19)
    mails_before = len(mail.outbox)

    async def drain(socket):
        while not await socket.receive_nothing(timeout=QUIET):
            await socket.receive_from(timeout=TIMEOUT)

    async def scenario():
        sockets = Sockets()
        cookie = await database_sync_to_async(session_cookie)(basil)
        socket, _ = await sockets.connect(f"/ws/games/{game.pk}/", cookie=cookie)
        for _ in range(6):  # the turn passes back and forth
            await database_sync_to_async(hand_over)(game, rng)
            await drain(socket)
        await sockets.close_all()

    run(scenario)
    first.refresh_from_db()
    assert first.read_at is not None  # read as the page opened
    assert list(Notification.objects.filter(recipient=basil)) == [first]
    assert (
        not Delivery.objects.filter(notification__recipient=basil)
        .exclude(notification=first)
        .exists()
    )
    assert unread(basil) == 0
    (turn,) = Notification.objects.filter(recipient=ada, game=game, event=Event.YOUR_TURN)
    assert turn.read_at is None and unread(ada, game) == 1
    # Ada was away: each of her three turns was e-mailed as it came; nothing went to Basil.
    assert [m.to for m in mail.outbox[mails_before:]] == [[ada.email]] * 3

    player = Client()
    player.force_login(ada)
    assert player.get(f"/games/{game.pk}/").status_code == 200
    assert unread(ada, game) == 0


def test_a_turn_that_comes_while_the_board_is_open_is_not_told(people):
    """Presence alone (a live socket row, as the game socket writes it) decides: the player
    whose board is open at that moment gets no notice and nothing in the outbox; once the
    page is closed, the next turn is told again and replaces the last notice."""
    ada, basil = people[:2]
    game = started_game([ada, basil], 2, seed=3, turn_seconds=43200)
    rng = random.Random(3)
    # Play until the game waits on Ada, then Basil's board opens and it goes back to him.
    if acting_seat(game).user != basil:
        hand_over(game, rng)
    hand_over(game, rng)
    told = notices(basil, Event.YOUR_TURN)
    presence.connected(game.pk, basil, "basil-page")
    hand_over(game, rng)  # his turn, on his open board
    assert acting_seat(game).user == basil
    assert notices(basil, Event.YOUR_TURN) == told
    hand_over(game, rng)
    presence.disconnected("basil-page")
    hand_over(game, rng)  # his turn, his page closed
    (turn,) = notices(basil, Event.YOUR_TURN)
    assert turn.read_at is None and turn.cause == f"g{game.pk}v{game.version}"
    assert turn.deliveries.get().channel == Delivery.Channel.EMAIL


def test_many_moves_leave_at_most_one_unread_turn_per_game_and_player(people):
    """Nobody opens the board between moves (they play through the API, say): after every move
    each player has at most one unread "Your turn" for the game, and a digest reader's digest
    keeps its due time as the notices replace one another."""
    ada, basil, clio = people[:3]
    set_email_choice(clio, Preference.Email.DIGEST)
    # Clio hosts: no start notice of hers waits in the digest, only her turns.
    game = started_game([clio, ada, basil], 3, seed=11, turn_seconds=43200)
    rng = random.Random(11)
    digest_due = None
    for _ in range(40):
        move(game, rng)
        for user in (ada, basil, clio):
            assert unread_turns(user, game) <= 1
        waiting = Delivery.objects.filter(channel=Delivery.Channel.DIGEST, sent_at=None)
        due = waiting.values_list("due_at", flat=True).first()
        if digest_due is not None:
            assert due == digest_due, "a replaced notice postponed the digest"
        digest_due = due
    assert digest_due is not None and waiting.count() == 1
    assert Notification.objects.filter(event=Event.YOUR_TURN).count() <= 3


def unread_turns(user, game) -> int:
    return Notification.objects.filter(
        recipient=user, game=game, event=Event.YOUR_TURN, read_at=None
    ).count()
