"""Hostile input at every door: junk bodies, form fields, URLs and WebSocket frames.

Whatever arrives, the answer is a 4xx (never a 500), a socket answers with an error or closes
with its code (never a crashed consumer), and the game is exactly as it was.
"""

import asyncio
import json
import random
import re
import string
from urllib.parse import quote

import pytest
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.test import Client
from django.urls import URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

from accounts.forms import SignUpForm, TokenCreateForm, TokenRevokeForm
from accounts.models import ApiToken, User
from games.access import Visitor
from games.chat.forms import ChatForm, ReportForm
from games.history.selectors import HistoryFilterForm
from games.kinds.biblios import engine as biblios
from games.models import Game, Tournament
from games.play import selectors
from games.play.consumers import MAX_BAD_FRAMES
from games.tables.forms import TableForm
from notifications.tokens import unsubscribe_token
from tests.api.conftest import snapshot
from tests.live.helpers import Sockets, closed_with, run, session_cookie
from tests.play import seated_users, started_game
from tests.reliability.conftest import Board, token
from tests.tournaments.helpers import scheduled

FIXED_BODIES = [
    b"",
    b"{",
    b"null",
    b"[]",
    b'"text"',
    b"1e999999",
    b"NaN",
    b"-Infinity",
    b"9" * 5000,
    b"[" * 20000 + b"]" * 20000,
    b'{"a":' * 5000 + b"1" + b"}" * 5000,
    b"\x00\xff\xfe",
    b'{"version": 1, "action": {"type": "bid", "amount": 1e309}}',
    b'{"version": true, "action": {"type": "pass"}}',
    b'{"version": 1, "action": []}',
    b'{"version": 1, "action": {"type": "pass"}, "extra": 1}',
    b'{"num_players": "4"}',
    b'{"num_players": 99}',
    b'{"variant": ["biblios"]}',
    b'{"options": {"medieval_bluff": "yes"}}',
    b'{"invite_code": 5}',
]


def junk_value(rng: random.Random, depth: int = 0):
    kinds = ["int", "big", "float", "str", "bool", "null"] + (["list", "dict"] if depth < 3 else [])
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.randint(-5, 500)
    if kind == "big":
        return rng.choice([2**63, -(2**63) - 1, 10**40])
    if kind == "float":
        return rng.choice([0.5, -1.0, 1e300])
    if kind == "str":
        return "".join(
            rng.choice(string.printable + "éß\u202e\U0001f600") for _ in range(rng.randint(0, 20))
        )
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [junk_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {f"k{rng.randint(0, 99)}": junk_value(rng, depth + 1) for _ in range(rng.randint(1, 4))}


def junk_action(rng: random.Random, legal: list[dict]) -> dict:
    """A malformed or illegal action: right-looking types with wrong fields, or plain junk."""
    while True:
        action = {"type": rng.choice([*biblios.ACTION_FIELDS, "castle", "", "PLACE"])}
        for name in rng.sample(
            ["to", "card", "cards", "amount", "dice", "delta", "x"], rng.randint(0, 3)
        ):
            action[name] = junk_value(rng)
        if action not in legal:
            return action


def junk_bodies(rng: random.Random, board: dict, count: int) -> list[bytes]:
    bodies = list(FIXED_BODIES)
    while len(bodies) < count:
        pick = rng.random()
        if pick < 0.2:
            bodies.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))))
        elif pick < 0.4:
            bodies.append(json.dumps(junk_value(rng)).encode())
        else:
            version = rng.choice([board["version"], board["version"] + 1, -1, "1", None, 2**70])
            body = {"version": version, "action": junk_action(rng, board["legal_actions"])}
            bodies.append(json.dumps(body).encode())
    return bodies


@pytest.fixture
def game(users):
    return started_game(users, 2, seed=6)


def the_actor(game):
    seats = seated_users(game)
    seat = selectors.board_for(game, Visitor.of(game, seats[0]))["to_act"][0]
    return seats[seat], selectors.board_for(game, Visitor.of(game, seats[seat]))


