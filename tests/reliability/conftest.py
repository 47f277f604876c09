"""Live daphne workers on the test database, for the tests that need real processes.

The workers are the same as the load benchmark's (benchmarks/site.py): production settings
(DEBUG off) on free localhost ports, sharing the test database (committed data, so the tests
use `transactional_db`) and, when REDIS_URL is set, the Redis channel layer and cache.
"""

import asyncio
import json

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from accounts.models import ApiToken
from benchmarks.client import Http, Socket, close_all, game_socket_url
from benchmarks.site import Workers, site_env
from biblios_site import ratelimit

# The live tests' players, and a channel layer of each test's own for the in-process sockets.
from tests.live.conftest import own_channel_layer, users  # noqa: F401

# Only reached when something that should happen never does.
TIMEOUT = 15


def forget_hits(scope: str, ident) -> None:
    """Start `scope`'s count for `ident` afresh: counters live in the cache (Redis outlives a
    run, and addresses and ids repeat between tests), keyed as `biblios_site.ratelimit` keys
    them (by the limiter's clock, which a test may have stopped)."""
    _, seconds = ratelimit.parse(settings.RATE_LIMITS[scope])
    cache.delete(ratelimit._key(scope, ident, int(ratelimit.time.time() // seconds)))


def database_url() -> str:
    """The URL of the database this test run uses (the test database, not the configured one)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def site(transactional_db, tmp_path):
    """`site(count, **env)` starts `count` workers (all must be gone before the database is
    flushed), with `env` added to their environment.

    Rate limits are lifted here: these tests play at machine speed (test_security tests them).
    """
    started = []

    def start(count: int = 1, **env) -> Workers:
        env = site_env(
            database_url(),
            settings.REDIS_URL,
            RATE_LIMIT_ACTIONS="100000/1",
            RATE_LIMIT_API="100000/1",
            **env,
        )
        workers = Workers(count, env, tmp_path)
        started.append(workers)
        workers.start()
        return workers

    yield start
    for workers in started:
        workers.stop()
    for workers in started:
        assert not workers.log_errors(), workers.log_errors()


def token(user) -> str:
    return ApiToken.issue(user, "reliability test")[1]


async def post_action(url: str, game_id: int, raw_token: str, version: int, action):
    """(status, answer) of one move posted on a fresh connection."""
    http = Http(url, timeout=TIMEOUT)
    try:
        status, _, answer = await http.request(
            "POST",
            f"/api/games/{game_id}/actions",
            raw_token,
            {"version": version, "action": action},
        )
    finally:
        http.close()
    return status, answer


class Board:
    """A JSON game socket that keeps the latest board and wakes waiters on each frame."""

    def __init__(self, url: str, game_id: int, raw_token: str):
        self.frames: list[dict] = []
        self.changed = asyncio.Event()
        self.socket = Socket(game_socket_url(url, game_id, raw_token), self._frame)

    def _frame(self, text) -> None:
        self.frames.append(json.loads(text))
        self.changed.set()

    async def open(self) -> "Board":
        await self.socket.connect(TIMEOUT)
        await self.until(lambda frame: "view" in frame)
        return self

    @property
    def latest(self) -> dict:
        return next(frame for frame in reversed(self.frames) if "view" in frame)

    async def until(self, condition, since: int = 0) -> dict:
        """The first frame from the `since`-th on (received or coming) that satisfies
        `condition`."""

        async def wait():
            seen = since
            while True:
                for frame in self.frames[seen:]:
                    if condition(frame):
                        return frame
                seen = len(self.frames)
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(wait(), TIMEOUT)

    async def close(self) -> None:
        await close_all([self.socket])
