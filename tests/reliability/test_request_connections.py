"""A worker's HTTP requests leave no database connection open behind them.

Django runs each request's sync code on a thread of its own, which opens its own connection;
with SQLite's persistent connections nothing closed it, and a worker's memory grew by the page
cache of each one left open (`biblios_site.http_handler`). The sockets' connection, on the
one thread they share, stays open: it is reused by every message.
"""

import threading

import pytest
from channels.testing import HttpCommunicator
from django.core.signals import request_started
from django.db.backends.signals import connection_created

from biblios_site.asgi import application
from tests.live.helpers import run
from tests.play import make_users, started_game


@pytest.mark.parametrize("page", ["/", "/daily/", "/games/{game}/", "/games/{game}/log/"])
def test_each_request_closes_the_connections_it_opened(transactional_db, django_user_model, page):
    path = page.format(game=started_game(make_users(django_user_model, "reader")).pk)
    opened, served, statuses = [], set(), []

    def on_open(sender, connection, **kwargs):
        opened.append((threading.current_thread(), connection))

    def on_request(sender, **kwargs):
        served.add(threading.current_thread())

    connection_created.connect(on_open)
    request_started.connect(on_request)

    async def requests():
        for _ in range(3):
            communicator = HttpCommunicator(
                application, "GET", path, headers=[(b"host", b"localhost")]
            )
            statuses.append((await communicator.get_response(timeout=10))["status"])
            await communicator.wait(timeout=10)  # the handler ends after its response is sent

    try:
        run(requests)
    finally:
        connection_created.disconnect(on_open)
        request_started.disconnect(on_request)
    assert len(statuses) == 3 and all(status < 500 for status in statuses), statuses
    # Only the requests' own (threads, not their numbers, which a later thread may reuse):
    # other tests' threads may still be at work meanwhile.
    theirs = [wrapper for thread, wrapper in opened if thread in served]
    assert theirs, "the pages read the database"
    assert [wrapper for wrapper in theirs if wrapper.connection is not None] == []
