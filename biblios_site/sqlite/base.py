"""Django's SQLite backend, with the connections of finished HTTP requests kept for the next.

Django runs each HTTP request's sync code on a thread of its own (`biblios_site.http_handler`),
and a connection belongs to its thread, so every request opened one (with its PRAGMAs) and closed
it when it ended: together about a tenth of a loaded worker's CPU (`benchmarks.load`). A request
now hands its connection back as it ends (`release`) and the next request's thread takes it
instead of opening one. At most `IDLE_MAX` wait per database, so a worker's memory stays bounded
by the requests in flight, as when each was closed. Only a clean connection is kept: outside any
transaction, in autocommit, with no error since its last commit.
"""

import threading

from django.db.backends.sqlite3 import base

IDLE_MAX = 4

_lock = threading.Lock()
_idle: dict[str, list] = {}  # database file -> connections no request holds


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        with _lock:
            idle = _idle.get(self.settings_dict["NAME"])
            if idle:
                return idle.pop()
        return super().get_new_connection(conn_params)

    def release(self) -> None:
        """Hand this thread's connection to the next request if it is clean, else close it."""
        self.validate_thread_sharing()
        raw = self.connection
        if raw is None:
            return
        clean = (
            not self.in_atomic_block
            and not self.errors_occurred
            and not raw.in_transaction
            and self.get_autocommit()
        )
        if clean:
            with _lock:
                idle = _idle.setdefault(self.settings_dict["NAME"], [])
                if len(idle) < IDLE_MAX:
                    idle.append(raw)
                    self.connection = None
                    return
        self.close()


def idle_count(name: str) -> int:
    """How many connections to the database file `name` wait for a request."""
    with _lock:
        return len(_idle.get(name, ()))
