"""Reading a user's notifications (the list, the page, the API, the navigation's count)."""

from notifications.models import Notification

PAGE_SIZE = 50


def unread_count(user) -> int:
    """How many of `user`'s notifications are unread: one query on a partial index."""
    return Notification.objects.filter(recipient=user, read_at=None).count()


def latest(user, *, limit: int = PAGE_SIZE) -> list[Notification]:
    """`user`'s newest notifications first, with what their texts name."""
    rows = Notification.objects.filter(recipient=user).select_related(
        "game", "tournament", "actor", "recipient"
    )
    return list(rows.order_by("-created_at", "-pk")[:limit])
