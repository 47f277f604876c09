"""The analysis worker: runs the queued analysis jobs, one at a time.

django-tasks-db's worker claims each job with SELECT ... SKIP LOCKED, so any number of
processes may share one queue; between batches this one also queues again the analyses whose
worker died (`services.requeue_stalled`). Every daphne process is to drain the queue beside its
turn worker, in a thread of its own at a lower priority, once reviews open to players.
"""

import os
import secrets
import time

from django.conf import settings
from django.db import close_old_connections
from django_tasks_db.management.commands.db_worker import Worker

from games.analysis import services
from games.analysis.tasks import QUEUE


def drain(*, forever: bool = True) -> None:
    """Run the queued analysis jobs, one at a time; until the queue is empty, or for ever,
    looking again every ANALYSIS_POLL_S."""
    worker_id = f"analysis-{os.getpid()}-{secrets.token_hex(4)}"
    while True:
        close_old_connections()
        services.requeue_stalled()
        Worker(
            queue_names=[QUEUE],
            interval=0,
            batch=True,
            backend_name="default",
            startup_delay=False,
            max_tasks=None,
            worker_id=worker_id,
            excluded_queue_names=[],
        ).run()
        if not forever:
            return
        time.sleep(settings.ANALYSIS_POLL_S)
