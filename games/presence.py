"""Who has a game page open, shared by every daphne worker through the database.

Each WebSocket is one `Connection` row, created on connect, deleted on disconnect and touched
every `HEARTBEAT` seconds while open. A worker that dies cannot delete its rows, so a row counts
only while it is fresher than `STALE_AFTER`; stale rows are swept when someone next connects.
"""

from datetime import timedelta

from django.utils import timezone

from games.models import Connection, Game

HEARTBEAT = timedelta(seconds=30)
STALE_AFTER = 3 * HEARTBEAT


def connected(game_id: int, user, channel_name: str) -> None:
    """Record an open socket (or refresh it: the heartbeat calls this too)."""
    now = timezone.now()
    Connection.objects.filter(game_id=game_id, seen_at__lt=now - STALE_AFTER).delete()
    Connection.objects.update_or_create(
        channel_name=channel_name, defaults={"game_id": game_id, "user": user, "seen_at": now}
    )


def disconnected(channel_name: str) -> None:
    Connection.objects.filter(channel_name=channel_name).delete()


def connected_seats(game: Game) -> set[int]:
    """The seat positions whose player has at least one live socket on this game."""
    live_users = Connection.objects.filter(
        game=game, seen_at__gte=timezone.now() - STALE_AFTER
    ).values("user_id")
    return set(game.seats.filter(user_id__in=live_users).values_list("position", flat=True))
