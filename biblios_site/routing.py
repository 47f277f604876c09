"""WebSocket URL routes, mounted by biblios_site.asgi (session auth and origin check there)."""

from django.urls import path, re_path

from biblios_site.sockets import Consumer
from games.analysis.consumers import ReviewConsumer
from games.play.consumers import GameConsumer
from games.tables.consumers import LobbyConsumer
from notifications.consumers import NavConsumer


class NoSuchSocket(Consumer):
    """Any other path: the handshake is refused (403), instead of the router raising and the
    worker logging a crash for every junk URL."""

    async def connect(self):
        await self.close()


websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/games/<int:game_id>/review/", ReviewConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/me/", NavConsumer.as_asgi()),
]

websocket_urlpatterns.append(re_path(r"", NoSuchSocket.as_asgi()))
