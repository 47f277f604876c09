"""A client that closes its socket while its consumer sends is ordinary: no error, and the
consumer stops sending.

daphne, once a client's close frame has come in and before the disconnect reaches the
consumer, raises autobahn's `Disconnected` ("Attempt to send on a closed protocol") from every
send; a consumer that let it through ended in an exception the worker logged as an error. The
sockets here run on the real application behind a server `send` that does just that from the
moment the client closes.
"""

import asyncio
import logging

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from biblios_site.asgi import application
from games.models import Connection
from games.play import broadcast
from notifications import live

from .helpers import HOST, ORIGIN, TIMEOUT, run, session_cookie, started_game

pytestmark = pytest.mark.django_db(transaction=True)


class ClosedMidSend:
    """The application behind a server that, once `close()` is called (the client's close
    frame came in), raises `gone` from every send, counting the refused sends."""

    def __init__(self, gone: Exception):
        self.gone = gone
        self.closed = False
        self.refused = 0

    def close(self) -> None:
        self.closed = True

    async def __call__(self, scope, receive, send):
        async def server_send(message):
            if self.closed:
                self.refused += 1
                raise self.gone
            await send(message)

        await application(scope, receive, server_send)


async def until(condition, timeout: float = TIMEOUT) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


SOCKETS = {
    # path, the hint that makes the consumer send (a group and a message of its own)
    "game": ("/ws/games/{game}/", lambda game, user: (broadcast.game_group(game), "game.changed")),
    "lobby": ("/ws/lobby/", lambda game, user: (broadcast.LOBBY_GROUP, "lobby.changed")),
    "navigation": ("/ws/me/", lambda game, user: (live.nav_group(user), "nav.changed")),
}


# What a server raises: daphne's (autobahn's), and an OSError as ASGI 2.4 asks of servers.
GONE = {
    "daphne": Disconnected("Attempt to send on a closed protocol"),
    "ASGI 2.4": ConnectionResetError("client disconnected"),
}


@pytest.mark.parametrize("server_kind", GONE)
@pytest.mark.parametrize("socket", SOCKETS)
def test_a_socket_closed_mid_send_logs_no_error_and_its_consumer_stops(
    users, caplog, socket, server_kind
):
    caplog.set_level(logging.DEBUG)
    game = started_game(users, 2, seed=5)
    path, hint = SOCKETS[socket]
    group, kind = hint(game.pk, users[0].pk)
    server = ClosedMidSend(GONE[server_kind])
    headers = [(b"host", HOST), (b"origin", ORIGIN), (b"cookie", session_cookie(users[0]))]
    communicator = WebsocketCommunicator(server, path.format(game=game.pk), headers=headers)
    layer = get_channel_layer()
    message = {"type": kind, "game_id": game.pk, "version": game.version, "seats_changed": True}

    async def scenario():
        connected, _ = await communicator.connect(timeout=TIMEOUT)
        assert connected
        await communicator.receive_from(timeout=TIMEOUT)  # the first frame
        server.close()  # the client's close frame is in; its disconnect is not yet
        await layer.group_send(group, message)
        await until(lambda: server.refused == 1)
        # Stopped: later news sends nothing, not even a refused attempt.
        for _ in range(3):
            await layer.group_send(group, message)
        await asyncio.sleep(0.5)
        assert server.refused == 1
        # The disconnect arrives and the consumer ends cleanly (an exception would be raised
        # here), its clean-up done: the game socket's presence row is gone.
        await communicator.disconnect(timeout=TIMEOUT)
        assert communicator.future.done() and communicator.future.exception() is None
        assert not await database_sync_to_async(Connection.objects.exists)()

    run(scenario)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    (gone,) = [r for r in caplog.records if r.name == "biblios_site.sockets"]
    assert gone.levelno == logging.DEBUG and "the client went away" in gone.getMessage()
