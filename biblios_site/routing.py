"""WebSocket URL routes, mounted by biblios_site.asgi (session auth and origin check there)."""

from django.urls import path

from games.consumers import GameConsumer, LobbyConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
