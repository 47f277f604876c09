"""The navigation's counts stay live over `ws/me/`: a new notification, a game
that comes to wait on you (or stops), notices read, each pushes the reader's new counts as
out-of-band swaps, to that reader's pages only, in their language."""

import random
import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from biblios_site.asgi import application
from games.moderation import services as moderation
from games.play import selectors
from notifications import services
from tests.live.conftest import own_channel_layer  # noqa: F401  (a fresh channel layer)
from tests.live.helpers import HOST, ORIGIN, QUIET, TIMEOUT, run, session_cookie
from tests.notifications.helpers import hand_over
from tests.play import started_game

pytestmark = pytest.mark.django_db(transaction=True)

COUNT = re.compile(
    r'<span id="(nav-[\w-]+)"(?: class="nav-count")?(?: title="[^"]*")?'
    r' hx-swap-oob="true">(\d*)</span>'
)


def counts(frame: str) -> dict:
    found = {name: int(value or 0) for name, value in COUNT.findall(frame)}
    assert set(found) == {
        "nav-menu-turns",
        "nav-menu-unread",
        "nav-turns",
        "nav-unread",
        "nav-friends",
    }, frame
    assert found["nav-menu-turns"] == found["nav-turns"]
    assert found["nav-menu-unread"] == found["nav-unread"]
    return {"turns": found["nav-turns"], "unread": found["nav-unread"]}


def socket(cookie):
    headers = [(b"host", HOST), (b"origin", ORIGIN)]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, "/ws/me/", headers=headers)


def test_counts_follow_turns_notices_and_reading_live(people):
    ada, basil, clio = people[:3]
    ada.language, ada.is_staff = "fr", True
    ada.save()
    game = started_game([ada, basil], 2, seed=19, turn_seconds=86400)
    rng = random.Random(19)

    async def scenario():
        sockets = {}
        for user in (ada, basil, clio):
            sockets[user] = socket(await database_sync_to_async(session_cookie)(user))
            connected, _ = await sockets[user].connect(timeout=TIMEOUT)
            assert connected
        first = {user: counts(await s.receive_from(timeout=TIMEOUT)) for user, s in sockets.items()}
        for user in (ada, basil):
            expected_turns = await database_sync_to_async(selectors.your_turn_count)(user)
            assert first[user]["turns"] == expected_turns
        assert first[clio] == {"turns": 0, "unread": 0}

        # The turn passes: the mover's count drops, the other's turn and unread counts rise.
        mover = await database_sync_to_async(hand_over)(game, rng)
        other = basil if mover == ada else ada
        pushed = counts(await sockets[other].receive_from(timeout=TIMEOUT))
        assert pushed == {"turns": 1, "unread": first[other]["unread"] + 1}
        dropped = counts(await sockets[mover].receive_from(timeout=TIMEOUT))
        assert dropped["turns"] == 0
        for idle in (sockets[clio], sockets[other], sockets[mover]):  # one push each, at most
            assert await idle.receive_nothing(timeout=QUIET)

        # Read: the reader's unread count goes to zero on their pages.
        await database_sync_to_async(services.mark_read)(other)
        assert counts(await sockets[other].receive_from(timeout=TIMEOUT))["unread"] == 0

        # A moderator's message reaches clio's page, in her language.
        await database_sync_to_async(moderation.message_user)(clio.pk, ada, "Bonjour", "test")
        frame = await sockets[clio].receive_from(timeout=TIMEOUT)
        assert counts(frame) == {"turns": 0, "unread": 1}
        for s in sockets.values():
            await s.disconnect()

    run(scenario)


def test_the_socket_is_for_logged_in_readers_and_speaks_their_language(people):
    ada = people[0]
    ada.language = "fr"
    ada.save()

    async def scenario():
        visitor = socket(None)
        connected, _ = await visitor.connect(timeout=TIMEOUT)
        assert connected
        closed = await visitor.receive_output(timeout=TIMEOUT)
        assert closed == {"type": "websocket.close", "code": 4401}
        mine = socket(await database_sync_to_async(session_cookie)(ada))
        await mine.connect(timeout=TIMEOUT)
        frame = await mine.receive_from(timeout=TIMEOUT)
        assert 'title="À vous de jouer"' in frame
        await mine.disconnect()

    run(scenario)


def test_logging_out_closes_the_socket(people):
    ada = people[0]
    client = Client()
    client.force_login(ada)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"

    async def scenario():
        mine = socket(cookie.encode())
        await mine.connect(timeout=TIMEOUT)
        await mine.receive_from(timeout=TIMEOUT)
        await database_sync_to_async(client.post)("/accounts/logout/")
        assert await mine.receive_output(timeout=TIMEOUT) == {
            "type": "websocket.close",
            "code": 4401,
        }

    run(scenario)
