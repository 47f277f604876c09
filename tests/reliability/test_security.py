"""Who may act: each kind of outsider is refused at every door, and nothing changes.

The doors are the web form (`game_act`), the JSON API and the game WebSocket. Rate limits
(biblios_site/ratelimit.py) are one bucket of actions per user across all three, plus one of API
calls.
"""

import json
import time
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from biblios_site import ratelimit
from games.access import Visitor
from games.play import selectors
from tests.api.conftest import snapshot
from tests.live.helpers import ORIGIN, Sockets, run, session_cookie
from tests.play import seated_users, started_game
from tests.reliability.conftest import forget_hits

pytestmark = pytest.mark.django_db(transaction=True)


def form_of(action: dict, version: int) -> dict:
    return {**action, "version": str(version)}


@pytest.fixture
def table(users):
    """A started two-player game, its players by role, and its current board for the actor."""
    game = started_game(users, 2, seed=4)
    seats = seated_users(game)
    actor_seat = selectors.board_for(game, Visitor.of(game, seats[0]))["to_act"][0]
    actor, waiting = seats[actor_seat], seats[1 - actor_seat]
    board = selectors.board_for(game, Visitor.of(game, actor))
    return game, actor, waiting, users[3], board


def api(token: str | None, path: str, body=None, method="post"):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    call = getattr(Client(), method)
    if method == "get":
        return call(path, **headers)
    return call(path, json.dumps(body), content_type="application/json", **headers)


def test_logged_out_visitors_cannot_act(table):
    game, _, _, _, board = table
    before = snapshot(game.pk)
    move = form_of(board["legal_actions"][0], board["version"])
    assert Client().post(reverse("game_act", args=[game.pk]), move).status_code in (302, 403)
    body = {"version": board["version"], "action": board["legal_actions"][0]}
    assert api(None, f"/api/games/{game.pk}/actions", body).status_code == 401

    async def socket():
        sockets = Sockets()
        communicator = sockets.open(f"/ws/games/{game.pk}/?format=json")
        await communicator.connect()
        assert (await communicator.receive_output())["code"] == 4401
        await communicator.disconnect()

    run(socket)
    assert snapshot(game.pk) == before


def test_a_user_not_seated_cannot_act_anywhere(table):
    game, _, _, outsider, board = table
    before = snapshot(game.pk)
    move, action = form_of(board["legal_actions"][0], board["version"]), board["legal_actions"][0]
    client = Client()
    client.force_login(outsider)
    assert client.post(reverse("game_act", args=[game.pk]), move).status_code == 302
    token = ApiToken.issue(outsider, "t")[1]
    refused = api(
        token, f"/api/games/{game.pk}/actions", {"version": board["version"], "action": action}
    )
    assert refused.status_code == 403
    cookie = session_cookie(outsider)

    async def socket():
        sockets = Sockets()
        communicator, _ = await sockets.connect(f"/ws/games/{game.pk}/?format=json", cookie=cookie)
        await communicator.send_json_to({"action": action, "version": board["version"]})
        answer = await communicator.receive_json_from(timeout=10)
        assert answer["status"] == 403
        await sockets.close_all()

    run(socket)
    assert snapshot(game.pk) == before


def test_a_banned_user_is_shut_out_of_every_door(table):
    game, actor, _, _, board = table
    before = snapshot(game.pk)
    token = ApiToken.issue(actor, "t")[1]
    client = Client()
    client.force_login(actor)
    cookie = session_cookie(actor)
    actor.is_active = False
    actor.save(update_fields=["is_active"])
    move, action = form_of(board["legal_actions"][0], board["version"]), board["legal_actions"][0]
    answer = client.post(reverse("game_act", args=[game.pk]), move)
    assert answer.status_code == 302 and game.version == snapshot(game.pk)[1]
    body = {"version": board["version"], "action": action}
    assert api(token, f"/api/games/{game.pk}/actions", body).status_code == 401

    async def sockets():
        opened = Sockets()
        for path, options in (
            (f"/ws/games/{game.pk}/", {"cookie": cookie}),
            (f"/ws/games/{game.pk}/?format=json&token={token}", {}),
        ):
            communicator = opened.open(path, **options)
            await communicator.connect()
            assert (await communicator.receive_output())["code"] == 4401
            await communicator.disconnect()

    run(sockets)
    assert snapshot(game.pk) == before


