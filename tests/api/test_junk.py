"""Junk of every kind sent to the API: always a JSON 4xx with a message, never a 500, and
nothing changes."""

import json
import random

import pytest
from django.test import override_settings

from games.api import views as api
from games.kinds.biblios import engine as biblios
from games.models import Game

from .conftest import snapshot, started_table

pytestmark = pytest.mark.django_db

RAW_BODIES = [
    b"",
    b"   ",
    b"null",
    b"true",
    b"0",
    b"-1e999",
    b'"text"',
    b"[]",
    b"[1, 2, 3]",
    b"{",
    b"}{",
    b"{'version': 0}",
    b'{"version": 0,}',
    b'{"version": NaN, "action": {}}',
    b'{"version": Infinity, "action": {}}',
    b'{"version": 1e999, "action": {"type": "pass"}}',
    b'{"version": ' + b"9" * 5000 + b', "action": {}}',
    b"\xff\xfe\x00garbage",
    b"\x00" * 64,
    '{"version": 0, "action": {"type": "caf\u00e9"}}'.encode("utf-16"),
    b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    b"version=0&action=pass",
]

ENVELOPES = [
    {},
    {"version": 0},
    {"action": {"type": "pass"}},
    {"version": 0, "action": {"type": "pass"}, "extra": 1},
    {"version": "0", "action": {"type": "pass"}},
    {"version": 0.0, "action": {"type": "pass"}},
    {"version": True, "action": {"type": "pass"}},
    {"version": None, "action": {"type": "pass"}},
    {"version": [0], "action": {"type": "pass"}},
    {"version": 0, "action": None},
    {"version": 0, "action": "pass"},
    {"version": 0, "action": ["place", "self"]},
    {"version": 0, "action": 7},
]

ACTIONS = [
    {},
    {"type": None},
    {"type": 5},
    {"type": ["place"]},
    {"type": {"place": "self"}},
    {"type": "teleport"},
    {"type": "place"},
    {"type": "place", "to": None},
    {"type": "place", "to": ["self"]},
    {"type": "place", "to": {"self": 1}},
    {"type": "place", "to": "self", "also": "public"},
    {"type": "pick", "card": None},
    {"type": "pick", "card": ["monks-A"]},
    {"type": "pick", "card": {"id": "monks-A"}},
    {"type": "pick", "card": "monks-Z"},
    {"type": "bid", "amount": 10**400},
    {"type": "bid", "amount": -(2**63)},
    {"type": "bid", "amount": 1.5},
    {"type": "bid", "amount": True},
    {"type": "bid", "amount": "3"},
    {"type": "bid", "amount": [3]},
    {"type": "pay", "cards": "gold-1-01"},
    {"type": "pay", "cards": [["gold-1-01"]]},
    {"type": "pay", "cards": [{"card": "gold-1-01"}]},
    {"type": "pay", "cards": [None, 3, 2.5]},
    {"type": "pay", "cards": ["gold-1-01"] * 1000},
    {"type": "give", "card": [1, [2, [3]]]},
    {"type": "use_church", "dice": "monks", "delta": 1},
    {"type": "use_church", "dice": [["monks"]], "delta": 1},
    {"type": "use_church", "dice": [{"x": 1}], "delta": 10**100},
    {"type": "use_church", "dice": ["monks"], "delta": 1.0},
    {"type": "use_church", "dice": [None], "delta": None},
    {"type": "discard_church", "card": "church-up1-1"},
    {"type": "refuse", "now": True},
    {"type": "pass" * 10_000},
]


