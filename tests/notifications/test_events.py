"""Each event players are told of reaches them in the site and by e-mail exactly once: your turn
at turn-based tables, a game's start and end at any table, a rematch, a moderator's message;
never for a player's own move, never to bots, nothing for live tables' turns.

Time is injected (`now=`) as in tests/turnbased, so moves days apart take a moment.
"""

import random
from collections import Counter
from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from biblios_site import errors
from games.models import Game, ModerationAction
from games.moderation import services as moderation
from games.play import services as play_services
from games.play import turns
from games.tables import services as tables_services
from notifications import sending
from notifications.models import Notification
from notifications.services import SEEN_GRACE, notify
from tests.notifications.helpers import mails_to, move, notices, unsent
from tests.play import play_to_end, started_game
from tests.turnbased.helpers import waiting_on
from tests.turns.helpers import acting_seat, bot_table, play_until_idle

pytestmark = pytest.mark.django_db

Event = Notification.Event
DAY = timedelta(days=1)


@pytest.mark.slow(seconds=8)  # a whole game a move a day, every send committed
def test_a_24_hour_game_of_moves_days_apart_tells_each_player_once_per_turn(people, committed):
    """Two friends play a move a day, neither at the board between moves: each gets an e-mail
    each time the game comes to wait on them, none after their own move (a turn of several
    moves is one), the start and the end once; every e-mail goes once. Their list keeps one
    "Your turn" for the game, the newest: each turn's replaced the last."""
    ada, basil, clio = people[:3]
    game = committed(started_game, [ada, basil], 2, seed=19, turn_seconds=86400)
    (starter,) = waiting_on(game)
    # The host started it, on its page: neither the start nor her first turn is news to her;
    # the guest hears of the start, or that it is his turn.
    expected = Counter([starter.pk] if starter == basil else [])
    assert notices(ada) == []
    first = Event.YOUR_TURN if starter == basil else Event.GAME_STARTED
    assert [n.event for n in notices(basil)] == [first]

    rng = random.Random(19)
    now = game.started_at
    last_turns = {starter.pk: game.version}
    while game.status == Game.Status.ACTIVE:
        before = waiting_on(game)
        now += timedelta(hours=rng.randint(2, 23))
        mover = committed(move, game, rng, now)
        game.refresh_from_db()
        newly = waiting_on(game) - before
        assert mover not in newly
        expected.update(user.pk for user in newly)
        last_turns.update((user.pk, game.version) for user in newly)
    assert now - game.started_at > 7 * DAY, "the moves were not days apart"

    for user in (ada, basil):
        (turn,) = notices(user, Event.YOUR_TURN)
        assert turn.cause == f"g{game.pk}v{last_turns[user.pk]}"
        subjects = Counter(message.subject for message in mails_to(user))
        assert subjects[f"Your turn in game {game.pk}"] == expected[user.pk] > 5
    last_mover = game.seats.get(position=game.moves.order_by("-seq").first().seat).user
    finished = Notification.objects.filter(event=Event.GAME_FINISHED)
    assert [n.recipient for n in finished] == [basil if last_mover == ada else ada]
    assert notices(clio) == [] and mails_to(clio) == []
    # Each turn's e-mail went once; the start and the end's too.
    assert (
        len(mail.outbox)
        == sum(expected.values()) + Notification.objects.exclude(event=Event.YOUR_TURN).count()
    )
    assert unsent() == 0


def test_the_start_and_each_turn_are_told_once_however_often_notify_is_called(people, committed):
    ada, basil = people[:2]
    game = committed(started_game, [ada, basil], 2, seed=4, turn_seconds=43200)
    (waiting,) = waiting_on(game)

    def again():
        with transaction.atomic():
            notify(waiting, Event.YOUR_TURN, game=game)
            notify([ada, basil], Event.GAME_STARTED, game=game, actor=ada)

    committed(again)
    assert Notification.objects.count() == 2 and len(mail.outbox) == 2


def test_live_and_untimed_tables_tell_the_start_and_the_end_but_no_turn(people, committed):
    """A player who joined a live table and switched tabs hears that the host started it, and
    everyone hears of the end but its last mover; the turns themselves are told only at
    turn-based tables, where the players are not at the board."""
    ada, basil, clio, dora = people
    for seconds, (host, guest) in ((60, (ada, basil)), (None, (clio, dora))):
        game = committed(started_game, [host, guest], 2, seed=5, turn_seconds=seconds)
        assert [n.event for n in notices(host)] == []
        assert [n.event for n in notices(guest)] == [Event.GAME_STARTED]
        committed(play_to_end, game, random.Random(5))
        last = game.moves.order_by("-seq").first()
        last_mover = game.seats.get(position=last.seat).user
        finished = Notification.objects.filter(game=game, event=Event.GAME_FINISHED)
        assert [n.recipient for n in finished] == [guest if last_mover == host else host]
    assert not Notification.objects.filter(event=Event.YOUR_TURN).exists()
    # Their e-mails wait a moment, for a page open on the game to read them (test_seen.py):
    # unread, they go then.
    assert mail.outbox == []
    assert sending.send_pending(now=timezone.now() + SEEN_GRACE) == 4
    assert len(mail.outbox) == Notification.objects.count() == 4
    assert Counter(message.subject.split(" ")[0] for message in mail.outbox) == {"Game": 4}


