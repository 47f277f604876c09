"""The base of every WebSocket consumer: once its client is gone, a socket sends nothing more.

A client may close its socket, or lose its network, while its consumer is sending. daphne then
raises autobahn's `Disconnected` ("Attempt to send on a closed protocol") out of the send: the
client's close frame has arrived but the disconnect has not reached the consumer yet. Left
alone, that ends the consumer with an exception, which daphne logs as an error ("Exception
inside application"), for what is ordinary life for a socket. Servers that follow ASGI 2.4
raise an `OSError` instead. Here the consumer notes the client gone (a debug line), drops that
frame and every later one, handles nothing more but the disconnect (whose clean-up still
runs, as always), and ends with it.
"""

import logging

from autobahn.exception import Disconnected
from channels.generic.websocket import AsyncWebsocketConsumer

logger = logging.getLogger(__name__)

# The application close codes every socket of the site uses, sent after the handshake so that
# clients (and bots) can read them.
CLOSE_BAD_FRAMES = 4400  # too many malformed frames
CLOSE_UNAUTHENTICATED = 4401  # no login, or its credential ended
CLOSE_FORBIDDEN = 4403  # not allowed to watch
CLOSE_NOT_FOUND = 4404  # no such game

# What an ASGI server raises from `send` when the client is gone: daphne's, the spec's.
CLIENT_GONE = (Disconnected, OSError)


class Consumer(AsyncWebsocketConsumer):
    """An `AsyncWebsocketConsumer` whose sends after its client left are dropped."""

    client_gone = False

    async def __call__(self, scope, receive, send):
        async def send_while_connected(message):
            if self.client_gone:
                return
            try:
                await send(message)
            except CLIENT_GONE as gone:
                self.client_gone = True
                logger.debug(
                    "%s: the client went away; %s and what follows dropped (%s)",
                    scope.get("path", "socket"),
                    message.get("type"),
                    gone,
                )

        await super().__call__(scope, receive, send_while_connected)

    async def dispatch(self, message):
        """With nobody to answer, only the disconnect (the consumer's clean-up) is handled."""
        if self.client_gone and message.get("type") != "websocket.disconnect":
            return
        await super().dispatch(message)
