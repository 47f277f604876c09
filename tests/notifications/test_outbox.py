"""The outbox sends what was committed exactly once: when the process dies between
the commit and the sending, when a worker dies holding its claim, when the mail server fails;
push goes only to users with a subscription, through webpush.delivery.send_to_user.
"""

import asyncio
import contextlib
import random
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.core.management import call_command
from django.utils import timezone

from notifications import sending, services, texts
from notifications.models import Delivery, Notification
from tests.notifications.helpers import move, unsent
from tests.play import started_game
from webpush import delivery as webpush_delivery
from webpush.models import PushSubscription

pytestmark = pytest.mark.django_db

Event = Notification.Event


@pytest.fixture
def dies_after_commit(monkeypatch):
    """The process dies right after each commit: nothing is sent from it."""
    monkeypatch.setattr(sending, "send_soon", lambda ids: None)


def turn_based_moves(people, committed, moves: int = 6):
    game = committed(started_game, people[:2], 2, seed=11, turn_seconds=86400)
    rng = random.Random(11)
    for _ in range(moves):
        committed(move, game, rng)
    return game


def test_a_retry_sends_what_a_dead_process_committed_once(people, committed, dies_after_commit):
    turn_based_moves(people, committed)
    waiting = unsent()
    assert waiting == Notification.objects.count() > 1 and mail.outbox == []
    assert sending.send_pending() == waiting
    assert sending.send_pending() == 0  # the retry after: nothing twice
    assert len(mail.outbox) == waiting and unsent() == 0
    assert sorted(m.subject for m in mail.outbox) == sorted(
        texts.render(n).title for n in Notification.objects.all()
    )


def test_the_management_command_drains_the_outbox(people, committed, dies_after_commit):
    turn_based_moves(people, committed)
    waiting = unsent()
    call_command("send_notifications")
    call_command("send_notifications")
    assert len(mail.outbox) == waiting and unsent() == 0


def test_a_worker_that_died_holding_rows_keeps_them_until_its_lease_ends(
    people, committed, dies_after_commit
):
    turn_based_moves(people, committed)
    now = timezone.now()
    waiting = Delivery.objects.update(claimed_by="dead-worker", due_at=now + sending.LEASE)
    assert sending.send_pending(now=now) == 0 and mail.outbox == []
    later = now + sending.LEASE + timedelta(seconds=1)
    assert sending.send_pending(now=later) == waiting
    assert sending.send_pending(now=later) == 0
    assert len(mail.outbox) == waiting


def test_a_notice_read_before_its_e_mail_went_is_not_sent(people, committed, dies_after_commit):
    """Read in the site while no worker ran: the e-mail would be old news. Its row says why
    and is never tried again; the notices still unread go."""
    turn_based_moves(people, committed, moves=12)
    ada, basil = people[:2]
    read = services.mark_read(basil)
    assert read >= 1 and Notification.objects.filter(recipient=ada).exists()
    waiting = unsent()
    assert sending.send_pending() == waiting - read
    assert sending.send_pending(now=timezone.now() + sending.MAX_BACKOFF) == 0
    assert {m.to[0] for m in mail.outbox} == {ada.email}
    skipped = Delivery.objects.filter(notification__recipient=basil)
    assert skipped.count() == read
    assert all(row.sent_at is None for row in skipped)
    assert {row.last_error for row in skipped} == {"read in the site before it was sent"}


class FailingOnce(EmailBackend):
    """A mail server that refuses the second message it is given, once."""

    calls = 0

    def send_messages(self, messages):
        FailingOnce.calls += 1
        if FailingOnce.calls == 2:
            raise ConnectionRefusedError("the mail server is down")
        return super().send_messages(messages)


