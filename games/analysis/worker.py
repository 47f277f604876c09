"""The analysis worker: every daphne process drains the analysis queue beside its turn worker
(biblios_site/background.py), so `make run` and a deployment's workers need nothing else.

Why this shape: an analysis is minutes of CPU, and live play must not wait on it. A thread of
daphne's own process would hold the interpreter's lock against the event loop: measured with
20 reviews queued under 50 live games (benchmarks/review_queue.py, docs/review.md), pushes' p95
went from 24 ms to 562 ms. So each daphne process starts a child process
(`games/analysis/child.py`) at nice 10, which the kernel schedules after the site's own work,
and which ends with its parent. The child runs the jobs one at a time; django-tasks-db's worker
claims each job with SELECT ... SKIP LOCKED, so any number of them share one queue, and between
batches the child queues again the analyses whose worker died (`services.requeue_stalled`).
The parent tells the review pages' sockets of the child's progress (`push_progress`), which the
in-memory channel layer of a single process could not carry from the child.
"""

import asyncio
import ctypes
import logging
import os
import secrets
import signal
import subprocess
import sys
import time
from datetime import timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.db.models import Q
from django.utils import timezone
from django_tasks_db.management.commands.db_worker import Worker

from biblios_site import push
from games.analysis import services
from games.analysis.tasks import QUEUE
from games.models import Analysis

logger = logging.getLogger(__name__)

NICENESS = 10  # added to the analysis process's nice value: the site's own work comes first
PR_SET_PDEATHSIG = 1  # prctl(2)


def drain() -> None:
    """Run the queued analysis jobs, one at a time, until the queue is empty."""
    close_old_connections()
    services.requeue_stalled()
    Worker(
        queue_names=[QUEUE],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=f"analysis-{os.getpid()}-{secrets.token_hex(4)}",
        excluded_queue_names=[],
    ).run()


def drain_forever(parent: int) -> None:
    """The child's life: drain, then look again every ANALYSIS_POLL_S, until `parent` ends; an
    error is logged and the loop goes on."""
    os.nice(NICENESS)
    _end_with_parent()
    while os.getppid() == parent:
        try:
            drain()
        except Exception:
            logger.exception("analysis worker failed")
        time.sleep(settings.ANALYSIS_POLL_S)


def _end_with_parent() -> None:
    """Ask Linux to stop this process when its parent dies (a killed daphne leaves no child
    running a job); elsewhere the loop's parent check ends it after the job."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        logger.warning("the analysis worker ends only after its job when daphne ends")


def start_child() -> subprocess.Popen:
    command = [sys.executable, "-m", "games.analysis.child", "--parent", str(os.getpid())]
    return subprocess.Popen(command, cwd=settings.BASE_DIR)


OVERLAP = timedelta(seconds=5)  # a write committed late, stamped before the last read


def changed(seen: dict) -> list[int]:
    """The games whose analysis moved on since `seen` ({game id: (heartbeat, finished)}, kept
    up to date here). Rows written in the last OVERLAP are read again, so a write committed
    after a read but stamped before it is never missed."""
    since = timezone.now() - OVERLAP
    rows = Analysis.objects.filter(Q(heartbeat_at__gt=since) | Q(finished_at__gt=since))
    moved = []
    for game_id, beat, finished in rows.values_list("game_id", "heartbeat_at", "finished_at"):
        if seen.get(game_id) != (beat, finished):
            seen[game_id] = (beat, finished)
            moved.append(game_id)
    return moved


async def push_progress() -> None:
    """Tell the review pages' sockets of the analyses that moved on, every PUSH_EVERY_S."""
    read = database_sync_to_async(changed, thread_sensitive=False)
    seen: dict = {}
    while True:
        await asyncio.sleep(services.PUSH_EVERY_S)
        try:
            for game_id in await read(seen):
                await push.send_from_loop(services.review_group(game_id), services.REVIEW_CHANGED)
        except Exception:
            logger.exception("analysis progress push failed")


async def run_forever() -> None:
    """Start the analysis child, then push its progress for as long as daphne runs."""
    start_child()
    await push_progress()