@pytest.mark.django_db
def test_junk_api_requests_get_4xx_json_and_change_nothing(game):
    actor, board = the_actor(game)
    raw = ApiToken.issue(actor, "fuzz")[1]
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    before = snapshot(game.pk)
    rng = random.Random(1)
    paths = [
        "/api/tables",
        f"/api/tables/{game.pk}/join",
        f"/api/tables/{game.pk}/start",
        f"/api/tables/{game.pk}/leave",
        f"/api/games/{game.pk}/actions",
        f"/api/games/{game.pk + 1000}/actions",
        "/api/games/999999999999999999/actions",
    ]
    for body in junk_bodies(rng, board, 150):
        path = rng.choice(paths)
        content_type = rng.choice(["application/json", "text/plain", "multipart/form-data"])
        answer = client.generic("POST", path, body, content_type=content_type)
        assert 400 <= answer.status_code < 500, (path, body[:80], answer.status_code)
        assert answer["Content-Type"] == "application/json", (path, body[:80])
    for query in [
        "status=nope",
        "limit=0",
        "limit=999999999999",
        "limit=-1",
        "status=%00",
        "limit=1e3",
    ]:
        assert client.get(f"/api/tables?{query}").status_code == 400
    assert snapshot(game.pk) == before


@pytest.mark.django_db
def test_junk_form_fields_and_urls_get_4xx_and_change_nothing(game):
    actor, board = the_actor(game)
    client = Client()
    client.force_login(actor)
    before = snapshot(game.pk)
    rng = random.Random(2)
    for _ in range(120):
        action = junk_action(rng, board["legal_actions"])
        fields = {name: str(value) for name, value in action.items()}
        fields["version"] = rng.choice(
            ["", "x", "-1", "1e3", str(board["version"] + 1), "٣", "9" * 40]
        )
        if rng.random() < 0.3:
            fields[rng.choice(["cards", "dice", "csrfmiddlewaretoken", "é"])] = str(junk_value(rng))
        answer = client.post(
            f"/games/{game.pk}/act/", fields, HTTP_HX_REQUEST=rng.choice(["true", ""])
        )
        assert answer.status_code in (200, 302, 400, 403, 409), (fields, answer.status_code)
    segments = [
        "games",
        "api",
        "tables",
        "accounts",
        "join",
        "act",
        "log",
        "board",
        "%00",
        "..",
        "9" * 30,
        "-1",
        "é",
        "%ff",
        "<script>",
        "x" * 300,
        str(game.pk),
        "new",
        "start",
    ]
    for _ in range(150):
        path = (
            "/"
            + "/".join(rng.choice(segments) for _ in range(rng.randint(1, 4)))
            + rng.choice(["", "/"])
        )
        method = rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
        answer = client.generic(method, path, b"\x00junk", content_type="application/x-junk")
        assert answer.status_code < 500, (method, path, answer.status_code)
    assert snapshot(game.pk) == before


# What once answered 500 somewhere, as text: Unicode digits that str.isdigit() or
# int() accept, numbers too big for int() or for a database column, NUL (PostgreSQL refuses it
# in text), and the odd rest.
JUNK_TEXT = {
    "superscript-two": "\u00b2",
    "arabic-indic-three": "\u0663",
    "5000-digits": "9" * 5000,
    "2**64": str(2**64),
    "-2**63-1": str(-(2**63) - 1),
    "nul": "\x00",
    "nul-inside": "a\x00b",
    "float": "1e999",
    "empty": "",
}
# Anything the site's forms and pages read, so that each gets every junk value.
FORMS = [
    TableForm,
    SignUpForm,
    TokenCreateForm,
    TokenRevokeForm,
    ChatForm,
    ReportForm,
    HistoryFilterForm,
    AuthenticationForm,
    PasswordChangeForm,
]
OTHER_FIELDS = {"version", "type", "to", "card", "cards", "amount", "dice", "delta", "action"}
QUERY_FIELDS = {"page", "move", "as", "status", "limit", "next", "format", "language"}


def table_form_fields() -> set:
    """The table form's fields made per form: a seat per seat, and each kind's options under
    the kind's prefix."""
    form = TableForm()
    options = {o.add_prefix(name) for _, o in form.options_by_kind for name in o.fields}
    return set(form.fields) | options


FIELDS = sorted(
    set().union(*(form.base_fields for form in FORMS))
    | table_form_fields()
    | OTHER_FIELDS
    | QUERY_FIELDS
)
PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")


def site_routes() -> list[str]:
    """Every path() route of the site's own apps (the admin and regex routes left out), so a new
    page is fuzzed as soon as it is mounted."""
    found = []

    def walk(patterns, prefix: str) -> None:
        for entry in patterns:
            if not isinstance(entry.pattern, RoutePattern):
                continue
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                if route != "admin/":
                    walk(entry.url_patterns, route)
            else:
                found.append(route)

    walk(get_resolver().url_patterns, "")
    return found


