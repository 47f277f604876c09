"""The tournaments' clock: starts each tournament whose time has come and opens any round whose
last table ended while no process opened the next (`services.start_due`). It runs beside the
turn worker in every daphne process (biblios_site/background.py); the row lock of each
tournament makes racing processes start it once."""

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

from games.tournaments import services

logger = logging.getLogger(__name__)


async def run_forever() -> None:
    """Poll every TOURNAMENT_POLL_S until the process ends; an error is logged and it goes on."""
    poll = database_sync_to_async(services.start_due, thread_sensitive=False)
    while True:
        try:
            await poll()
        except Exception:
            logger.exception("tournament clock poll failed")
        await asyncio.sleep(settings.TOURNAMENT_POLL_S)
