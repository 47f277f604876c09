"""The analysis worker: every daphne process drains the analysis queue beside its turn worker
(biblios_site/background.py), so `make run` and a deployment's workers need nothing else.

Why this shape: an analysis is minutes of CPU, and live play must not wait on it. The queue is
drained in a thread of its own, off daphne's event loop, one job at a time per process, and
that thread runs at a lower priority (Linux gives each thread its own nice value), so the
loop's requests, pushes and bots come first. django-tasks-db's worker claims each job with
SELECT ... SKIP LOCKED, so any number of processes share one queue; between batches this one
also queues again the analyses whose worker died (`services.requeue_stalled`).
"""

import logging
import os
import secrets
import threading
import time

from django.conf import settings
from django.db import close_old_connections
from django_tasks_db.management.commands.db_worker import Worker

from games.analysis import services
from games.analysis.tasks import QUEUE

logger = logging.getLogger(__name__)

NICENESS = 10  # the analysis thread's nice value (daphne's own is 0)


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


def drain_forever() -> None:
    """This thread's life: drain, then look again every ANALYSIS_POLL_S; an error is logged
    and the loop goes on."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)
    except OSError:
        logger.warning("the analysis thread runs at the process's own priority")
    while True:
        try:
            drain()
        except Exception:
            logger.exception("analysis worker failed")
        time.sleep(settings.ANALYSIS_POLL_S)


async def run_forever() -> None:
    """Start the analysis thread (a thread of its own, whose priority is its own)."""
    threading.Thread(target=drain_forever, name="analysis worker", daemon=True).start()
