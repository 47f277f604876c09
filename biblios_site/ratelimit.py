"""Rate limits, counted in Django's cache (Redis in production, so every worker shares the
counts; configured in settings.RATE_LIMITS as "<count>/<seconds>", the one list of limits).
Site plumbing rather than an app's: `accounts` limits sign-ups and log-ins, `games` moves,
chat, reports and the API, and neither has to import the other for it.

Each scope counts per something: a user, an IP address, a (reporter, reported) pair, a socket.

A fixed window: the first `count` hits of each `seconds`-long window pass, the rest are refused
with how long to wait. Cheap (one cache increment per hit) and good enough to stop floods; a
client may get up to twice the count across a window boundary.
"""

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.translation import gettext
from redis.exceptions import RedisError

from biblios_site.errors import ServiceError

logger = logging.getLogger(__name__)


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
    response = HttpResponse(str(refusal).capitalize() + ".", status=429, content_type="text/plain")
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