def random_json(rng: random.Random, depth: int = 0):
    """A random JSON value: nested garbage with odd numbers, strings and card-like ids."""
    leaves = [
        None,
        True,
        False,
        0,
        -1,
        10 ** rng.randint(10, 300),
        rng.random() * 10 ** rng.randint(-300, 300),
        "",
        "self",
        "gold-1-01",
        "monks-A",
        "\u0000\ud7ff\uffff",
        "x" * rng.randint(0, 3000),
    ]
    if depth > 3 or rng.random() < 0.4:
        return rng.choice(leaves)
    if rng.random() < 0.5:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ["type", "to", "card", "cards", "amount", "dice", "delta", "version", "action", "z"]
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def random_action(rng: random.Random) -> dict:
    action = {"type": rng.choice(["place", "pick", "bid", "pass", "pay", "give", "use_church"])}
    for _ in range(rng.randint(0, 3)):
        action[rng.choice(["to", "card", "cards", "amount", "dice", "delta"])] = random_json(rng)
    return action


@pytest.fixture
def game_id(players):
    return started_table(players, 2)


def actor(players, game_id):
    """The client of the player whose turn it is (whose junk would otherwise be playable)."""
    game = Game.objects.get(pk=game_id)
    seat = biblios.to_act(game.engine_state())[0]
    user_id = game.seats.get(position=seat).user_id
    return next(p for p in players if p.user.pk == user_id)


def test_junk_bodies_never_break_the_action_endpoint(players, game_id):
    player = actor(players, game_id)
    url = f"/api/games/{game_id}/actions"
    before = snapshot(game_id)
    for raw in RAW_BODIES:
        for content_type in ("application/json", "text/plain"):
            response = player.post(url, raw=raw, content_type=content_type)
            assert response.status_code == 400, (raw[:40], response.data)
    for body in ENVELOPES + [{"version": 0, "action": action} for action in ACTIONS]:
        response = player.post(url, body)
        assert response.status_code == 400, (body, response.data)
    for version in (10**400, -(10**30), 2**63):
        stale = player.post(url, {"version": version, "action": {"type": "place", "to": "self"}})
        assert stale.status_code == 409 and stale.data["version"] == 0
    assert snapshot(game_id) == before


def test_random_garbage_never_breaks_any_endpoint(players, game_id):
    """Nested junk, odd numbers and card-like strings in every field, to every endpoint, by a
    player for whom the request is refused (so nothing may change)."""
    rng = random.Random(2024)
    player = actor(players, game_id)
    host = players[2]
    open_table = host.post("/api/tables", {"num_players": 3}).data["id"]
    state = Game.objects.get(pk=game_id).engine_state()
    legal = [a for seat in range(state.num_players) for a in biblios.legal_actions(state, seat)]
    before = snapshot(game_id), snapshot(open_table)

    def any_body():
        return rng.choice(
            [
                random_json(rng),
                {"version": random_json(rng), "action": random_json(rng)},
                {"version": 0, "action": random_action(rng)},
                {"invite_code": random_json(rng)},
            ]
        )

    def table_body():  # never a valid table: no random value is 2, 3 or 4
        return {"num_players": random_json(rng), "private": random_json(rng)}

    targets = [
        (player, f"/api/games/{game_id}/actions", any_body),
        (player, "/api/tables", table_body),
        (host, f"/api/tables/{open_table}/join", any_body),  # already seated there
        (player, f"/api/tables/{game_id}/start", any_body),  # already started
        (player, f"/api/tables/{game_id}/leave", any_body),
    ]
    sent = 0
    while sent < 150:
        client, url, body_of = rng.choice(targets)
        body = body_of()
        if isinstance(body, dict) and body.get("action") in legal:
            continue  # possibly a legal move: not junk
        response = client.post(url, raw=json.dumps(body))
        assert 400 <= response.status_code < 500, (url, body, response.data)
        sent += 1
    assert Game.objects.count() == 2
    assert (snapshot(game_id), snapshot(open_table)) == before


