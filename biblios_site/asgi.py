"""ASGI entry point: Django for HTTP, Channels for WebSockets.

Run with ``daphne biblios_site.asgi:application``.
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "biblios_site.settings")

# Set Django up before importing anything that may touch models (auth, consumers).
django.setup(set_prefix=False)

from biblios_site.http_handler import ReleasingASGIHandler  # noqa: E402

django_asgi_app = ReleasingASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from biblios_site import background, overload  # noqa: E402
from biblios_site.origin import SameOriginValidator  # noqa: E402
from biblios_site.routing import websocket_urlpatterns  # noqa: E402
from games.analysis import worker as analysis_worker  # noqa: E402
from games.play import turns  # noqa: E402
from games.tournaments import clock  # noqa: E402
from notifications import sending  # noqa: E402

application = ProtocolTypeRouter(
    {
        # Beyond what the worker can serve, an immediate 503 (biblios_site/overload.py).
        "http": overload.ShedRequests(django_asgi_app),
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Bots and timed-out turns are played by a worker on this process's event loop, and the
# notifications' outbox is sent, game analyses are run and tournaments started beside it
# (biblios_site/background.py).
background.start_with_daphne(
    turns.run_forever, sending.run_forever, analysis_worker.run_forever, clock.run_forever
)