def test_a_websocket_from_a_foreign_origin_is_refused(table):
    game, actor, _, _, _ = table
    cookie = session_cookie(actor)

    async def socket():
        communicator = Sockets().open(
            f"/ws/games/{game.pk}/", cookie=cookie, origin=b"https://evil.example"
        )
        connected, _ = await communicator.connect()
        assert not connected
        await communicator.disconnect()

    run(socket)
    assert ORIGIN != b"https://evil.example"


def test_a_form_post_without_its_csrf_token_is_refused(table):
    game, actor, _, _, board = table
    before = snapshot(game.pk)
    client = Client(enforce_csrf_checks=True)
    client.force_login(actor)
    move = form_of(board["legal_actions"][0], board["version"])
    assert client.post(reverse("game_act", args=[game.pk]), move).status_code == 403
    assert (
        client.post(reverse("game_act", args=[game.pk]), move, HTTP_HX_REQUEST="true").status_code
        == 403
    )
    assert snapshot(game.pk) == before


def test_another_players_token_cannot_play_the_actors_turn(table):
    game, _, waiting, _, board = table
    before = snapshot(game.pk)
    token = ApiToken.issue(waiting, "t")[1]
    body = {"version": board["version"], "action": board["legal_actions"][0]}
    refused = api(token, f"/api/games/{game.pk}/actions", body)
    assert refused.status_code in (400, 403) and refused.json()["error"]
    assert snapshot(game.pk) == before


@pytest.fixture
def tight_limits(settings, users, monkeypatch):
    # The limiter's window is fixed: with the clock running, a test that straddles the minute
    # would start over its count halfway through. Its clock stops at the start of this test.
    stopped = time.time()
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: stopped))
    # The other scopes keep the test settings' values: a page these tests load may count them.
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "action": "2/60", "api": "3/60"}
    for user in users:
        for scope in ("action", "api"):
            forget_hits(scope, user.pk)


def test_api_calls_over_the_limit_get_429_with_retry_after(table, tight_limits):
    game, actor, _, _, _ = table
    token = ApiToken.issue(actor, "t")[1]
    for _ in range(3):
        assert api(token, f"/api/games/{game.pk}", method="get").status_code == 200
    refused = api(token, f"/api/games/{game.pk}", method="get")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "too many requests" in refused.json()["error"]


def test_actions_share_one_limit_across_form_api_and_socket(table, tight_limits):
    game, actor, _, _, board = table
    token = ApiToken.issue(actor, "t")[1]
    client = Client()
    client.force_login(actor)
    # Two stale (refused) moves still count: a flood is a flood.
    stale = form_of(board["legal_actions"][0], board["version"] + 100)
    assert client.post(reverse("game_act", args=[game.pk]), stale).status_code == 302
    body = {"version": board["version"] + 100, "action": board["legal_actions"][0]}
    assert api(token, f"/api/games/{game.pk}/actions", body).status_code == 409
    before = snapshot(game.pk)
    move = form_of(board["legal_actions"][0], board["version"])
    refused = client.post(reverse("game_act", args=[game.pk]), move)
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    # htmx gets the board back with the refusal in it (the game page swaps 429s), not a bare text.
    refused = client.post(reverse("game_act", args=[game.pk]), move, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429 and refused["Retry-After"]
    assert (
        'id="board"' in refused.content.decode()
        and "too many requests" in refused.content.decode().lower()
    )
    refused = api(token, f"/api/games/{game.pk}/actions", {**body, "version": board["version"]})
    assert refused.status_code == 429 and refused["Retry-After"]
    cookie = session_cookie(actor)

    async def socket():
        sockets = Sockets()
        communicator, _ = await sockets.connect(f"/ws/games/{game.pk}/?format=json", cookie=cookie)
        await communicator.send_json_to({"action": body["action"], "version": board["version"]})
        assert (await communicator.receive_json_from(timeout=10))["status"] == 429
        await sockets.close_all()

    run(socket)
    assert snapshot(game.pk) == before
