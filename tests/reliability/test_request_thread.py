"""A request's middleware and view run in one trip to its thread (`biblios_site.http_handler`).

Django's ASGI handler builds an async chain around an async core: with sync-only middleware in
it, each request went to its thread for the middleware, back to the event loop for the core
(`async_to_sync`) and to a thread again for the view, and each trip wakes the loop of a worker
that is also pushing boards.
"""

import pytest
from asgiref import sync
from channels.testing import HttpCommunicator

from biblios_site.asgi import application
from tests.live.helpers import run
from tests.play import make_users, started_game


@pytest.mark.parametrize("page", ["/", "/games/{game}/"])
def test_a_request_never_goes_back_to_the_event_loop_before_its_view(
    transactional_db, django_user_model, monkeypatch, page
):
    path = page.format(game=started_game(make_users(django_user_model, "reader")).pk)
    back_to_the_loop = []
    original = sync.AsyncToSync.__call__

    def counted(self, *args, **kwargs):
        if self.awaitable is not request:  # the test's own way into the loop
            back_to_the_loop.append(getattr(self.awaitable, "__qualname__", self.awaitable))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sync.AsyncToSync, "__call__", counted)
    statuses = []

    async def request():
        communicator = HttpCommunicator(application, "GET", path, headers=[(b"host", b"localhost")])
        statuses.append((await communicator.get_response(timeout=10))["status"])
        await communicator.wait(timeout=10)

    run(request)
    assert statuses == [200]
    assert back_to_the_loop == []
