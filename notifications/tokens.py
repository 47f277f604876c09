"""The one-click unsubscribe link's token (issue 19): signed, so it needs no log-in and names
only the user it was made for; it expires after UNSUBSCRIBE_MAX_AGE_S."""

from django.contrib.auth import get_user_model
from django.core import signing

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
# An unsubscribe link works this long (old e-mails keep working for a good while).
UNSUBSCRIBE_MAX_AGE_S = 365 * 24 * 3600


def unsubscribe_token(user) -> str:
    """A signed token naming `user`, for the unsubscribe link in every e-mail (no log-in)."""
    return signing.dumps({"u": user.pk}, salt=UNSUBSCRIBE_SALT)


def user_of_token(token: str):
    """The active user an unsubscribe token names, or None if it is bad, expired or theirs
    no more."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE_S)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        return None
    return get_user_model().objects.filter(pk=data["u"], is_active=True).first()