def test_a_failed_message_is_retried_later_and_only_it(people, committed, settings):
    settings.EMAIL_BACKEND = f"{__name__}.FailingOnce"
    FailingOnce.calls = 0
    committed(started_game, people[:3], 3, seed=2, turn_seconds=86400)
    total = Notification.objects.count()
    assert total >= 2 and len(mail.outbox) == total - 1  # the second failed, the others went
    (failed,) = Delivery.objects.filter(sent_at=None)
    assert failed.attempts == 1 and "mail server is down" in failed.last_error
    assert failed.due_at > timezone.now()  # backs off
    assert sending.send_pending() == 0
    assert sending.send_pending(now=failed.due_at) == 1
    assert sending.send_pending(now=failed.due_at) == 0
    assert len(mail.outbox) == total and unsent() == 0
    assert mail.outbox[-1].to == [failed.notification.recipient.email]


def test_a_user_without_an_address_gets_no_e_mail_but_the_notice(people, committed):
    basil = people[1]
    basil.email = ""
    basil.save()
    committed(started_game, people[:3], 3, seed=2, turn_seconds=86400)
    assert Notification.objects.filter(recipient=basil).count() == 1
    assert not Delivery.objects.filter(notification__recipient=basil).exists()
    others = Notification.objects.exclude(recipient=basil)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(n.recipient.email for n in others)
    assert others.exists()


@pytest.fixture
def push_on(settings):
    settings.VAPID_PUBLIC_KEY = "public"
    settings.VAPID_PRIVATE_KEY = "private"
    settings.VAPID_SUBJECT = "mailto:admin@example.org"


def test_push_goes_once_to_subscribers_only_and_is_retried_after_a_failure(
    people, committed, monkeypatch, push_on
):
    ada, basil = people[:2]
    PushSubscription.objects.create(
        user=basil, endpoint="https://push.example/1", p256dh="k", auth="a"
    )
    pushed, failures = [], [True]

    def send_to_user(user, *, title, body, url, tag):
        if failures:
            failures.pop()
            raise webpush_delivery.PushFailed("503 from the push service")
        pushed.append((user, title, body, url, tag))
        return 1

    monkeypatch.setattr(webpush_delivery, "send_to_user", send_to_user)
    game = committed(started_game, [ada, basil], 2, seed=2, turn_seconds=86400)
    pushes = Delivery.objects.filter(channel=Delivery.Channel.PUSH)
    assert [d.notification.recipient for d in pushes] == [basil]  # ada has no subscription
    (push,) = pushes
    assert push.sent_at is None and push.attempts == 1 and "503" in push.last_error
    assert sending.send_pending(now=push.due_at) == 1
    assert sending.send_pending(now=push.due_at) == 0
    ((user, title, body, url, tag),) = pushed
    assert user == basil and url == f"http://localhost:8000/games/{game.pk}/"
    assert tag == f"game-{game.pk}" and title and body


@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_as_soon_as_a_commit_wakes_it(people, settings, monkeypatch):
    """With the outbox worker running (as in daphne) and its poll far away, a commit in another
    thread wakes it and it sends at once; cancelled, it leaves no worker behind."""
    settings.NOTIFY_POLL_S = 60
    calls = []
    send_pending = sending.send_pending

    def recorded(**kwargs):
        sent = send_pending(**kwargs)
        calls.append(("inline" if "ids" in kwargs else "worker", sent))
        return sent

    monkeypatch.setattr(sending, "send_pending", recorded)

    async def scenario():
        worker = asyncio.create_task(sending.run_forever())
        await asyncio.sleep(0.2)  # its first poll: nothing to send
        assert sending.outbox_alarm.armed_here
        await database_sync_to_async(started_game)(people[:2], 2, seed=2, turn_seconds=86400)
        for _ in range(100):
            if mail.outbox:
                break
            await asyncio.sleep(0.05)
        worker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await worker

    async_to_sync(scenario)()
    assert len(mail.outbox) == Notification.objects.count() >= 1 and unsent() == 0
    assert calls == [("worker", 0), ("worker", len(mail.outbox))]  # woken, not the poll
    assert not sending.outbox_alarm.armed_here
