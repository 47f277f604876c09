"""Shedding the load a worker cannot serve: a quick 503 with Retry-After instead of a slow 500,
and fairly, so that one client's flood cannot take the worker from everyone else.

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
- Fairly: one client (a user, else an address: `KnownClients`) holds at most
  MAX_INFLIGHT_PER_CLIENT of those places, and page reads (any request but a move) never take
  the last INFLIGHT_RESERVED_FOR_MOVES, kept for moves. Without this, 48 anonymous loops reading one
  long game's log kept a worker full: every other player's reads and moves were shed, and at a
  timed table the stand-in bot played for them.
- `admit_message` bounds what a socket asks the same way: messages per socket (past that rate
  the socket is closed with CLOSE_FLOODING) and per client over all its sockets (the excess is
  dropped unanswered), counted in this worker's memory (`ratelimit.LocalRate`).
- `database_busy` recognises a transaction that could not start because the database is busy
  (SQLite's write lock, or no pooled PostgreSQL connection in time): nothing was applied, so the
  API and `BusyDatabaseMiddleware` answer it with the same 503 and Retry-After, never a 500.

A shed request changed nothing; clients retry after Retry-After (a move with its same
version: it is applied once, or refused as stale if another was applied meanwhile).
"""

from collections import OrderedDict

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import OperationalError
from django.http import HttpResponse, JsonResponse
from django.http.cookie import parse_cookie
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import gettext

from biblios_site import ratelimit

API_PREFIX = ratelimit.API_PREFIX

# A player's turn at a table: a move (page form or API), or taking their seat back from the
# stand-in bot. Admitted ahead of page reads, into the places those may not take.
MOVE_VIEWS = {"game_act", "api:actions", "game_take_back", "api:take_back"}

# A socket that sends past its rate (settings.RATE_LIMITS["socket_message"]), like HTTP's 429.
CLOSE_FLOODING = 4429

# Credentials remembered per worker: far more than the users one worker serves at once.
KNOWN_CLIENTS = 10_000


class ShedRequests:
    """ASGI middleware: at most `settings.MAX_INFLIGHT_REQUESTS` HTTP requests in flight in this
    worker, at most MAX_INFLIGHT_PER_CLIENT of them one client's, and page reads kept out of the
    last INFLIGHT_RESERVED_FOR_MOVES; beyond that an immediate 503 with Retry-After. One event
    loop per worker, so plain counters are exact."""

    def __init__(self, app):
        self.app = app
        self.in_flight = 0
        self.reads = 0  # of those, the requests that are not moves
        self.by_client: dict[str, int] = {}  # of those, each client's (none held: no entry)
        self.shed = 0  # requests refused since the worker started (for logs and tests)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"].startswith(_static_prefix()):
            return await self.app(scope, receive, send)
        client, move = clients.key(scope), is_move(scope)
        if not self._admits(client, move):
            self.shed += 1
            return await _send_busy(scope, send)
        self._count(client, move, 1)
        try:
            return await self.app(scope, receive, send)
        finally:
            self._count(client, move, -1)

    def _admits(self, client: str, move: bool) -> bool:
        reads_budget = settings.MAX_INFLIGHT_REQUESTS - settings.INFLIGHT_RESERVED_FOR_MOVES
        return (
            self.in_flight < settings.MAX_INFLIGHT_REQUESTS
            and self.by_client.get(client, 0) < settings.MAX_INFLIGHT_PER_CLIENT
            and (move or self.reads < reads_budget)
        )

    def _count(self, client: str, move: bool, step: int) -> None:
        self.in_flight += step
        self.reads += 0 if move else step
        held = self.by_client.get(client, 0) + step
        if held:
            self.by_client[client] = held
        else:
            del self.by_client[client]


def is_move(scope) -> bool:
    """Whether an HTTP request is a player's move (MOVE_VIEWS), by its method and URL alone."""
    if scope.get("method") != "POST":
        return False
    try:
        match = resolve(scope["path"].removeprefix(scope.get("root_path", "")))
    except Resolver404:
        return False
    return match.view_name in MOVE_VIEWS


class KnownClients:
    """Which user each session cookie and API token of this worker was last seen to stand for.

    The shedder runs before any session or database is read, so it knows a request's user only
    by a credential Django has verified on an earlier request (`RememberClients` for sessions,
    the API's authentication for tokens); one it has not seen verified (new since this worker
    started, logged out, revoked, made up) counts as its address. The least recently seen are
    forgotten past KNOWN_CLIENTS."""

    def __init__(self, size: int = KNOWN_CLIENTS):
        self.size = size
        self.users: OrderedDict[str, int] = OrderedDict()

    def key(self, scope) -> str:
        """The client an HTTP request counts against (`ratelimit.client_key`)."""
        user_id = self.users.get(_credential(scope) or "")
        return ratelimit.client_key(user_id, ratelimit.scope_ip(scope))

    def learn(self, credential: str, user_id: int) -> None:
        self.users[credential] = user_id
        self.users.move_to_end(credential)
        while len(self.users) > self.size:
            self.users.popitem(last=False)

    def forget(self, credential: str) -> None:
        self.users.pop(credential, None)


clients = KnownClients()


def session_credential(session_key: str) -> str:
    return f"session:{session_key}"


def token_credential(authorization: str) -> str:
    """An API request's credential: its whole Authorization header, as sent."""
    return f"token:{authorization}"


def _credential(scope) -> str | None:
    """The request's API token (Authorization header), else its session cookie, else None."""
    cookies = []
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            return token_credential(value.decode("latin-1"))
        if name == b"cookie":
            cookies.append(value.decode("latin-1"))
    session_key = parse_cookie("; ".join(cookies)).get(settings.SESSION_COOKIE_NAME)
    return session_credential(session_key) if session_key else None


class RememberClients:
    """Django middleware (after authentication): tells `clients` which user a page request's
    session stands for, or that its cookie stands for none any more (logged out, expired,
    made up). The API's tokens are learned where it authenticates them (games/api_protocol.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        sent = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        if request.path.startswith(API_PREFIX) or not (sent or request.session.session_key):
            return response  # no session: nothing to learn, and no query spent on it
        user_id = ratelimit.user_id(request.user)  # loads the session: a made-up key is dropped
        current = request.session.session_key
        if sent and (sent != current or user_id is None):
            clients.forget(session_credential(sent))
        if current and user_id is not None:
            clients.learn(session_credential(current), user_id)
        return response


_socket_messages = ratelimit.LocalRate("socket_message")
_client_socket_messages = ratelimit.LocalRate("client_socket_message")


async def admit_message(consumer, user) -> bool:
    """Whether a socket's incoming message may be handled, counted against the socket and its
    client (`user` if logged in, else the socket's address). The first message past the
    socket's own rate closes it with CLOSE_FLOODING (later ones are dropped until the close
    lands); one past the client's rate over all its sockets is dropped unanswered, whichever
    socket sent it. Either way it costs no thread, cache or database."""
    excess = _socket_messages.hit(consumer.channel_name)
    if excess:
        if excess == 1:
            await consumer.close(CLOSE_FLOODING)
        return False
    client = ratelimit.client_key(ratelimit.user_id(user), ratelimit.scope_ip(consumer.scope))
    return not _client_socket_messages.hit(client)


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
