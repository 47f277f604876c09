"""The background tasks every daphne process runs on its own event loop: the turn worker
(games/play/turns.py), the notifications' outbox sender (notifications/sending.py) and the
analysis worker (games/analysis/worker.py), each a task of its own, so a slow mail or push
server never holds up a bot's move.

They start once daphne's reactor runs, and only under daphne: `make run` and the tests' daphne
servers get them with nothing else to start; TURN_WORKER=0 turns them off.
"""

import asyncio
import contextlib
import sys
from collections.abc import Callable, Coroutine
from datetime import datetime

from django.conf import settings

_running: list[asyncio.Task] = []  # keeps the tasks referenced for the process's lifetime


def start_with_daphne(*tasks: Callable[[], Coroutine]) -> None:
    """Run each of `tasks` (an async function taking nothing) on daphne's event loop."""
    if not settings.TURN_WORKER or "daphne.server" not in sys.modules:
        return
    from daphne.server import twisted_loop
    from twisted.internet import reactor

    def start():
        _running.extend(twisted_loop.create_task(task()) for task in tasks)

    reactor.callWhenRunning(start)


class Alarm:
    """Wakes one background task of this process from any thread: a commit that gives the task
    work rings it, so the task may sleep until its next known deadline (or a long fallback poll,
    for what other processes committed) instead of polling often to answer soon.

    The task owns it for as long as it runs (`armed`), says how long it means to sleep
    (`sleep`); `ring(when)` wakes it only if `when` is sooner than that (or always, with no
    `when`). Rung while the task is awake (polling), its next sleep returns at once: no ring
    is lost between a poll's read and the sleep after it."""

    def __init__(self):
        self._loop = None
        self._event = None
        self._until: datetime | None = None  # when the sleeping task wakes; None: awake

    @contextlib.contextmanager
    def armed(self):
        """Rings reach the task on the running loop until it ends."""
        self._loop, self._event, self._until = asyncio.get_running_loop(), asyncio.Event(), None
        try:
            yield self
        finally:
            self._loop = self._event = self._until = None

    @property
    def armed_here(self) -> bool:
        """Whether a task of this process runs to hear a ring."""
        loop = self._loop
        return loop is not None and loop.is_running()

    def ring(self, when: datetime | None = None) -> bool:
        """Wake the task if it sleeps past `when` (any time: always); whether a task runs."""
        loop, event, until = self._loop, self._event, self._until
        if loop is None or not loop.is_running():
            return False
        if when is None or until is None or when < until:
            loop.call_soon_threadsafe(event.set)
        return True

    async def sleep(self, seconds: float, *, until: datetime | None = None) -> None:
        """Sleep `seconds` (it ends at `until`: what a ring is compared with), or until rung."""
        self._until = until
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._event.wait(), timeout=max(seconds, 0))
        finally:
            self._until = None
            self._event.clear()
