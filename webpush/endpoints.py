"""Which push endpoints the server may POST to: the one check, made when a browser subscribes
and again before every send (a row stored under an older, looser check is never sent to).

The server POSTs to whatever URL a browser hands it, so a bad endpoint is a request from inside
our network to wherever its author likes. Parsers disagree on odd URLs: Python's `urlsplit`
reads `https://10.0.0.5\\@fcm.googleapis.com/x` as a URL for fcm.googleapis.com, while
urllib3 (what requests, and so pywebpush, connects with) reads it as one for 10.0.0.5. So an
endpoint is accepted only when it is plain: printable ASCII, no user part, no backslash, no
port, a host of lower-case DNS labels that is one of settings.PUSH_SERVICE_HOSTS; and when
`urlsplit`, urllib3's `parse_url` and requests' own preparation of the URL all read the same
scheme, host and port from it.
"""

import re
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from urllib3.exceptions import LocationParseError
from urllib3.util import parse_url

MAX_LENGTH = 1000
# Visible ASCII only: no space, tab, newline or other control character (urlsplit silently
# drops tabs and newlines that urllib3 refuses), and no Unicode look-alike of '/', '@' or '.'.
VISIBLE_ASCII = re.compile(r"[!-~]+")
# A host as push services name theirs: dot-separated lower-case labels, no trailing dot, no
# '%' (urllib3 decodes "%2e" in a host to '.'), no brackets (IPv6), no ':' (a port).
LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
DNS_HOST = re.compile(rf"{LABEL}(?:\.{LABEL})+")


def push_service_host(host: str) -> bool:
    """One of the browsers' push services (settings.PUSH_SERVICE_HOSTS; a leading dot allows
    any subdomain, as Windows' wns2-*.notify.windows.com need)."""
    return any(
        host == allowed or (allowed.startswith(".") and host.endswith(allowed))
        for allowed in settings.PUSH_SERVICE_HOSTS
    )


def endpoint_allowed(endpoint) -> bool:
    """Whether the server may POST to `endpoint`: an https URL of a push service, read alike by
    every parser on the way; or, in development and the tests, exactly one of
    settings.PUSH_SERVICE_LOCAL_ORIGINS (scheme, host and port as written there)."""
    if not isinstance(endpoint, str) or len(endpoint) > MAX_LENGTH:
        return False
    if not VISIBLE_ASCII.fullmatch(endpoint) or "@" in endpoint or "\\" in endpoint:
        return False
    target = _target(endpoint)
    if target is None:
        return False
    scheme, netloc = target
    if f"{scheme}://{netloc}" in settings.PUSH_SERVICE_LOCAL_ORIGINS:
        return True
    return scheme == "https" and bool(DNS_HOST.fullmatch(netloc)) and push_service_host(netloc)


def _target(endpoint: str) -> tuple[str, str] | None:
    """(scheme, host[:port]) as written, when urlsplit, urllib3 and requests agree on the
    scheme, host and port of `endpoint` and Django's URLValidator finds it well formed; else
    None."""
    try:
        URLValidator(schemes=["https", "http"])(endpoint)
        ours = urlsplit(endpoint)
        theirs = parse_url(endpoint)
        sent = parse_url(requests.Request("POST", endpoint).prepare().url)
        readings = {
            (ours.scheme, ours.hostname, ours.port),
            (theirs.scheme, theirs.host, theirs.port),
            (sent.scheme, sent.host, sent.port),
        }
    except (ValidationError, ValueError, LocationParseError, requests.RequestException):
        return None
    if len(readings) != 1 or ours.username is not None or theirs.auth or sent.auth:
        return None
    # The scheme and host as written must be what every parser read (no case folding, no
    # decoding, no default filled in).
    [(scheme, host, port)] = readings
    written = ours.netloc
    if not endpoint.startswith(f"{scheme}://{written}"):
        return None
    if written != (host if port is None else f"{host}:{port}"):
        return None
    return scheme, written
