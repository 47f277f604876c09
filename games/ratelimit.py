"""Per-user rate limits, counted in Django's cache (Redis in production, so every worker shares
the counts; configured in settings.RATE_LIMITS as "<count>/<seconds>").

A fixed window: the first `count` hits of each `seconds`-long window pass, the rest are refused
with how long to wait. Cheap (one cache increment per hit) and good enough to stop floods; a
client may get up to twice the count across a window boundary.
"""

import math
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.translation import gettext

from games.services import ServiceError


class RateLimited(ServiceError):
    """Too many requests; `retry_after` is the whole number of seconds until the next window."""

    status = 429

    def __init__(self, retry_after: int):
        super().__init__(
            gettext("too many requests; try again in %(seconds)s s") % {"seconds": retry_after}
        )
        self.retry_after = retry_after


def parse(rate: str) -> tuple[int, int]:
    """'30/10' -> (30, 10): at most 30 hits per 10 seconds."""
    count, _, seconds = rate.partition("/")
    return int(count), int(seconds)


def hit(scope: str, ident) -> None:
    """Count one hit of `scope` (a key of settings.RATE_LIMITS) by `ident`; RateLimited if over."""
    count, seconds = parse(settings.RATE_LIMITS[scope])
    now = time.time()
    window = int(now // seconds)
    key = _key(scope, ident, window)
    cache.add(key, 0, timeout=seconds + 1)
    try:
        hits = cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, timeout=seconds + 1)
        hits = 1
    if hits > count:
        raise RateLimited(max(1, math.ceil((window + 1) * seconds - now)))


def too_many(refusal: RateLimited) -> HttpResponse:
    """The plain 429 answer of a page, with Retry-After."""
    response = HttpResponse(str(refusal).capitalize() + ".", status=429, content_type="text/plain")
    response["Retry-After"] = str(refusal.retry_after)
    return response


def reset(scope: str, ident) -> None:
    """Forget the current window's hits (for tests that need a clean count)."""
    _, seconds = parse(settings.RATE_LIMITS[scope])
    cache.delete(_key(scope, ident, int(time.time() // seconds)))


def _key(scope: str, ident, window: int) -> str:
    return f"ratelimit:{scope}:{ident}:{window}"
