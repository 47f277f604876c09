"""The one-click unsubscribe link's token: signed, so it needs no log-in and names
only the user it was made for; it expires after UNSUBSCRIBE_MAX_AGE_S.

It also names the version of the player's e-mail choice it was sent under
(`Preference.email_version`, one more at each saved choice). The link serves that version only:
using it saves a new choice, and so does the player choosing again on their profile, so an old
e-mail's link cannot turn e-mail off again after the player turned it back on."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core import signing

from notifications.models import Preference

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
# An unsubscribe link works this long (old e-mails keep working for a good while).
UNSUBSCRIBE_MAX_AGE_S = 365 * 24 * 3600


@dataclass(frozen=True)
class UnsubscribeLink:
    user: object
    version: int  # of the e-mail choice the link was sent under


def email_version(user) -> int:
    """The version of `user`'s e-mail choice now (0 before they ever chose)."""
    version = Preference.objects.filter(user=user).values_list("email_version", flat=True)
    return version.first() or 0


def unsubscribe_token(user) -> str:
    """A signed token naming `user` and their e-mail choice's version now, for the unsubscribe
    link of an e-mail about to be sent (no log-in)."""
    return signing.dumps({"u": user.pk, "v": email_version(user)}, salt=UNSUBSCRIBE_SALT)


def link_of(token: str) -> UnsubscribeLink | None:
    """The active user and the choice's version an unsubscribe token names, or None if it is
    bad, expired, theirs no more, or made before links named a version. Whether the version is
    still current is the services' call (`notifications.services.unsubscribe_by_link`)."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE_S)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    user_id, version = data.get("u"), data.get("v")
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (user_id, version)):
        return None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    return UnsubscribeLink(user, version) if user is not None else None
