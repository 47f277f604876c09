"""The site as production serves it, plus the load benchmark's bare echo socket at `ws/echo/`
(`benchmarks/echo.py`), the floor a push's latency is compared with. The benchmark starts its
workers on this module, so production wiring never imports a benchmark.

Run with ``daphne benchmarks.asgi:application``.
"""

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path

from biblios_site import asgi as site  # sets Django up and starts the turn worker, as in production
from biblios_site.origin import SameOriginValidator
from biblios_site.routing import websocket_urlpatterns

from .echo import EchoConsumer

application = ProtocolTypeRouter(
    {
        "http": site.application.application_mapping["http"],
        # Before the site's routes, whose last one refuses every other path.
        "websocket": SameOriginValidator(
            AuthMiddlewareStack(
                URLRouter([path("ws/echo/", EchoConsumer.as_asgi()), *websocket_urlpatterns])
            )
        ),
    }
)
