"""Credentials end, sockets end: revoking an API token or ending a login session closes the
sockets opened with it (close code 4401), and a socket re-checks its credential on every move
and resync (`games.consumers`), so a lost close message cannot leave it acting.
"""

import hashlib
from importlib import import_module
from types import SimpleNamespace

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver

from accounts.models import ApiToken
from biblios_site import push


def token_group(token_id: int) -> str:
    """The channel-layer group of the sockets opened with one API token."""
    return f"token-{token_id}"


def session_group(session_key: str) -> str:
    """The sockets opened with one login session; hashed because the key is itself a credential
    and group names are readable by anyone who can read Redis."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def credentials_ended(group: str) -> None:
    """A token was revoked or a session ended: the sockets it opened close (4401), and only
    those (the user's other sessions and tokens keep theirs)."""
    push.send(group, {"type": "credentials.ended"})


def revoke_tokens(tokens) -> int:
    """Delete the ApiTokens of the queryset `tokens` and close their sockets once that is
    committed; returns how many there were. The one door for revoking tokens (the profile
    page, the admin)."""
    with transaction.atomic():
        ids = list(tokens.values_list("pk", flat=True))
        ApiToken.objects.filter(pk__in=ids).delete()
        for token_id in ids:
            group = token_group(token_id)
            transaction.on_commit(lambda group=group: credentials_ended(group))
    return len(ids)


def session_user_id(session_key: str) -> int | None:
    """The id of the active user a session still logs in, read as Django reads a request's
    session (not expired, not logged out, password unchanged since), or None."""
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return auth.get_user(SimpleNamespace(session=store)).pk


@receiver(user_logged_out, dispatch_uid="accounts.credentials.close_session_sockets")
def close_session_sockets(sender, request, user, **kwargs):
    """Logging out closes the sockets of this session only, not the user's other sessions."""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        group = session_group(session_key)
        transaction.on_commit(lambda: credentials_ended(group))
