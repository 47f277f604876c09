"""Limits where abuse is cheap: each refuses beyond its count, says when to come back, and
changes nothing.

The test settings lift these limits so the rest of the suite plays at machine speed; each test
here puts one back (settings.RATE_LIMITS, MAX_OPEN_TABLES_PER_USER, AXES_*). Windows are a day
long, so a test never straddles a window boundary and sees its count start over.
"""

import datetime
import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken, User
from biblios_site import overload
from biblios_site.ratelimit import LocalRate
from friends.models import Friendship
from games.models import Game, Report
from tests.live.helpers import Sockets, closed_with, run, session_cookie
from tests.play import started_game
from tests.reliability.conftest import forget_hits

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 24 * 3600
PASSWORD = "correct horse battery staple"


def limit(settings, scope: str, rate: str, *idents) -> None:
    """Put the real limit `rate` back on `scope`, with a fresh count for each of `idents`."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, scope: rate}
    for ident in idents:
        forget_hits(scope, ident)


def assert_retry_after(response, at_most: int) -> None:
    assert response.status_code == 429, response.status_code
    assert 1 <= int(response["Retry-After"]) <= at_most


def browser(user=None, ip="127.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=ip)
    if user is not None:
        client.force_login(user)
    return client


# ------------------------------------------------------------------------------ log in


@pytest.fixture
def lockout(settings):
    """Django-axes on, as in production: three failures per (username, IP), 15 minutes off."""
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)


@pytest.fixture
def scribe(django_user_model):
    return django_user_model.objects.create_user("scribe", password=PASSWORD, display_name="Scribe")


def log_in(client, username, password, url=None, **headers):
    return client.post(
        url or reverse("accounts:login"), {"username": username, "password": password}, **headers
    )


def logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_wrong_passwords_lock_out_that_username_from_that_address(lockout, scribe):
    attacker = browser(ip="10.1.1.1")
    for _ in range(2):
        answer = log_in(attacker, "scribe", "guess")
        assert answer.status_code == 200 and answer.context["form"].errors
    locked = log_in(attacker, "scribe", "guess")
    assert locked.status_code == 429 and int(locked["Retry-After"]) == 15 * 60
    assert "Too many failed log-ins" in locked.content.decode()
    # Even the right password is refused now, answered in the reader's language.
    locked = log_in(attacker, "scribe", PASSWORD, HTTP_ACCEPT_LANGUAGE="fr")
    assert locked.status_code == 429 and locked["Retry-After"]
    assert "Trop de connexions" in locked.content.decode()
    assert not logged_in(attacker)
    # The owner from another address, and another account from the attacker's, still log in.
    owner = browser(ip="10.2.2.2")
    assert log_in(owner, "scribe", PASSWORD).status_code == 302 and logged_in(owner)
    User.objects.create_user("other", password=PASSWORD, display_name="Other")
    assert log_in(attacker, "other", PASSWORD).status_code == 302 and logged_in(attacker)


def test_the_admin_login_and_api_tokens_work_with_the_lockout_on(lockout, scribe):
    scribe.is_staff = scribe.is_superuser = True
    scribe.save()
    admin = browser(ip="10.3.3.3")
    answer = log_in(admin, "scribe", PASSWORD, reverse("admin:login"))
    assert answer.status_code == 302 and logged_in(admin)
    token = ApiToken.issue(scribe, "bot")[1]
    attacker = browser(ip="10.3.3.3")
    for _ in range(3):
        answer = log_in(attacker, "scribe", "guess", reverse("admin:login"))
    assert answer.status_code == 429 and answer["Retry-After"]
    # A bearer token is not a password: the lockout does not touch the API.
    api = Client().get("/api/tables", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.status_code == 200


def test_log_in_attempts_per_address_are_limited(settings, scribe):
    """Guessing across many usernames costs a password hash each: capped per address."""
    limit(settings, "login", f"3/{DAY}", "10.4.4.4")
    client = browser(ip="10.4.4.4")
    for name in ("a", "b", "c"):
        assert log_in(client, name, "guess").status_code == 200
    refused = log_in(client, "scribe", PASSWORD)
    assert_retry_after(refused, DAY)
    assert "Too many requests" in refused.content.decode() and not logged_in(client)
    assert log_in(browser(ip="10.5.5.5"), "scribe", PASSWORD).status_code == 302


# ----------------------------------------------------------------------------- sign up


def sign_up(ip: str, name: str):
    return browser(ip=ip).post(
        reverse("accounts:signup"),
        {"username": name, "display_name": name, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_sign_ups_per_address_are_limited(settings):
    limit(settings, "signup", f"2/{DAY}", "10.6.6.6")
    for name in ("first", "second"):
        assert sign_up("10.6.6.6", name).status_code == 302
    refused = sign_up("10.6.6.6", "third")
    assert_retry_after(refused, DAY)
    assert "Too many requests" in refused.content.decode()
    assert 'name="username"' in refused.content.decode()  # the form, with its error
    assert not User.objects.filter(username="third").exists()
    assert sign_up("10.7.7.7", "third").status_code == 302


# ----------------------------------------------------------------------------- reports


def report(reporter, game, reported):
    return browser(reporter).post(
        reverse("game_report", args=[game.pk]),
        {"user": reported.pk, "reason": "rude"},
        headers={"HX-Request": "true"},
    )


def test_reports_are_limited_per_reported_player_and_per_reporter(settings, users):
    game = started_game(users, 4)
    limit(settings, "report_pair", f"2/{DAY}", f"{users[0].pk}:{users[1].pk}")
    limit(settings, "report", f"3/{DAY}", users[0].pk)
    for _ in range(2):
        assert report(users[0], game, users[1]).status_code == 200
    refused = report(users[0], game, users[1])
    assert_retry_after(refused, DAY)
    assert "Too many requests" in refused.content.decode()
    assert Report.objects.count() == 2
    assert report(users[0], game, users[2]).status_code == 200  # the reporter's third
    assert_retry_after(report(users[0], game, users[3]), DAY)
    assert Report.objects.filter(reporter=users[0]).count() == 3
    assert report(users[1], game, users[2]).status_code == 200  # others report as before


def test_the_chat_flood_refusal_says_when_to_write_again(users):
    game = started_game(users, 2)
    client = browser(users[0])
    for text in "abcde":
        answer = client.post(
            reverse("game_chat", args=[game.pk]), {"text": text}, headers={"HX-Request": "true"}
        )
        assert answer.status_code == 200
    refused = client.post(
        reverse("game_chat", args=[game.pk]), {"text": "f"}, headers={"HX-Request": "true"}
    )
    assert_retry_after(refused, 10)
    assert game.chat_messages.count() == 5


# ------------------------------------------------------------------------- open tables

TABLE = {"num_players": "2", "variant": "biblios"}


def test_open_tables_per_user_are_capped(settings, users):
    settings.MAX_OPEN_TABLES_PER_USER = 2
    host = browser(users[0])
    for _ in range(2):
        assert host.post(reverse("table_create"), TABLE).status_code == 302
    refused = host.post(reverse("table_create"), TABLE)
    assert refused.status_code == 400
    assert "you already have 2 open tables" in refused.content.decode().lower()
    token = ApiToken.issue(users[0], "bot")[1]
    answer = Client().post(
        "/api/tables",
        json.dumps({"num_players": 2}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert answer.status_code == 409 and "2 open tables" in answer.json()["error"]
    assert Game.objects.filter(host=users[0]).count() == 2
    # Tables of others, and the host's once one is closed, open as before.
    assert browser(users[1]).post(reverse("table_create"), TABLE).status_code == 302
    closing = Game.objects.filter(host=users[0]).first()
    assert host.post(reverse("game_leave", args=[closing.pk])).status_code == 302
    assert host.post(reverse("table_create"), TABLE).status_code == 302


# ---------------------------------------------------------------------------- resyncs


def is_board(frame: str, as_json: bool) -> bool:
    return '"view"' in frame if as_json else 'id="board"' in frame


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "html"])
def test_resyncs_per_socket_are_limited(settings, users, as_json):
    game = started_game(users, 2)
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "resync": f"2/{DAY}"}
    cookie = session_cookie(users[0])
    path = f"/ws/games/{game.pk}/" + ("?format=json" if as_json else "")

    async def socket():
        sockets = Sockets()
        communicator, _ = await sockets.connect(path, cookie=cookie)
        for _ in range(2):
            await communicator.send_json_to({"type": "resync"})
            assert is_board(await communicator.receive_from(timeout=10), as_json)
        await communicator.send_json_to({"type": "resync"})
        refusal = await communicator.receive_from(timeout=10)
        assert not is_board(refusal, as_json) and "too many requests" in refusal.lower()
        if as_json:
            frame = json.loads(refusal)
            assert frame["status"] == 429 and 1 <= frame["retry_after"] <= DAY
        else:
            assert 'id="board-message"' in refusal
        assert await communicator.receive_nothing(timeout=0.3)
        # Another socket of the same player has a count of its own.
        other, _ = await sockets.connect(path, cookie=cookie)
        await other.send_json_to({"type": "resync"})
        assert is_board(await other.receive_from(timeout=10), as_json)
        await sockets.close_all()

    run(socket)


def test_friend_requests_to_strangers_are_limited_and_answers_are_not(settings, users):
    """Each request lands on a stranger's friends page; accepting one costs nothing."""
    asker, *others = users
    limit(settings, "friend_request", f"2/{DAY}", asker.pk, others[2].pk)
    client = browser(asker)
    for other in others[:2]:
        client.post(reverse("friends:act", args=["request"]), {"user": other.pk})
    refused = client.post(
        reverse("friends:act", args=["request"]), {"user": others[2].pk}, follow=True
    )
    assert "Too many requests" in refused.content.decode()
    assert not Friendship.objects.filter(receiver=others[2]).exists()
    assert Friendship.objects.filter(sender=asker).count() == 2
    # Someone else's request, answered: no new request, no count.
    browser(others[2]).post(reverse("friends:act", args=["request"]), {"user": asker.pk})
    client.post(reverse("friends:act", args=["accept"]), {"user": others[2].pk})
    assert Friendship.objects.get(sender=others[2]).status == Friendship.Status.ACCEPTED