def test_bots_get_nothing_and_their_moves_wake_the_person(people, committed):
    """A person against two bots at a 12-hour table: every bot move that hands the turn back
    tells them, and only them."""
    ada = people[0]
    game = committed(bot_table, ada, ["novice", "novice"], seed=3, turn_seconds=43200)
    rng = random.Random(3)
    while (seat := acting_seat(game)) is not None:  # each move its own commit
        if seat.bot_level:
            assert committed(turns.play_due) == 1
        else:
            committed(move, game, rng)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert set(Notification.objects.values_list("recipient", flat=True)) == {ada.pk}
    # One notice in the list, the newest turn's; an e-mail for each turn.
    assert len(notices(ada, Event.YOUR_TURN)) == 1
    turn_mails = [m for m in mails_to(ada) if m.subject == f"Your turn in game {game.pk}"]
    assert len(turn_mails) > 5
    # The person is told of the end unless their own move ended it.
    assert len(notices(ada, Event.GAME_FINISHED)) <= 1
    assert len(mail.outbox) == len(turn_mails) + len(notices(ada, Event.GAME_FINISHED))


def test_a_seat_the_bot_plays_is_not_woken_until_its_player_takes_it_back(people, committed):
    ada, basil = people[:2]
    game = committed(started_game, [ada, basil], 2, seed=7, turn_seconds=86400)
    rng = random.Random(7)
    committed(play_services.leave_game, game.pk, basil)
    told = len(notices(basil, Event.YOUR_TURN))
    for _ in range(30):
        seat = acting_seat(game)
        if seat is None:
            break
        if seat.user == basil:
            committed(play_until_idle)
        else:
            committed(move, game, rng)
    assert len(notices(basil, Event.YOUR_TURN)) == told


def test_a_rematch_tells_the_other_players_of_the_new_table(people, committed):
    ada, basil, clio = people[:3]
    game = committed(started_game, [ada, basil, clio], 3, seed=8)
    committed(play_to_end, game, random.Random(8))
    table = committed(tables_services.rematch, game.pk, basil)
    for user in (ada, clio):
        (notice,) = notices(user, Event.REMATCH)
        assert (notice.event, notice.game, notice.actor) == (Event.REMATCH, table, basil)
        (message,) = [m for m in mails_to(user) if "rematch" in m.subject]
        assert message.subject == "Reader 1 wants a rematch"
        assert f"http://localhost:8000/join/{table.invite_code}/" in message.body
    assert notices(basil, Event.REMATCH) == []
    committed(tables_services.rematch, game.pk, ada)  # joins the same table: nobody is told again
    rematches = Notification.objects.filter(event=Event.REMATCH)
    assert rematches.count() == 2
    assert len([m for m in mail.outbox if "rematch" in m.subject]) == 2


def test_a_moderators_message_reaches_the_user_with_its_reason_logged(people, committed):
    ada, basil = people[:2]
    ada.is_staff = True
    ada.save()
    committed(moderation.message_user, basil.pk, ada, "Please keep the chat friendly.", "chat")
    (notice,) = notices(basil)
    assert (notice.event, notice.text, notice.actor) == (
        Event.MODERATOR,
        "Please keep the chat friendly.",
        ada,
    )
    (message,) = mails_to(basil)
    assert message.subject == "A message from the moderators"
    assert "Please keep the chat friendly." in message.body
    action = ModerationAction.objects.get()
    assert (action.kind, action.reason, action.user) == ("message", "chat", basil)
    # A second message is a second notice.
    committed(moderation.message_user, basil.pk, ada, "Thank you.", "follow-up")
    assert len(notices(basil)) == 2


@pytest.mark.parametrize(
    "staff, message, reason, refusal",
    [
        (True, "Hello", "", errors.ServiceError),
        (True, "  ", "reason", errors.ServiceError),
        (False, "Hello", "reason", errors.NotAllowed),
    ],
)
def test_a_moderators_message_needs_staff_a_text_and_a_reason(
    people, staff, message, reason, refusal
):
    ada, basil = people[:2]
    ada.is_staff = staff
    ada.save()
    with pytest.raises(refusal):
        moderation.message_user(basil.pk, ada, message, reason)
    assert not Notification.objects.exists() and not ModerationAction.objects.exists()


def test_the_admin_action_sends_the_message(people, client, committed):
    admin_user = people[0]
    admin_user.is_staff = admin_user.is_superuser = True
    admin_user.save()
    client.force_login(admin_user)
    target = people[1]
    url = "/admin/accounts/user/"
    data = {"action": "message_users", "_selected_action": [target.pk]}
    page = client.post(url, data)
    assert page.status_code == 200 and "message" in page.content.decode()
    committed(client.post, url, {**data, "apply": "1", "reason": "r", "message": "Hi there"})
    (notice,) = notices(target)
    assert notice.text == "Hi there"
