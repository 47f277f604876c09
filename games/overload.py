"""Shedding the load a worker cannot serve: a quick 503 with Retry-After instead of a slow 500.

A daphne worker runs Django's views each on a thread of its own, so a worker asked for more
than it can serve does not refuse anything by itself: requests pile up as threads waiting for
the CPU and, on SQLite, for the database's write lock, until one waits past the lock's timeout
(20 s) and is answered `500 internal error` (measured with benchmarks/load.py at 60 moves/s on
one worker: moves accepted after up to 20 s, then "database is locked"). Queueing without a
bound makes every request slow and some fail; refusing the excess early keeps the rest fast.

- `ShedRequests` (ASGI, around Django) admits at most MAX_INFLIGHT_REQUESTS HTTP requests at
  once per worker and answers the rest at once with 503 and Retry-After, before any thread,
  session or database work is spent on them. Static files are exempt (cheap, and a page is
  useless without them). A count of requests in flight, not a queue-age check, because it needs
  no clock and bounds both the worker's queue and the connections it holds: with ~10 ms of CPU
  per request, 32 in flight wait at most a few hundred ms.
- `database_busy` recognises a transaction that could not start because the database is busy
  (SQLite's write lock, or no pooled PostgreSQL connection in time): nothing was applied, so the
  API and `BusyDatabaseMiddleware` answer it with the same 503 and Retry-After, never a 500.

A shed request changed nothing; clients retry after Retry-After (a move with its same
version: it is applied once, or refused as stale if another was applied meanwhile).
"""

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import OperationalError
from django.http import HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext

API_PREFIX = "/api/"


class ShedRequests:
    """ASGI middleware: at most `settings.MAX_INFLIGHT_REQUESTS` HTTP requests in flight in this
    worker; beyond that an immediate 503 with Retry-After. One event loop per worker, so a plain
    counter is exact."""

    def __init__(self, app):
        self.app = app
        self.in_flight = 0
        self.shed = 0  # requests refused since the worker started (for logs and tests)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"].startswith(_static_prefix()):
            return await self.app(scope, receive, send)
        if self.in_flight >= settings.MAX_INFLIGHT_REQUESTS:
            self.shed += 1
            return await _send_busy(scope, send)
        self.in_flight += 1
        try:
            return await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1


def database_busy(error: BaseException) -> bool:
    """Whether `error` means the database could not be had in time: SQLite's write lock held
    past its timeout, or the PostgreSQL pool without a free connection (psycopg_pool's
    PoolTimeout, which Django wraps). A transaction that fails so has applied nothing."""
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__
    return "database is locked" in str(error) or type(cause).__name__ == "PoolTimeout"


def busy_response(request) -> HttpResponse:
    """503 with Retry-After: JSON `{"error"}` on the API, plain text elsewhere."""
    message = _busy_message()
    if request.path.startswith(API_PREFIX):
        response = JsonResponse({"error": message}, status=503)
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(settings.SHED_RETRY_AFTER_S)
    response["Cache-Control"] = "no-store"
    return response


class BusyDatabaseMiddleware:
    """Django middleware: a page whose transaction found the database busy gets 503, not 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        return busy_response(request) if database_busy(exception) else None


def _busy_message() -> str:
    return gettext("The site is busy; try again in a moment.")


def _static_prefix() -> str:
    return "/" + settings.STATIC_URL.lstrip("/")


async def _send_busy(scope, send) -> None:
    """The 503 answered straight from ASGI, in the reader's language (cookie or
    Accept-Language; no session or database is touched)."""
    request = ASGIRequest(scope, None)
    with translation.override(translation.get_language_from_request(request)):
        response = busy_response(request)
    headers = [(b"content-type", response["Content-Type"].encode())]
    headers += [(b"retry-after", response["Retry-After"].encode())]
    headers += [(b"cache-control", b"no-store")]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})