# ------------------------------------------------------------------------------ page reads


def test_page_reads_are_limited_per_user_else_per_address(settings, users):
    """Every GET outside the API and the static files counts, like API calls: an anonymous
    visitor by address, a logged-in player as themselves from any address."""
    player = f"user:{users[0].pk}"
    limit(settings, "page", f"3/{DAY}", "address:10.8.8.8", "address:10.8.8.9", player)
    anonymous = browser(ip="10.8.8.8")
    for name in ("home", "rules", "learn"):
        assert anonymous.get(reverse(name)).status_code == 200
    refused = anonymous.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr")
    assert_retry_after(refused, DAY)
    assert "Trop de requêtes" in refused.content.decode()
    # Not page reads: the static files (not served by the test runner: 404, not 429), the API
    # (counted per token), a form posted.
    assert anonymous.get(f"/{settings.STATIC_URL.strip('/')}/css/site.css").status_code == 404
    token = ApiToken.issue(users[1], "bot")[1]
    api = anonymous.get("/api/tables", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.status_code == 200
    assert anonymous.post(reverse("accounts:set_language"), {"language": "en"}).status_code == 302
    # Another address reads on; a player from the refused address is counted as themselves.
    assert browser(ip="10.8.8.9").get(reverse("home")).status_code == 200
    for _ in range(3):
        assert browser(users[0], ip="10.8.8.8").get(reverse("my_games")).status_code == 200
    assert_retry_after(browser(users[0], ip="10.9.9.9").get(reverse("home")), DAY)


# ------------------------------------------------------------------------- socket messages


@pytest.fixture
def socket_rates(settings, monkeypatch):
    """The per-worker message rates put back, day-long, with fresh counts (they live in this
    process, not the cache)."""
    rates = {"socket_message": f"3/{DAY}", "client_socket_message": f"5/{DAY}"}
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, **rates}
    monkeypatch.setattr(overload, "_socket_messages", LocalRate("socket_message"))
    monkeypatch.setattr(overload, "_client_socket_messages", LocalRate("client_socket_message"))


