"""Rate limits, counted in Django's cache (Redis in production, so every worker shares the
counts; configured in settings.RATE_LIMITS as "<count>/<seconds>", the one list of limits).
Site plumbing rather than an app's: `accounts` limits sign-ups and log-ins, `games` moves,
chat, reports and the API, and neither has to import the other for it.

Each scope counts per something: a user, an IP address, a (reporter, reported) pair, a socket.

A fixed window: the first `count` hits of each `seconds`-long window pass, the rest are refused
with how long to wait. Cheap (one cache increment per hit) and good enough to stop floods; a
client may get up to twice the count across a window boundary. `LocalRate` counts the same
way in this process's memory, for what is checked on every socket message.

`LimitPageReads` counts page reads per client, as the API counts its calls per user: 48 loops
reading one heavy page from one address otherwise cost a worker as much as they asked for.
"""

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.translation import gettext
from redis.exceptions import RedisError

from biblios_site.errors import ServiceError, sentence

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"


class RateLimited(ServiceError):
    """Too many requests; `retry_after` is the whole number of seconds until the next window.

    Every edge answers it with 429 and Retry-After (a socket: `retry_after` in its frame)."""

    status = 429

    def __init__(self, retry_after: int, message: str = ""):
        super().__init__(
            message
            or gettext("too many requests; try again in %(seconds)s s") % {"seconds": retry_after}
        )
        self.retry_after = retry_after


def parse(rate: str) -> tuple[int, int]:
    """'30/10' -> (30, 10): at most 30 hits per 10 seconds."""
    count, _, seconds = rate.partition("/")
    return int(count), int(seconds)


def hit(scope: str, ident) -> None:
    """Count one hit of `scope` (a key of settings.RATE_LIMITS) by `ident`; RateLimited if over.

    Fails open: when the cache cannot be reached (Redis restarting or down), the hit passes
    uncounted and a warning is logged. A limiter only stops floods; refusing (or answering 500
    to) every move, sign-up and chat line while the counters are unreachable would turn a Redis
    blip into an outage of the whole site, while a few unthrottled seconds cost little: every
    request is still checked by the services as always.
    """
    count, seconds = parse(settings.RATE_LIMITS[scope])
    now = time.time()
    window = int(now // seconds)
    try:
        hits = _count(_key(scope, ident, window), seconds + 1)
    except RedisError as error:
        logger.warning("rate limit %s not counted: the cache failed: %r", scope, error)
        return
    if hits > count:
        raise RateLimited(max(1, math.ceil((window + 1) * seconds - now)))


def too_many(refusal: RateLimited) -> HttpResponse:
    """The plain 429 answer of a page, with Retry-After."""
    response = HttpResponse(sentence(refusal), status=429, content_type="text/plain")
    return with_retry_after(response, refusal)


def with_retry_after(response: HttpResponse, refusal: Exception | None) -> HttpResponse:
    """`response` with the Retry-After of `refusal` if it is a RateLimited (a 429)."""
    if isinstance(refusal, RateLimited):
        response["Retry-After"] = str(refusal.retry_after)
    return response


def client_ip(request) -> str:
    """The visitor's address: REMOTE_ADDR, which daphne --proxy-headers takes from the proxy's
    X-Forwarded-For (docs/deploy.md); the same address django-axes counts log-ins by."""
    return request.META.get("REMOTE_ADDR") or "unknown"


def scope_ip(scope) -> str:
    """`client_ip` read from an ASGI scope (an HTTP request not yet handed to Django, or a
    socket): Django's ASGIRequest sets REMOTE_ADDR from the scope's client, as here."""
    client = scope.get("client")
    return (client[0] if client else "") or "unknown"


def client_key(user_id: int | None, address: str) -> str:
    """Whom a request or socket is counted against: its user if one is known (wherever they
    connect from), else its address (all the anonymous visitors behind one address share it)."""
    return f"user:{user_id}" if user_id is not None else f"address:{address}"


def user_id(user) -> int | None:
    """The pk of a logged-in user, None for anyone else (or no user at all)."""
    return user.pk if user is not None and user.is_authenticated else None


class LimitPageReads:
    """Django middleware (after authentication): each GET or HEAD outside the API and the
    static files is a hit of the "page" rate per client, refused 429 with Retry-After beyond
    it. The API counts its own calls per user (games/api_protocol.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("GET", "HEAD") and not request.path.startswith(
            (API_PREFIX, "/" + settings.STATIC_URL.lstrip("/"))
        ):
            try:
                hit("page", client_key(user_id(request.user), client_ip(request)))
            except RateLimited as refusal:
                return too_many(refusal)
        return self.get_response(request)


class LocalRate:
    """The fixed window of `hit`, counted in this process's memory for the scope `scope` of
    settings.RATE_LIMITS: no cache round trip, so it can guard every socket message, and what
    it guards is this worker. Counts live for the current window only (one dict, emptied when
    the window turns), so nothing needs forgetting when a socket or client goes away."""

    def __init__(self, scope: str):
        self.scope = scope
        self.window = None
        self.counts: dict = {}

    def hit(self, ident) -> int:
        """Count one hit by `ident`; how many of its hits in this window went beyond the limit,
        this one included (0: within it)."""
        count, seconds = parse(settings.RATE_LIMITS[self.scope])
        window = int(time.time() // seconds)
        if window != self.window:
            self.window, self.counts = window, {}
        self.counts[ident] = self.counts.get(ident, 0) + 1
        return max(0, self.counts[ident] - count)


def _count(key: str, timeout: int) -> int:
    """Add one to the counter `key` (created for `timeout` seconds); the new count."""
    cache.add(key, 0, timeout=timeout)
    try:
        return cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, timeout=timeout)
        return 1


def _key(scope: str, ident, window: int) -> str:
    return f"ratelimit:{scope}:{ident}:{window}"
