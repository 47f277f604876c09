"""WebSocket URL routes, mounted by biblios_site.asgi.

The games app's consumers plug in here, e.g. ``path("ws/games/<int:pk>/", GameConsumer.as_asgi())``.
"""

websocket_urlpatterns = []
