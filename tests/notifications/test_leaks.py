"""Nothing a notification says reveals hidden information: whole turn-based games of
each live kind are played with every channel on (e-mail, push, the list page, the API), in
English, French and Spanish, and every text each player receives goes through the leak scans
the boards' tests use (tests/web for Biblios, tests/exlibris_site for Ex Libris) against what
that player's seat had been shown when it was sent."""

import json
import random

import pytest
from django.core import mail
from django.test import Client

from accounts.models import ApiToken
from games.models import Game
from notifications.models import Notification
from tests.api.conftest import ApiClient
from tests.kinds.biblios.site.test_leaks import assert_no_named_leak
from tests.kinds.exlibris.site import helpers as exlibris_scan
from tests.notifications.helpers import move
from tests.play import started_game
from tests.web import helpers as biblios_scan
from webpush import delivery as webpush_delivery
from webpush.models import PushSubscription

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "fr", "es")
PAGE_EVERY = 15


@pytest.fixture
def pushes(settings, monkeypatch):
    """Push on, each payload recorded as (user, text) instead of sent."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    settings.VAPID_SUBJECT = "mailto:admin@example.org"
    sent = []

    def send_to_user(user, *, title, body, url, tag):
        sent.append((user, json.dumps({"title": title, "body": body, "url": url, "tag": tag})))
        return 1

    monkeypatch.setattr(webpush_delivery, "send_to_user", send_to_user)
    return sent


def readers(people, count):
    for index, user in enumerate(people[:count]):
        user.language = LANGUAGES[index % len(LANGUAGES)]
        user.save()
        PushSubscription.objects.create(
            user=user, endpoint=f"https://push.example/{user.pk}", p256dh="k", auth="a"
        )
        user.api_key = ApiToken.issue(user, "leaks")[1]
    return people[:count]


def received_since(mails: int, pushed: int, pushes, users) -> list:
    """(user, text, where) of every e-mail and push sent since those counts."""
    by_address = {user.email: user for user in users}
    found = [
        (by_address[m.to[0]], m.subject + "\n" + m.body, "e-mail") for m in mail.outbox[mails:]
    ]
    return found + [(user, text, "push") for user, text in pushes[pushed:]]


def in_site(users) -> list:
    """(user, text, where) of each player's notifications page and API list."""
    found = []
    for user in users:
        client = Client()
        client.force_login(user)
        found.append((user, client.get("/notifications/").content.decode(), "page"))
        api = ApiClient(user.api_key, user)
        found.append((user, json.dumps(api.get("/api/notifications").data), "API"))
    return found


@pytest.mark.slow(seconds=15)  # a whole 3-player game, every text of every move scanned
def test_biblios_notifications_name_no_hidden_card(people, pushes, committed):
    users = readers(people, 3)
    game = committed(started_game, users, 3, seed=23, turn_seconds=43200)
    knowledge = biblios_scan.Knowledge(3)
    knowledge.update(biblios_scan.state_of(game))
    edition = game.variant
    probe = " ".join(sorted(knowledge.hidden(0)))
    with pytest.raises(AssertionError):  # the scan has teeth
        biblios_scan.assert_no_leak(probe, knowledge, 0, "probe")

    def check(user, seat, text, where):
        knowledge.update(biblios_scan.state_of(game))
        biblios_scan.assert_no_leak(text, knowledge, seat, where)
        assert_no_named_leak(text, knowledge, seat, edition, where)

    checked = play_and_scan_committed(game, users, pushes, committed, check)
    assert checked > 50
    assert {n.recipient.language for n in Notification.objects.all()} == set(LANGUAGES)


@pytest.mark.slow(seconds=10)  # a whole game, every text of every move scanned
def test_ex_libris_notifications_name_no_hidden_card(people, pushes, committed):
    users = readers(people, 2)
    game = committed(started_game, users, 2, seed=18, kind="exlibris", turn_seconds=86400)
    knowledge = exlibris_scan.Knowledge(2)
    knowledge.update(game.engine_state())
    hidden = exlibris_scan.secret_cards(game.engine_state(), 0)
    with pytest.raises(AssertionError):  # the scan has teeth
        knowledge.assert_no_leak(" ".join(sorted(hidden)), 0, "probe")

    def check(user, seat, text, where):
        game.refresh_from_db()
        knowledge.update(game.engine_state())
        knowledge.assert_no_leak(text, seat, where)

    assert play_and_scan_committed(game, users, pushes, committed, check) > 20


def play_and_scan_committed(game, users, pushes, committed, check) -> int:
    """`play_and_scan` with each move committed, so its notices are sent as it happens."""
    rng = random.Random(game.seed)
    seats = {seat.user_id: seat.position for seat in game.seats.all()}
    checked = 0
    moves = 0
    while game.status == Game.Status.ACTIVE:
        mails, pushed = len(mail.outbox), len(pushes)
        committed(move, game, rng)
        game.refresh_from_db()
        moves += 1
        texts = received_since(mails, pushed, pushes, users)
        if moves % PAGE_EVERY == 0 or game.status != Game.Status.ACTIVE:
            texts += in_site(users)
        for user, text, where in texts:
            check(user, seats[user.pk], text, f"{where} to seat {seats[user.pk]} after {moves}")
            checked += 1
    return checked
