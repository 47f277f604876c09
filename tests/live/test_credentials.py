"""Credentials end, sockets end: a revoked token or an ended session closes its sockets (4401),
and a move or resync re-checks the credential, so a lost close message cannot leave one acting.
"""

import json
import random
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken
from games.models import Move
from games.play import consumers

from .helpers import TIMEOUT, Sockets, closed_with, next_move, run, started_game

pytestmark = pytest.mark.django_db(transaction=True)

UNAUTHENTICATED = consumers.CLOSE_UNAUTHENTICATED


def logged_in(user) -> tuple[Client, bytes]:
    """A browser of its own (its own session) and its session cookie for a socket."""
    browser = Client()
    browser.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return browser, f"{name}={browser.cookies[name].value}".encode()


def bearer(raw: str) -> dict:
    return {"headers": [(b"authorization", f"Bearer {raw}".encode())]}


async def acts(socket, action, version) -> bool:
    """Send a move and wait for the board after it: True once it is applied and pushed."""
    await socket.send_json_to({"action": action, "version": version})
    while True:  # presence redraws may come first
        output = await socket.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            return False
        if frame_version(output["text"]) == version + 1:
            return True


def frame_version(text: str) -> int | None:
    """The version a JSON or HTML board frame shows (None for a players-only redraw)."""
    if text.startswith("{"):
        return json.loads(text).get("version")
    versions = {int(found) for found in re.findall(r'data-version="(\d+)"', text)}
    return max(versions, default=None)


def moves(game) -> int:
    return Move.objects.filter(game=game).count()


@pytest.mark.parametrize("where", ["profile", "admin list", "admin page"])
def test_revoking_a_token_closes_its_sockets_and_no_other(users, django_user_model, where):
    """Revoked on the profile page or in the admin: its socket closes 4401, the same user's
    socket on another token stays open and can still move."""
    game = started_game(users, 2, seed=1)
    mover, action, version = next_move(game, random.Random(1))
    revoked, revoked_raw = ApiToken.issue(mover, "old bot")
    _, kept_raw = ApiToken.issue(mover, "new bot")
    if where == "profile":
        browser, _ = logged_in(mover)
        url, data = reverse("accounts:tokens"), {"action": "revoke", "token": revoked.pk}
    else:
        browser, _ = logged_in(django_user_model.objects.create_superuser("root", password="x"))
        if where == "admin list":
            url = reverse("admin:accounts_apitoken_changelist")
            data = {"action": "delete_selected", "_selected_action": [revoked.pk], "post": "yes"}
        else:
            url, data = (
                reverse("admin:accounts_apitoken_delete", args=[revoked.pk]),
                {"post": "yes"},
            )
    path = f"/ws/games/{game.pk}/?format=json"
    sockets = Sockets()

    async def scenario():
        (closing, _), (staying, _) = await sockets.connect_seats(
            [(path, bearer(revoked_raw)), (path, bearer(kept_raw))]
        )
        answer = await database_sync_to_async(browser.post)(url, data)
        assert answer.status_code == 302, answer.content.decode()[:500]
        assert await closed_with(closing) == UNAUTHENTICATED
        assert await acts(staying, action, version)
        await sockets.close_all()

    run(scenario)
    assert not ApiToken.objects.filter(pk=revoked.pk).exists()
    assert moves(game) == version + 1


@pytest.mark.parametrize("frame", ["move", "resync"])
def test_a_token_gone_without_a_close_message_cannot_act(users, frame):
    """Even if the close message is lost (another worker, a Redis hiccup), the next move or
    resync on the socket finds the token gone: 4401, nothing applied, no board sent."""
    game = started_game(users, 2, seed=1)
    mover, action, version = next_move(game, random.Random(1))
    token, raw = ApiToken.issue(mover)
    end_token = ApiToken.objects.filter(pk=token.pk).delete
    frame = {"action": action, "version": version} if frame == "move" else {"type": "resync"}
    assert_refused_once_ended(f"/ws/games/{game.pk}/?format=json", bearer(raw), end_token, frame)
    assert moves(game) == version


def assert_refused_once_ended(path: str, credential: dict, end, frame: dict) -> None:
    """A socket opened with `credential`, which `end()` then ends with no close message sent:
    the socket's next `frame` closes it 4401."""
    sockets = Sockets()

    async def scenario():
        socket, _ = await sockets.connect(path, **credential)
        await database_sync_to_async(end)()
        await socket.send_json_to(frame)
        assert await closed_with(socket) == UNAUTHENTICATED
        await sockets.close_all()

    run(scenario)


def test_logging_out_closes_that_sessions_page_socket_only(users):
    game = started_game(users, 2, seed=1)
    mover, action, version = next_move(game, random.Random(1))
    leaving, leaving_cookie = logged_in(mover)
    _, staying_cookie = logged_in(mover)
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()

    async def scenario():
        (closing, _), (staying, _) = await sockets.connect_seats(
            [(path, {"cookie": leaving_cookie}), (path, {"cookie": staying_cookie})]
        )
        answer = await database_sync_to_async(leaving.post)(reverse("accounts:logout"))
        assert answer.status_code == 302
        assert await closed_with(closing) == UNAUTHENTICATED
        assert await acts(staying, action, version)
        await sockets.close_all()

    run(scenario)
    assert moves(game) == version + 1


def end_session(how: str, session_key: str, user) -> None:
    """End a session the way nothing tells the sockets about."""
    if how == "deleted":
        Session.objects.filter(session_key=session_key).delete()
    elif how == "expired":
        Session.objects.filter(session_key=session_key).update(
            expire_date=timezone.now() - timedelta(seconds=1)
        )
    elif how == "password changed":
        user.set_password("a new password")
        user.save()
    elif how == "user deactivated":
        type(user).objects.filter(pk=user.pk).update(is_active=False)


@pytest.mark.parametrize("frame", ["move", "resync"])
@pytest.mark.parametrize("how", ["deleted", "expired", "password changed", "user deactivated"])
def test_an_ended_session_cannot_act_on_its_page_socket(users, how, frame):
    game = started_game(users, 2, seed=1)
    mover, action, version = next_move(game, random.Random(1))
    browser, cookie = logged_in(mover)
    session_key = browser.session.session_key
    frame = {"action": action, "version": version} if frame == "move" else {"type": "resync"}
    assert_refused_once_ended(
        f"/ws/games/{game.pk}/",
        {"cookie": cookie},
        lambda: end_session(how, session_key, mover),
        frame,
    )
    assert moves(game) == version
