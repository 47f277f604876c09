"""The background tasks every daphne process runs on its own event loop: the turn worker
(games/play/turns.py), the notifications' outbox sender (notifications/sending.py) and the
analysis worker (games/analysis/worker.py), each a task of its own, so a slow mail or push
server never holds up a bot's move.

They start once daphne's reactor runs, and only under daphne: `make run` and the tests' daphne
servers get them with nothing else to start; TURN_WORKER=0 turns them off.
"""

import asyncio
import sys
from collections.abc import Callable, Coroutine

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
