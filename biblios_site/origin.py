"""The WebSocket origin check: a socket is accepted only from a page of this very site.

A browser sends its cookies with any WebSocket it opens, whichever site's page opens it, and
says which page in the Origin header; so the Origin must name this site exactly, scheme, host
and port, as Django's CSRF check requires of a form post: `http://host:port` of the same
host is not the https site, nor is another port on it. Behind the TLS-ending proxy the worker
sees a plain `ws://` socket, so the scheme comes from the proxy's header exactly as for pages
(SECURE_PROXY_SSL_HEADER); the host must be one of ALLOWED_HOSTS, and the origins listed in
CSRF_TRUSTED_ORIGINS are accepted as well. Clients that are not browsers send the site's own
origin (docs/api.md); a socket without an Origin is refused.
"""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.utils.http import is_same_domain


def _as_request(scope) -> ASGIRequest:
    """The handshake as Django sees an HTTP request: headers in META, the scheme from the
    proxy's header when SECURE_PROXY_SSL_HEADER is set, otherwise from the socket itself."""
    secure = scope.get("scheme") in ("wss", "https")
    return ASGIRequest({**scope, "method": "GET", "scheme": "https" if secure else "http"}, None)


def _trusted(origin: str) -> bool:
    """In CSRF_TRUSTED_ORIGINS, with Django's meaning of `https://*.example.org`."""
    scheme, netloc = urlsplit(origin)[:2]
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        if origin == trusted.lower():
            return True
        trusted_scheme, trusted_netloc = urlsplit(trusted)[:2]
        wildcard = trusted_netloc.startswith("*.") and trusted_scheme.lower() == scheme
        if wildcard and is_same_domain(netloc, trusted_netloc[1:]):
            return True
    return False


def same_origin(scope) -> bool:
    request = _as_request(scope)
    origin = request.META.get("HTTP_ORIGIN", "").lower()
    if not origin:
        return False
    try:
        if origin == f"{request.scheme}://{request.get_host()}".lower():
            return True
    except DisallowedHost:
        pass  # not this site's host; a trusted origin (below) may still name it
    try:
        return _trusted(origin)
    except ValueError:  # not a URL at all
        return False


class SameOriginValidator:
    """Refuses the handshake (403) of any socket whose Origin is not this site."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if same_origin(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