def test_junk_bodies_to_the_table_endpoints(players):
    table = players[0].post("/api/tables", {"num_players": 2}).data["id"]
    before = snapshot(table)
    for raw in RAW_BODIES[2:]:
        for url in ("/api/tables", f"/api/tables/{table}/join", f"/api/tables/{table}/start"):
            response = players[1].post(url, raw=raw)
            assert response.status_code == 400, (url, raw[:40], response.data)
    for body in ([], {"now": True}, {"invite_code": None}):
        assert players[0].post(f"/api/tables/{table}/leave", body).status_code == 400
    assert snapshot(table) == before


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_an_oversized_body_is_refused_in_json(players, game_id):
    player = actor(players, game_id)
    before = snapshot(game_id)
    body = {"version": 0, "action": {"type": "place", "to": "self", "pad": "x" * 2000}}
    response = player.post(f"/api/games/{game_id}/actions", body)
    assert response.status_code == 413 and "too large" in response.data["error"]
    assert snapshot(game_id) == before


# What once made a 500 or a wrong open seat somewhere, as JSON values: Unicode digits,
# numbers beyond int() or a database column, NUL (PostgreSQL refuses it in text), wrong types.
JUNK_VALUES = [
    "\u00b2",
    "\u0663",
    "9" * 5000,
    "\x00",
    "a\x00b",
    "",
    2**64,
    -(2**63) - 1,
    10**4000,
    1.5,
    None,
    True,
    False,
    0,
    [],
    {},
    [[]],
    [{}],
    [0],
    [False],
    [""],
    ["\x00"],
    ["\u00b2"],
]
ACTION_SHAPES = [
    ("type",),
    ("place", "to"),
    ("pick", "card"),
    ("give", "card"),
    ("bid", "amount"),
    ("pay", "cards"),
    ("use_church", "dice"),
    ("use_church", "delta"),
]


def test_every_api_field_gets_junk_and_nothing_changes(players, game_id):
    """Each field of each endpoint, alone wrong, with every junk value: a JSON 4xx, nothing
    created, joined or played (the caller is the player to act, so a valid move would apply)."""
    player = actor(players, game_id)
    host = players[2]
    private = host.post("/api/tables", {"num_players": 3, "private": True}).data["id"]
    before = snapshot(game_id), snapshot(private)
    tables = {"num_players": 2, "bots": [], "private": False}
    version = Game.objects.get(pk=game_id).version
    for value in JUNK_VALUES:
        for field, kind in api.TABLE_FIELDS.items():
            valid = (field, value) in (("bots", []), ("options", {}))
            if kind is bool and isinstance(value, bool) or valid:
                continue  # a valid setting, not junk
            response = player.post("/api/tables", {**tables, field: value})
            assert response.status_code == 400, (field, repr(value)[:40], response.data)
        if value is not None:  # null is an open seat
            response = player.post("/api/tables", {**tables, "bots": [value]})
            assert response.status_code == 400, (repr(value)[:40], response.data)
        if not isinstance(value, bool):  # an option is true or false
            options = {"forbid_uncoverable_bids": value}
            response = player.post("/api/tables", {**tables, "options": options})
            assert response.status_code == 400, (repr(value)[:40], response.data)
        response = player.post(f"/api/tables/{private}/join", {"invite_code": value})
        assert 400 <= response.status_code < 500, (repr(value)[:40], response.data)
        url = f"/api/games/{game_id}/actions"
        response = player.post(url, {"version": value, "action": {"type": "pass"}})
        assert 400 <= response.status_code < 500, (repr(value)[:40], response.data)
        for shape in ACTION_SHAPES:
            action = {"type": value} if shape == ("type",) else {"type": shape[0], shape[1]: value}
            response = player.post(url, {"version": version, "action": action})
            assert 400 <= response.status_code < 500, (action, response.data)
        if isinstance(value, str):
            assert player.get("/api/tables", {"status": value}).status_code == 400, value
            # '٣' reads as 3, like Django's IntegerField reads it: a page of 3 tables is fine.
            assert player.get("/api/tables", {"limit": value}).status_code in (200, 400), value
    assert (snapshot(game_id), snapshot(private)) == before