def fill(route: str, values: dict, junk: tuple[str, str] | None = None) -> str:
    """The URL of `route` with each parameter's valid value, but `junk` = (name, text)."""

    def value(match) -> str:
        name = match.group(2)
        if junk is not None and junk[0] == name:
            return quote(junk[1], safe="")
        assert name in values, f"give the fuzz tests a valid value for <{name}> ({route})"
        return quote(str(values[name]), safe="")

    return "/" + PARAMETER.sub(value, route)


def everything(game) -> tuple:
    """What no refused request may change (chat posts aside: junk text is text)."""
    return snapshot(game.pk), User.objects.count(), ApiToken.objects.count(), Game.objects.count()


@pytest.fixture
def visitors(game, users):
    """An anonymous browser and a logged-in outsider who also carries an API token."""
    outsider = users[3]
    raw = ApiToken.issue(outsider, "fuzz")[1]

    def make():
        logged_in = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
        logged_in.force_login(outsider)
        return [Client(), logged_in]

    return make


def routes_and_values(game) -> tuple[list[str], dict]:
    values = {
        "game_id": game.pk,
        "username": game.host.username,
        "invite_code": game.invite_code,
        "kind": game.kind,
        "variant": game.variant,
        "token": unsubscribe_token(game.host),  # the e-mails' unsubscribe link (notifications)
        "action": "request",  # a friend button (friends)
        "move": 1,  # a decision of the game (its review's "what if")
        "tournament_id": tournament_of(game).pk,
    }
    return site_routes(), values


def tournament_of(game) -> Tournament:
    """A tournament open for registration, scheduled by a staff member (the tournaments' doors)."""
    staff = User.objects.create_user(f"staff{game.pk}", password="x", is_staff=True)
    return scheduled(staff)


@pytest.mark.django_db
@pytest.mark.parametrize("kind", JUNK_TEXT)
def test_junk_in_every_url_parameter_is_never_a_500(game, visitors, kind):
    routes, values = routes_and_values(game)
    with_parameters = [route for route in routes if PARAMETER.search(route)]
    assert len(with_parameters) >= 20  # the walk found the site's routes
    before = everything(game)
    for route in with_parameters:
        for name in {match.group(2) for match in PARAMETER.finditer(route)}:
            url = fill(route, values, (name, JUNK_TEXT[kind]))
            for client in visitors():
                for method in ("GET", "POST"):
                    answer = client.generic(method, url)
                    assert answer.status_code < 500, (method, url[:80], answer.status_code)
    assert everything(game) == before


@pytest.mark.django_db
@pytest.mark.parametrize("kind", JUNK_TEXT)
def test_junk_in_every_form_field_and_query_is_never_a_500(game, visitors, kind):
    """Each page gets every field any form of the site reads, all set to one junk value, once
    as one value and once as two (a list where a form expects one), by GET and by POST."""
    routes, values = routes_and_values(game)
    before = everything(game)
    text = JUNK_TEXT[kind]
    for route in routes:
        url = fill(route, values)
        for client in visitors()[1:]:  # the anonymous visitor mostly meets the log-in page
            for data in ({name: text for name in FIELDS}, {name: [text, text] for name in FIELDS}):
                for method in (client.get, client.post):
                    answer = method(url, data)
                    assert answer.status_code < 500, (url, kind, answer.status_code)
    assert everything(game) == before


