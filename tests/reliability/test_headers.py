"""Response headers and the WebSocket origin check ("Headers").

Every HTML page carries a Content-Security-Policy that allows this site's own scripts, styles
and sockets only, and no page holds inline code the policy would block; the language cookie is
Secure in production; the page that shows a new API token is never cached; a socket is accepted
only from a page of this very site (scheme, host and port). The browser side of the policy is
tests/browser/test_csp.py.
"""

import random
from html.parser import HTMLParser

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponseNotFound
from django.test import Client, RequestFactory, override_settings
from django.urls import reverse
from django_permissions_policy import PermissionsPolicyMiddleware
from whitenoise.middleware import WhiteNoiseMiddleware

from accounts.models import ApiToken
from biblios_site.asgi import application
from biblios_site.static import StaticFilesMiddleware
from games.tables import services
from notifications.tokens import unsubscribe_token
from tests.live.helpers import run
from tests.play import make_users, play_to_end, started_game
from tests.test_site import PRODUCTION_KEY, run_with_settings

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


class InlineCode(HTMLParser):
    """Collects what a policy without 'unsafe-inline' blocks: inline scripts and <style>
    elements, event-handler and style attributes (htmx's hx-on too), javascript: links."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script" and not attributes.get("src"):
            self.found.append(self.get_starttag_text())
        if tag == "style":
            self.found.append(self.get_starttag_text())
        for name, value in attrs:
            if name.startswith(("on", "hx-on", "style")):
                self.found.append(f"<{tag} {name}={value!r}>")
            if (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value!r}>")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def directives(header: str) -> dict[str, str]:
    parts = (part.strip().split(None, 1) for part in header.split(";") if part.strip())
    return {part[0]: part[1] if len(part) > 1 else "" for part in parts}


@pytest.fixture
def players(django_user_model):
    return make_users(django_user_model, "header")


def every_page(players) -> dict[str, tuple[Client, str]]:
    """Every kind of HTML page, with the browser that sees it: (client, url) by name."""
    anonymous, player, staff = Client(), Client(), Client()
    player.force_login(players[0])
    players[3].is_staff = players[3].is_superuser = True
    players[3].save()
    staff.force_login(players[3])
    finished = play_to_end(started_game(players, 2, seed=7), random.Random(7))
    playing = started_game(players, 3, seed=8)
    waiting = services.create_table(players[0], services.TableSettings(2))
    return {
        "lobby": (anonymous, reverse("home")),
        "lobby, logged in": (player, reverse("home")),
        "waiting room": (player, reverse("game", args=[waiting.pk])),
        "board while playing": (player, reverse("game", args=[playing.pk])),
        "board as a spectator": (anonymous, reverse("game", args=[playing.pk])),
        "finished board": (player, reverse("game", args=[finished.pk])),
        "replay": (player, reverse("game_replay", args=[finished.pk])),
        "log": (player, reverse("game_log", args=[playing.pk])),
        "my games": (player, reverse("my_games")),
        "player's games": (anonymous, reverse("player_games", args=[players[1].username])),
        "my profile (ratings chart, tokens)": (
            player,
            reverse("accounts:profile", args=[players[0].username]),
        ),
        "profile": (anonymous, reverse("accounts:profile", args=[players[1].username])),
        "leaderboard": (anonymous, reverse("ratings:leaderboard")),
        "rules": (anonymous, reverse("rules", args=["biblios"])),
        "rules, Scripts & Scribes": (
            anonymous,
            reverse("rules", args=["biblios", "scripts_and_scribes"]),
        ),
        "login": (anonymous, reverse("accounts:login")),
        "sign-up": (anonymous, reverse("accounts:signup")),
        "password change": (player, reverse("accounts:password_change")),
        "admin login": (anonymous, reverse("admin:login")),
        "admin game inspection": (staff, reverse("admin:games_game_inspect", args=[finished.pk])),
    }


@pytest.mark.django_db
def test_every_html_page_carries_the_policy_and_no_inline_code_it_would_block(players):
    pages = every_page(players)
    token_page = pages["my profile (ratings chart, tokens)"][0].post(
        reverse("accounts:tokens"), {"action": "create", "name": "bot"}
    )
    answers = {name: client.get(url) for name, (client, url) in pages.items()}
    answers["new API token"] = token_page
    for name, answer in answers.items():
        assert answer.status_code == 200, (name, answer.status_code)
        assert answer["Content-Type"].startswith("text/html"), name
        assert directives(answer.get("Content-Security-Policy", "")) == POLICY, name
        assert inline_code(answer.content.decode()) == [], name


@pytest.mark.django_db
def test_the_ratings_chart_is_on_the_profile_without_a_style_attribute(players):
    """The one style attribute the templates had; the chart is sized by site.css instead."""
    play_to_end(started_game(players, 2, seed=3), random.Random(3))
    html = Client().get(reverse("accounts:profile", args=[players[0].username])).content.decode()
    assert 'class="rating-chart"' in html
    assert inline_code(html) == []


@pytest.mark.django_db
def test_the_page_with_a_new_api_token_is_never_stored(players):
    client = Client()
    client.force_login(players[0])
    answer = client.post(reverse("accounts:tokens"), {"action": "create", "name": "bot"})
    assert answer.status_code == 200 and "raw_token" in answer.context
    cache_control = {part.strip() for part in answer["Cache-Control"].split(",")}
    assert {"no-store", "no-cache", "private"} <= cache_control


@pytest.mark.django_db
def test_the_language_cookie_is_http_only_and_same_site(players):
    answer = Client().post(reverse("accounts:set_language"), {"language": "fr", "next": "/"})
    cookie = answer.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "fr"
    assert cookie["httponly"] and cookie["samesite"] == "Lax"


def test_production_sends_the_language_cookie_over_https_only():
    """Loaded the way production loads them (DEBUG off), like tests/test_site.py does."""
    code = (
        "from django.conf import settings; "
        "print(settings.LANGUAGE_COOKIE_SECURE, settings.LANGUAGE_COOKIE_HTTPONLY, "
        "settings.LANGUAGE_COOKIE_SAMESITE)"
    )
    result = run_with_settings(code, DEBUG="0", SECRET_KEY=PRODUCTION_KEY)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "Lax"]


# ------------------------------------------------------ private pages, permissions, manifest


def cache_directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


@pytest.mark.django_db
def test_what_is_one_readers_is_never_stored_and_public_pages_stay_cacheable(players):
    """Hidden cards, private lists and account pages: every answer to a signed-in player, to the
    API and to a secret link is `private, no-store`; a visitor without a session is not."""
    pages = every_page(players)
    player = pages["board while playing"][0]
    playing = started_game(players, 2, seed=9)
    token = ApiToken.issue(players[0], "headers")[1]
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    waiting = services.create_table(players[1], services.TableSettings(2, private=True))
    private = {name: client.get(url) for name, (client, url) in pages.items() if client is player}
    private |= {
        "board fragment (htmx)": player.get(
            reverse("game", args=[playing.pk]), HTTP_HX_REQUEST="true"
        ),
        "move answered with the board (no socket)": player.post(
            reverse("game_act", args=[playing.pk]),
            {"version": 99, "type": "pass"},
            HTTP_HX_REQUEST="true",
        ),
        "your turn": player.get(reverse("your_turn")),
        "notifications": player.get(reverse("notifications:list")),
        "friends": player.get(reverse("friends:page")),
        "API board": Client().get(f"/api/games/{playing.pk}", **bearer),
        "API your turn": Client().get("/api/games/your-turn", **bearer),
        "API friends": Client().get("/api/friends", **bearer),
        "API notifications": Client().get("/api/notifications", **bearer),
        "API refusal": Client().get(f"/api/games/{playing.pk}"),
        "invite link, anonymous": Client().get(reverse("invite", args=[waiting.invite_code])),
        "unsubscribe link": Client().get(
            reverse("notifications:unsubscribe", args=[unsubscribe_token(players[0])])
        ),
    }
    for name, answer in private.items():
        assert answer.status_code in (200, 302, 401, 409), (name, answer.status_code)
        assert {"private", "no-store"} <= cache_directives(answer), (
            name,
            answer.get("Cache-Control"),
        )
    public = {
        name: client.get(url) for name, (client, url) in pages.items() if client is not player
    }
    for name in ("lobby", "rules", "board as a spectator", "leaderboard", "profile"):
        assert public[name].status_code == 200, name
        assert "no-store" not in cache_directives(public[name]), name


PRODUCTION_STATIC_STORAGE = "whitenoise.storage.CompressedManifestStaticFilesStorage"
FEATURES_DENIED = ("camera", "microphone", "geolocation", "payment", "usb", "serial", "hid")


@pytest.mark.django_db
def test_every_page_denies_the_browser_features_the_site_does_not_use(players):
    for name, (client, url) in every_page(players).items():
        policy = dict(
            part.strip().split("=", 1)
            for part in client.get(url).get("Permissions-Policy", "").split(",")
            if part.strip()
        )
        assert all(policy.get(feature) == "()" for feature in FEATURES_DENIED), (name, policy)
        assert policy["clipboard-write"] == "(self)", name  # the invite link's Copy button
        assert "notifications" not in policy and "push" not in policy, name


def test_notifications_and_push_are_not_policy_features():
    """Asked for by the profile's "Notify me" switch, they are permissions only: the policy
    library (which knows every feature the browsers do) refuses the names."""
    for name in ("notifications", "push"):
        with pytest.raises(ImproperlyConfigured):
            PermissionsPolicyMiddleware(lambda request: None, policy={name: []})


def test_collectstatics_manifest_is_not_served_but_the_files_are(tmp_path, settings):
    """What production serves from STATIC_ROOT (whitenoise, DEBUG off): every collected file,
    not `staticfiles.json`."""
    settings.STATIC_ROOT = tmp_path
    settings.WHITENOISE_AUTOREFRESH = False
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "site.0123456789ab.css").write_text("body{}")
    (tmp_path / "staticfiles.json").write_text(
        '{"paths": {"css/site.css": "css/site.0123456789ab.css"}, "version": "1.1"}'
    )
    with override_settings(
        STORAGES={**settings.STORAGES, "staticfiles": {"BACKEND": PRODUCTION_STATIC_STORAGE}}
    ):
        served = StaticFilesMiddleware(lambda request: HttpResponseNotFound())
        plain = WhiteNoiseMiddleware(lambda request: HttpResponseNotFound())
        factory = RequestFactory()
        prefix = "/" + settings.STATIC_URL.strip("/")
        assert served(factory.get(f"{prefix}/css/site.0123456789ab.css")).status_code == 200
        assert served(factory.get(f"{prefix}/staticfiles.json")).status_code == 404
        assert (
            plain(factory.get(f"{prefix}/staticfiles.json")).status_code == 200
        )  # whitenoise's own


def test_production_serves_static_files_through_the_manifest_free_middleware():
    code = "from django.conf import settings; print(settings.MIDDLEWARE[1])"
    result = run_with_settings(code, DEBUG="0", SECRET_KEY=PRODUCTION_KEY)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "biblios_site.static.StaticFilesMiddleware"


# ----------------------------------------------------------------- the WebSocket origin check


def accepted(headers: dict, *, path="/ws/lobby/", scheme=None) -> bool:
    """Whether the socket handshake with these headers is accepted (the lobby lets anyone in,
    so only the origin check can refuse it)."""
    communicator = WebsocketCommunicator(
        application, path, headers=[(k.encode(), v.encode()) for k, v in headers.items()]
    )
    if scheme:
        communicator.scope["scheme"] = scheme
    result = []

    async def handshake():
        connected, _ = await communicator.connect(timeout=10)
        result.append(connected)
        await communicator.disconnect()

    run(handshake)
    return result[0]


BEHIND_PROXY = {"ALLOWED_HOSTS": ["biblios.example.org"], "CSRF_TRUSTED_ORIGINS": []}
PROXY_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "origin",
    [
        "http://localhost:8000",  # the page's own origin
        "HTTP://LOCALHOST:8000",  # origins are compared case-insensitively
    ],
)
def test_a_socket_from_the_sites_own_page_is_accepted(origin):
    assert accepted({"host": "localhost:8000", "origin": origin})


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example:8000",  # another site
        "http://localhost:8001",  # the right host, another port
        "http://localhost",  # the right host, the default port
        "https://localhost:8000",  # the right host and port, another scheme
        "http://localhost:8000.evil.example",
        "null",  # a sandboxed frame or a file
        "",
        "http://[",  # not a URL
    ],
)
def test_a_socket_from_any_other_origin_is_refused(origin):
    assert not accepted({"host": "localhost:8000", "origin": origin})


@pytest.mark.django_db(transaction=True)
def test_a_socket_without_origin_or_to_a_host_not_allowed_is_refused():
    assert not accepted({"host": "localhost:8000"})
    # The Origin agrees with the Host, but the Host is not one of ALLOWED_HOSTS.
    assert not accepted({"host": "evil.example", "origin": "http://evil.example"})


@pytest.mark.django_db(transaction=True)
def test_behind_the_tls_proxy_only_the_https_origin_is_accepted(settings):
    """The worker sees ws://, the proxy says https in X-Forwarded-Proto, as for the pages."""
    for name, value in BEHIND_PROXY.items():
        setattr(settings, name, value)
    settings.SECURE_PROXY_SSL_HEADER = PROXY_HEADER
    proxied = {"host": "biblios.example.org", "x-forwarded-proto": "https"}
    assert accepted({**proxied, "origin": "https://biblios.example.org"})
    assert not accepted({**proxied, "origin": "http://biblios.example.org"})
    assert not accepted({**proxied, "origin": "https://biblios.example.org:8443"})
    assert not accepted({**proxied, "origin": "https://evil.example"})
    # Plain http to the proxy: the https page's origin does not match.
    plain = {"host": "biblios.example.org", "x-forwarded-proto": "http"}
    assert not accepted({**plain, "origin": "https://biblios.example.org"})
    assert accepted({**plain, "origin": "http://biblios.example.org"})


@pytest.mark.django_db(transaction=True)
def test_a_secure_socket_needs_the_https_origin(settings):
    """A server that ends TLS itself says wss in the scope."""
    settings.ALLOWED_HOSTS = ["biblios.example.org"]
    host = {"host": "biblios.example.org"}
    assert accepted({**host, "origin": "https://biblios.example.org"}, scheme="wss")
    assert not accepted({**host, "origin": "http://biblios.example.org"}, scheme="wss")


@pytest.mark.django_db(transaction=True)
def test_csrf_trusted_origins_are_accepted_too(settings):
    settings.ALLOWED_HOSTS = ["biblios.example.org"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org", "https://*.example.net"]
    host = {"host": "biblios.example.org"}
    assert accepted({**host, "origin": "https://play.example.org"})
    assert accepted({**host, "origin": "https://eu.example.net"})
    assert not accepted({**host, "origin": "http://play.example.org"})
    assert not accepted({**host, "origin": "http://eu.example.net"})
    assert not accepted({**host, "origin": "https://example.net.evil.example"})
