"""Who has a game page open, shared by every daphne worker through the database.

Each WebSocket is one `Connection` row, created on connect, deleted on disconnect and touched
every `HEARTBEAT` seconds while open, by one UPDATE for all the sockets of a process
(`heartbeats`). A worker that dies cannot delete its rows, so a row counts only while it is
fresher than `STALE_AFTER`; stale rows are swept when someone next connects. Sockets keep the
connected seats they last read and read them again on a presence hint (or once `STALE_AFTER`
old, for a dead worker's sockets, which send no hint), not on every move.
"""

import asyncio
import contextlib
import logging
from datetime import timedelta

from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.db import IntegrityError
from django.utils import timezone

from games.models import Connection, Game

logger = logging.getLogger(__name__)

HEARTBEAT = timedelta(seconds=30)
STALE_AFTER = 3 * HEARTBEAT


def connected(game_id: int, user, channel_name: str) -> None:
    """Record an open socket (or refresh it: the heartbeat calls this too)."""
    now = timezone.now()
    Connection.objects.filter(game_id=game_id, seen_at__lt=now - STALE_AFTER).delete()
    Connection.objects.update_or_create(
        channel_name=channel_name, defaults={"game_id": game_id, "user": user, "seen_at": now}
    )


def still_connected(sockets: dict[str, tuple[int, int]]) -> None:
    """Touch the rows of these sockets ({channel name: (game id, user id)}) in one UPDATE per
    500; a row that a sweep removed meanwhile (a heartbeat late by a minute) comes back."""
    now = timezone.now()
    names = list(sockets)
    for start in range(0, len(names), 500):
        chunk = names[start : start + 500]
        if Connection.objects.filter(channel_name__in=chunk).update(seen_at=now) == len(chunk):
            continue
        present = set(
            Connection.objects.filter(channel_name__in=chunk).values_list("channel_name", flat=True)
        )
        for name in chunk:
            if name not in present and name in heartbeats.sockets:  # not closed meanwhile
                game_id, user_id = sockets[name]
                with contextlib.suppress(IntegrityError):  # the game was deleted meanwhile
                    connected(game_id, get_user_model()(pk=user_id), name)


class Heartbeats:
    """The open game sockets of this process, kept fresh by one task on its event loop.

    One UPDATE per process every HEARTBEAT: a sweep and an update_or_create per socket (two
    write transactions) made 800 open sockets cost ~5% of a loaded worker.
    """

    def __init__(self):
        self.sockets: dict[str, tuple[int, int]] = {}
        self.task: asyncio.Task | None = None

    def add(self, channel_name: str, game_id: int, user_id: int) -> None:
        self.sockets[channel_name] = (game_id, user_id)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._beat())  # (a test's loop may have ended)

    def discard(self, channel_name: str) -> None:
        self.sockets.pop(channel_name, None)
        task = self.task
        if not self.sockets and task is not None and not task.done():
            if task.get_loop() is asyncio.get_running_loop():
                task.cancel()  # nothing left to keep fresh; a new socket starts it again
            self.task = None

    async def _beat(self) -> None:
        while self.sockets:
            await asyncio.sleep(HEARTBEAT.total_seconds())
            try:
                await database_sync_to_async(still_connected)(dict(self.sockets))
            except Exception:
                # A database hiccup must not stop the heartbeat of every socket for good.
                logger.exception("presence heartbeat failed; trying again in %s", HEARTBEAT)


heartbeats = Heartbeats()


def disconnected(channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).delete()


def connected_seats(game: Game) -> set[int]:
    """The seat positions whose player has at least one live socket on this game."""
    live_users = Connection.objects.filter(
        game=game, seen_at__gte=timezone.now() - STALE_AFTER
    ).values("user_id")
    return set(game.seats.filter(user_id__in=live_users).values_list("position", flat=True))


def watching(game: Game, user_ids) -> set[int]:
    """Which of `user_ids` have this game's page open now (a live socket on it): what comes to
    that page is no news to them (`play.services.mark_turn` tells them nothing of their turn)."""
    return set(
        Connection.objects.filter(
            game=game, user_id__in=list(user_ids), seen_at__gte=timezone.now() - STALE_AFTER
        ).values_list("user_id", flat=True)
    )