def hostile_frames(other_game_id: int, board: dict) -> list:
    action = board["legal_actions"][0]
    return [
        b"\x00\x01binary",
        "x" * 100_000,
        "{not json",
        "[" * 50_000,
        "[]",
        "42",
        '"text"',
        "null",
        json.dumps({"action": "place", "version": board["version"]}),
        json.dumps({"action": action, "version": "1"}),
        json.dumps({"action": action, "version": True}),
        json.dumps({"action": action, "version": 10**30}),
        json.dumps({"action": {"type": "bid", "amount": 10**30}, "version": board["version"]}),
        json.dumps({"action": {"type": "castle"}, "version": board["version"]}),
        json.dumps({"action": action, "version": board["version"], "game_id": other_game_id}),
        json.dumps({"type": "resync", "extra": 1}),
        # Unicode digits, numbers beyond int() or a column, NUL and wrong types in every field.
        '{"action": {"type": "pass"}, "version": ' + "9" * 5000 + "}",
        json.dumps({"action": action, "version": "\u00b2"}),
        json.dumps({"action": action, "version": 2**64}),
        json.dumps({"action": action, "version": [board["version"]]}),
        json.dumps({"action": {"type": "bid", "amount": "\u00b2"}, "version": board["version"]}),
        json.dumps({"action": {"type": "bid", "amount": 2**64}, "version": board["version"]}),
        json.dumps({"action": {"type": "place", "to": "\x00"}, "version": board["version"]}),
        json.dumps({"action": {"type": "pick", "card": "a\x00b"}, "version": board["version"]}),
        json.dumps({"action": {"type": "pay", "cards": [{}]}, "version": board["version"]}),
        json.dumps({"action": {"type": "\x00"}, "version": board["version"]}),
        json.dumps({"action": action, "version": board["version"], "game_id": "\u00b2"}),
        json.dumps({"action": action, "version": board["version"], "game_id": 2**64}),
        json.dumps({"type": "resync\x00"}),
        json.dumps({"type": ["resync"]}),
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("as_json", [True, False], ids=["json", "html"])
def test_hostile_frames_are_answered_and_the_socket_survives_them(game, users, as_json):
    actor, board = the_actor(game)
    other = started_game(users[2:], 2, seed=7)
    cookie = session_cookie(actor)
    before = snapshot(game.pk)
    frames = hostile_frames(other.pk, board)
    path = f"/ws/games/{game.pk}/" + ("?format=json" if as_json else "")

    async def scenario():
        sockets = Sockets()
        # A fresh socket before the junk limit closes one (that closing is tested below).
        for start in range(0, len(frames), MAX_BAD_FRAMES - 1):
            communicator, _ = await sockets.connect(path, cookie=cookie)
            for frame in frames[start : start + MAX_BAD_FRAMES - 1]:
                if isinstance(frame, bytes):
                    await communicator.send_to(bytes_data=frame)
                else:
                    await communicator.send_to(text_data=frame)
                answer = await communicator.receive_from(timeout=10)
                if as_json:
                    assert "error" in json.loads(answer), frame[:60]
                # A stale move is answered with its error and then the current board.
                if not await communicator.receive_nothing(timeout=0.05):
                    await communicator.receive_from(timeout=10)
        await communicator.send_to(text_data=json.dumps({"type": "resync"}))
        resynced = await communicator.receive_from(timeout=10)
        if as_json:
            assert json.loads(resynced)["version"] == board["version"]
        else:
            assert 'id="board' in resynced
        for _ in range(30):  # a socket that keeps sending junk is closed with 4400
            await communicator.send_to(text_data="{junk")
            output = await communicator.receive_output(timeout=10)
            if output["type"] == "websocket.close":
                assert output["code"] == 4400
                break
        else:
            pytest.fail("a socket sending only junk was never closed")
        await sockets.close_all()

    run(scenario)
    assert snapshot(game.pk) == before


@pytest.mark.django_db(transaction=True)
def test_unknown_and_out_of_range_game_sockets_close_with_a_code(users):
    cookie = session_cookie(users[0])

    async def scenario():
        sockets = Sockets()
        for path in ["/ws/games/0/", "/ws/games/987654/", "/ws/games/99999999999999999999999/"]:
            communicator = sockets.open(path, cookie=cookie)
            await communicator.connect(timeout=10)
            assert await closed_with(communicator) == 4404, path
            await communicator.disconnect()

    run(scenario)


@pytest.mark.slow
def test_a_live_worker_survives_junk_socket_paths_and_handshakes(site, users):
    """On a real daphne worker: unrouted paths and broken handshakes are refused, and the
    worker logs no error for them (the `site` fixture checks its log)."""
    game = started_game(users, 2, seed=8)
    raw = token(users[0])
    url = site(1).urls[0]

    async def scenario():
        from benchmarks.client import Socket

        for path in ["/ws/nope/", "/ws/games/abc/", "/ws/games//", "/ws/games/1/extra/"]:
            junk = Socket(url + path, lambda text: None)
            with pytest.raises(ConnectionError):
                await junk.connect(timeout=15)
        board = await Board(url, game.pk, raw).open()
        assert board.latest["version"] == game.version
        await board.close()

    asyncio.run(scenario())
