"""Credentials end, sockets end: revoking an API token or ending a login session closes the
sockets opened with it (close code 4401), and a socket re-checks its credential on every move
and resync (`games.consumers`), so a lost close message cannot leave it acting.
"""

from importlib import import_module
from types import SimpleNamespace

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.dispatch import receiver

from accounts.models import ApiToken
from games import broadcast


def revoke_tokens(tokens) -> int:
    """Delete the ApiTokens of the queryset `tokens` and close their sockets once that is
    committed; returns how many there were. The one door for revoking tokens (the profile
    page, the admin)."""
    with transaction.atomic():
        ids = list(tokens.values_list("pk", flat=True))
        ApiToken.objects.filter(pk__in=ids).delete()
        for token_id in ids:
            group = broadcast.token_group(token_id)
            transaction.on_commit(lambda group=group: broadcast.credentials_ended(group))
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
        group = broadcast.session_group(session_key)
        transaction.on_commit(lambda: broadcast.credentials_ended(group))
