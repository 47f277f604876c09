"""A turn-based game's notices reach the player's device through the real outbox and the real
send_to_user, at a push service on 127.0.0.1: each notice exactly once, also when the process
dies after the commit or the push service fails and the outbox retries."""

import random
from collections import Counter

import pytest

from notifications import sending, texts
from notifications.models import Delivery, Notification
from tests.notifications.helpers import move
from tests.play import make_users, started_game
from tests.turns.helpers import acting_seat
from tests.webpush.push_service import BrowserKeys
from webpush.models import PushSubscription

pytestmark = pytest.mark.django_db

DAY = 24 * 3600


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run a service as its own commit would, the sending after the commit included."""

    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


@pytest.fixture
def players(django_user_model, vapid, push_service):
    """Two players, each with a subscribed phone at the local push service."""
    people = make_users(django_user_model, "pusher", count=2)
    for person in people:
        person.keys = BrowserKeys()
        info = person.keys.subscription(push_service.url(person.username))
        PushSubscription.objects.create(user=person, endpoint=info["endpoint"], **info["keys"])
    return people


def accepted(push_service, person) -> list[dict]:
    """What the person's phone got: the messages the push service accepted, decrypted."""
    return [
        person.keys.decrypt(message.body)
        for message in push_service.on(person.username)
        if message.accepted
    ]


def expected(person) -> Counter:
    """One message per notification of the person, with its texts and link."""
    return Counter(
        (text.title, text.body, text.url, f"game-{notification.game_id}")
        for notification in Notification.objects.filter(recipient=person)
        for text in [texts.render(notification)]
    )


def as_counter(payloads) -> Counter:
    return Counter((p["title"], p["body"], p["url"], p["tag"]) for p in payloads)


def test_each_notice_reaches_the_phone_once(players, push_service, committed):
    game = committed(started_game, players, 2, seed=5, turn_seconds=DAY)
    rng = random.Random(5)
    turns = Counter()  # how often the game came to each person (not the host at the start)
    if (first := acting_seat(game).user) != players[0]:
        turns[first.pk] += 1
    for _ in range(30):
        mover = committed(move, game, rng)
        game.refresh_from_db()
        if (awaited := acting_seat(game).user) != mover:
            turns[awaited.pk] += 1

    for person in players:
        your_turn = Notification.objects.get(recipient=person, event=Notification.Event.YOUR_TURN)
        assert turns[person.pk] >= 2  # several turns of each, days apart
        got = accepted(push_service, person)
        # Every turn pushed once, though the list keeps the newest turn's notice only.
        wanted = expected(person)
        turn = texts.render(your_turn)
        wanted[turn.title, turn.body, turn.url, f"game-{game.pk}"] = turns[person.pk]
        assert as_counter(got) == wanted
        assert all(p["url"].endswith(f"/games/{game.pk}/") for p in got)
    assert not Delivery.objects.filter(channel=Delivery.Channel.PUSH, sent_at=None).exists()


def test_a_retry_after_the_process_died_sends_each_once(
    players, push_service, committed, monkeypatch
):
    monkeypatch.setattr(sending, "send_soon", lambda ids: None)  # dies right after each commit
    game = committed(started_game, players, 2, seed=5, turn_seconds=DAY)
    committed(move, game, random.Random(5))
    assert push_service.received == []

    assert sending.send_pending() > 0
    assert sending.send_pending() == 0  # the next retry: nothing twice

    for person in players:
        assert as_counter(accepted(push_service, person)) == expected(person)


def test_a_push_service_failure_is_retried_and_delivered_once(players, push_service, committed):
    ada, basil = players
    push_service.answers[ada.username] = push_service.answers[basil.username] = 503
    game = committed(started_game, players, 2, seed=5, turn_seconds=DAY)
    refused = len(push_service.received)
    assert refused > 0  # sent after the commit, refused by the service

    pending = Delivery.objects.filter(channel=Delivery.Channel.PUSH, sent_at=None)
    assert pending.count() == refused
    assert all(row.attempts == 1 and "PushFailed" in row.last_error for row in pending)

    push_service.answers.clear()  # the service is back
    later = max(row.due_at for row in pending)
    assert sending.send_pending(now=later) == refused
    assert sending.send_pending(now=later) == 0
    for person in players:
        assert as_counter(accepted(push_service, person)) == expected(person)
        # The refused attempt carried the same notice and tag: had it reached the phone after
        # all, the retry would have replaced it, not shown a second one.
        refused_tags = {
            person.keys.decrypt(m.body)["tag"]
            for m in push_service.on(person.username)
            if not m.accepted
        }
        assert refused_tags <= {tag for *_, tag in expected(person)}
    assert Notification.objects.filter(game=game).exists()


def test_a_phone_that_unsubscribed_is_forgotten_not_retried(players, push_service, committed):
    ada, basil = players
    push_service.answers[basil.username] = 410
    committed(started_game, players, 2, seed=5, turn_seconds=DAY)

    assert not PushSubscription.objects.filter(user=basil).exists()
    assert not Delivery.objects.filter(channel=Delivery.Channel.PUSH, sent_at=None).exists()
    assert as_counter(accepted(push_service, ada)) == expected(ada)