def test_a_socket_that_floods_is_closed_with_its_own_code(socket_rates, users):
    cookie = session_cookie(users[0])

    async def scenario():
        sockets = Sockets()
        nav = sockets.open("/ws/me/", cookie=cookie)
        assert (await nav.connect(timeout=10))[0]
        await nav.receive_from(timeout=10)  # the counts
        for _ in range(3):
            await nav.send_to(text_data="{}")
        assert await nav.receive_nothing(timeout=0.3)  # ignored, as ever
        await nav.send_to(text_data="{}")
        assert await closed_with(nav) == overload.CLOSE_FLOODING
        await sockets.close_all()

    run(scenario)


def test_a_clients_messages_past_its_rate_over_all_its_sockets_are_dropped(socket_rates, users):
    game = started_game(users, 2)
    path = f"/ws/games/{game.pk}/?format=json"
    watcher, another = session_cookie(users[2]), session_cookie(users[3])

    async def scenario():
        sockets = Sockets()
        first, _ = await sockets.connect(path, cookie=watcher)
        second, _ = await sockets.connect(path, cookie=watcher)
        for socket in (first, second, first, second, first):  # the client's 5, 3 per socket
            await socket.send_json_to({"type": "resync"})
            assert '"view"' in await socket.receive_from(timeout=10)
        await second.send_json_to({"type": "resync"})  # the client's 6th, the socket's 3rd
        assert await second.receive_nothing(timeout=0.3)
        other, _ = await sockets.connect(path, cookie=another)
        await other.send_json_to({"type": "resync"})
        assert '"view"' in await other.receive_from(timeout=10)
        await sockets.close_all()

    run(scenario)
