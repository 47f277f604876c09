"""Django's ASGI handler, but each request's own database connections given up when it ends.

Django runs a request's sync code on a thread of its own (a `ThreadSensitiveContext` per
request), and database connections belong to a thread, so every HTTP request opens its own.
With SQLite's persistent connections (`CONN_MAX_AGE = None`, which the sockets reuse, all on
one thread), nothing ever closed a request's: a worker kept each until its thread's storage was
collected, with its page cache (up to 2 MiB), 29 open at once after a minute of the load
benchmark, and its resident memory grew for that minute. Given up on the request's own thread
once the response is sent, a worker holds at most one per request in flight, and a few idle:
SQLite's are kept for the next request (`biblios_site.sqlite`), the others closed (PostgreSQL's
go back to Django's pool).

The middleware and the view run in one trip to that thread. Django's ASGI handler builds an
async middleware chain around an async core: with our sync-only middleware in it, a request
went to the thread for the middleware, back to the event loop for the core, and to the thread
again for the view (each trip a wake-up of the loop). No view here is async, so the whole sync
chain runs in one call.
"""

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import connections


class ReleasingASGIHandler(ASGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP only, not {scope['type']}")
        async with ThreadSensitiveContext():
            try:
                await self.handle(scope, receive, send)
            finally:  # on the request's thread (the same context), which owns them
                await sync_to_async(_give_up_connections)()


def _give_up_connections() -> None:
    for connection in connections.all(initialized_only=True):
        if hasattr(connection, "release"):
            connection.release()
        else:
            connection.close()
