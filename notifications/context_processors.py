"""What every page's navigation shows of the reader's notifications: how many are unread."""

from django.utils.functional import SimpleLazyObject

from notifications import selectors


def unread(request) -> dict:
    """`notification_count` for a logged-in reader, counted only when a template shows it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"notification_count": SimpleLazyObject(lambda: selectors.unread_count(user))}
