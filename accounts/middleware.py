"""The player's remembered language, for requests (middleware) and sockets (scope)."""

import functools
from types import SimpleNamespace

from django.conf import settings
from django.utils import translation


def profile_language(user) -> str | None:
    """The language stored on a logged-in user's profile, if it is one the site offers."""
    language = getattr(user, "language", "") if getattr(user, "is_authenticated", False) else ""
    return language if language in dict(settings.LANGUAGES) else None


def scope_language(scope, user=None) -> str:
    """A socket's language: the profile's, else Django's language cookie, else Accept-Language.

    Same order as a page request, so a push reads like the page it updates. `user` is the
    socket's user when it authenticated otherwise than by session (an API token).
    """
    language = profile_language(user or scope.get("user"))
    if language:
        return language
    headers = dict(scope.get("headers", []))
    # Django's own resolution only reads COOKIES and META from the request it is given.
    request = SimpleNamespace(
        COOKIES=scope.get("cookies", {}),
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")},
    )
    return translation.get_language_from_request(request)


def in_reader_language(render):
    """Runs a consumer's (sync) render method in the language of the socket's reader.

    Pushes are rendered per socket, so each reader gets their own language, as on a page.
    """

    @functools.wraps(render)
    def rendered(consumer, *args, **kwargs):
        language = scope_language(consumer.scope, getattr(consumer, "user", None))
        with translation.override(language):
            return render(consumer, *args, **kwargs)

    return rendered


class ProfileLanguageMiddleware:
    """Activates a logged-in player's profile language (LocaleMiddleware chose before auth)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = profile_language(request.user)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
