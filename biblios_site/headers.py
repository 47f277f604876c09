"""Responses that are one reader's are never stored, by the browser or anything between.

A signed-in player's every page carries what is theirs alone: the navigation's "Your turn" and
unread notification counts, and on many pages hidden cards, private tables, friends and
notification lists, profile settings, account forms. So rather than a decorator on each view
(and the next view forgetting it), every answer to a request with a session (a signed-in
player, or a visitor holding an invite or a lesson in progress), to the API (every answer is
one token's) or to a link that carries a secret (an invite, an e-mail's unsubscribe link,
whose page names its person) gets `Cache-Control: private, no-store`. What a visitor without a
session reads (the lobby, the rules, a public board as a spectator) and the static files
(whitenoise answers them before this middleware) stay cacheable.

The price: a signed-in player's Back button asks the page again rather than showing a stored
copy, which is what a board that moves on needs anyway.
"""

from django.utils.cache import patch_cache_control

from biblios_site.ratelimit import API_PREFIX

# The pages reached by a link that carries a secret, by URL name.
SECRET_LINKS = {"invite", "notifications:unsubscribe"}


class PrivateResponses:
    """Django middleware, outside the session middleware (whose `request.session` it reads on
    the way out, after a log-in has given the session its key)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if is_private(request):
            patch_cache_control(response, private=True, no_store=True)
        return response


def is_private(request) -> bool:
    """Whether the answer may hold what is this reader's only. The session's key is read, not
    the session: no query is spent on it."""
    session = getattr(request, "session", None)
    match = getattr(request, "resolver_match", None)
    return (
        request.path.startswith(API_PREFIX)
        or bool(session and session.session_key)
        or (match is not None and match.view_name in SECRET_LINKS)
    )
