"""A worker's HTTP requests leave no database connection open behind them, and on SQLite the
next request takes the one the last left instead of opening its own.

Django runs each request's sync code on a thread of its own, which opens its own connection;
with SQLite's persistent connections nothing closed it, and a worker's memory grew by the page
cache of each one left open (`biblios_site.http_handler`). Opening and closing one per request
instead cost a tenth of a loaded worker, so SQLite's (`biblios_site.sqlite`) wait, a few at
most, for the next request. The sockets' connection, on the one thread they share, stays open:
it is reused by every message.
"""

import threading

import pytest
from channels.testing import HttpCommunicator
from django.core.signals import request_started
from django.db import DatabaseError, connection
from django.db.backends.signals import connection_created
from django.db.utils import ConnectionHandler

from biblios_site.asgi import application
from biblios_site.sqlite import base as sqlite_pool
from tests.live.helpers import run
from tests.play import make_users, started_game


@pytest.mark.parametrize("page", ["/", "/daily/", "/games/{game}/", "/games/{game}/log/"])
def test_each_request_gives_up_the_connections_it_opened(transactional_db, django_user_model, page):
    path = page.format(game=started_game(make_users(django_user_model, "reader")).pk)
    opened, served, statuses = [], set(), []

    def on_open(sender, connection, **kwargs):
        opened.append((threading.current_thread(), connection, connection.connection))

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
    theirs = [(wrapper, raw) for thread, wrapper, raw in opened if thread in served]
    assert theirs, "the pages read the database"
    assert [wrapper for wrapper, _ in theirs if wrapper.connection is not None] == []
    if connection.vendor == "sqlite":  # one connection served the three requests in turn
        assert len({id(raw) for _, raw in theirs}) == 1, theirs


@pytest.fixture
def pool_database(db, tmp_path):
    """Connections of the SQLite backend that keeps them (`biblios_site.sqlite`) to a database
    file of this test's own, whatever database the pass runs on, and that file's name."""
    name = str(tmp_path / "pool.sqlite3")
    # Django wants a "default" alias in any set of databases.
    pool = {"ENGINE": "biblios_site.sqlite", "NAME": name}
    return ConnectionHandler({"default": pool, "pool": pool}), name


def on_a_thread_of_its_own(handler, work):
    """`work(wrapper)` on a new thread, with that thread's own wrapper (as a request has)."""
    done = []
    thread = threading.Thread(target=lambda: done.append(work(handler["pool"])))
    thread.start()
    thread.join(timeout=30)
    return done[0]


def make_dirty(wrapper, how: str) -> None:
    if how == "a transaction left open":
        wrapper.connection.execute("BEGIN")
    else:
        with pytest.raises(DatabaseError), wrapper.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table")


@pytest.mark.parametrize("how", ["a transaction left open", "an error"])
def test_only_a_clean_connection_is_kept_for_the_next_request(pool_database, how):
    handler, name = pool_database

    def use(wrapper, dirty=False):
        wrapper.ensure_connection()
        raw = wrapper.connection
        if dirty:
            make_dirty(wrapper, how)
        wrapper.release()
        return raw

    kept = on_a_thread_of_its_own(handler, use)
    assert on_a_thread_of_its_own(handler, use) is kept  # the next thread took it, gave it back
    idle = sqlite_pool.idle_count(name)
    spoilt = on_a_thread_of_its_own(handler, lambda wrapper: use(wrapper, dirty=True))
    assert spoilt is kept and sqlite_pool.idle_count(name) == idle - 1
    with pytest.raises(Exception, match="closed"):
        spoilt.execute("SELECT 1")


def test_at_most_a_few_connections_wait(pool_database):
    handler, name = pool_database
    holding, release = threading.Barrier(sqlite_pool.IDLE_MAX + 3), threading.Event()

    def hold(wrapper):  # as many requests in flight at once, each with its connection
        wrapper.ensure_connection()
        holding.wait(timeout=30)
        release.wait(timeout=30)
        wrapper.release()

    threads = [
        threading.Thread(target=on_a_thread_of_its_own, args=(handler, hold))
        for _ in range(sqlite_pool.IDLE_MAX + 2)
    ]
    for thread in threads:
        thread.start()
    holding.wait(timeout=30)
    release.set()
    for thread in threads:
        thread.join(timeout=30)
    assert sqlite_pool.idle_count(name) == sqlite_pool.IDLE_MAX
