"""A push endpoint can never lead the server's request anywhere but a push service.

The server POSTs to the endpoint a browser hands it, on every notice, which its author can
cause at will. Python's urlsplit, Django's URLValidator and urllib3 (what requests and pywebpush
connect with) read some URLs differently: `https://10.0.0.5\\@fcm.googleapis.com/x` is a URL
for fcm.googleapis.com to the first two and for 10.0.0.5 to urllib3. Each trick below is
refused when a browser subscribes (a message, nothing stored), skipped when a row stored before
the check is sent to, and a local listener standing for a machine of our network never sees a
connection, not even with the tests' own local push service allowed beside it.
"""

import json
import socket
import threading
from urllib.parse import urlsplit

import pytest
import requests
from django.db import transaction
from django.urls import reverse
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from urllib3.util import parse_url

from notifications import services as notices
from notifications.models import Delivery, Notification
from webpush.delivery import send_to_user
from webpush.endpoints import endpoint_allowed, push_service_host
from webpush.models import PushSubscription

pytestmark = pytest.mark.django_db

SUBSCRIBE = reverse("webpush:subscribe")

# Each written so that some parser on the way reads another host than a push service's, or a
# host that only resolves to one through a decoding, a folding or a lookup.
TRICKS = {
    "backslash-at": "https://10.0.0.5\\@fcm.googleapis.com/x",
    "backslash": "https://10.0.0.5\\.fcm.googleapis.com/x",
    "user-part": "https://fcm.googleapis.com@10.0.0.5/x",
    "user-part-of-a-push-service": "https://10.0.0.5@fcm.googleapis.com/x",
    "user-and-password": "https://a:b@fcm.googleapis.com/x",
    "percent-40": "https://fcm.googleapis.com%4010.0.0.5/x",
    "percent-5c-at": "https://10.0.0.5%5C@fcm.googleapis.com/x",
    "percent-5c": "https://10.0.0.5%5Cfcm.googleapis.com/x",
    "percent-2e": "https://fcm%2egoogleapis%2ecom/x",
    "percent-2e-trailing": "https://fcm.googleapis.com%2e/x",
    "percent-2e-wildcard": "https://10%2e0%2e0%2e5.notify.windows.com/x",
    "ipv6-loopback": "https://[::1]/x",
    "ipv6-mapped": "https://[::ffff:10.0.0.5]/x",
    "ipv6-zone": "https://[fe80::1%25eth0]/x",
    "ipv4": "https://10.0.0.5/x",
    "ipv4-decimal": "https://167772165/x",
    "ipv4-hex": "https://0xa000005/x",
    "ipv4-hex-dotted": "https://0xa.0.0.5/x",
    "ipv4-octal": "https://012.0.0.05/x",
    "ipv4-short": "https://10.5/x",
    "port-443": "https://fcm.googleapis.com:443/x",
    "port-other": "https://fcm.googleapis.com:8443/x",
    "port-empty": "https://fcm.googleapis.com:/x",
    "port-zero-padded": "https://fcm.googleapis.com:0443/x",
    "uppercase": "https://FCM.googleapis.com/x",
    "uppercase-scheme": "HTTPS://fcm.googleapis.com/x",
    "trailing-dot": "https://fcm.googleapis.com./x",
    "trailing-dot-wildcard": "https://wns2-par02p.notify.windows.com./w/",
    "tab-in-host": "https://fcm.google\tapis.com/x",
    "newline-in-host": "https://fcm.google\napis.com/x",
    "tab-before-backslash": "https://10.0.0.5\t\\@fcm.googleapis.com/x",
    "newline-in-path": "https://fcm.googleapis.com/x\n",
    "leading-space": " https://fcm.googleapis.com/x",
    "cyrillic-o": "https://fcm.googleapis.c\u043em/x",
    "fullwidth-solidus": "https://fcm.googleapis.com\uff0f.10.0.0.5/x",
    "ideographic-full-stop": "https://fcm\u3002googleapis\u3002com/x",
    "fullwidth-letter": "https://\uff46cm.googleapis.com/x",
    "fragment-at": "https://10.0.0.5#@fcm.googleapis.com/x",
    "query-at": "https://10.0.0.5?@fcm.googleapis.com/x",
    "wildcard-without-its-dot": "https://evilnotify.windows.com/x",
    "push-service-as-a-subdomain": "https://fcm.googleapis.com.evil.example/x",
    "plain-http": "http://fcm.googleapis.com/x",
    "no-scheme": "//fcm.googleapis.com/x",
}

REAL_ENDPOINTS = [
    "https://fcm.googleapis.com/fcm/send/abc123:APA91b-example",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk-example",
    "https://web.push.apple.com/QGx0-example",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD%2bI%2fz%3d",
]


@pytest.fixture
def logged_in(client, player):
    client.force_login(player)
    return client


def subscribe(client, keys, endpoint, **headers):
    body = json.dumps(keys.subscription(endpoint))
    return client.post(SUBSCRIBE, body, content_type="application/json", **headers)


@pytest.mark.parametrize("endpoint", TRICKS.values(), ids=TRICKS.keys())
def test_a_trick_is_refused_with_a_message_and_stores_nothing(
    endpoint, vapid, logged_in, browser_keys, settings
):
    settings.DEBUG = True  # as in development, where the local push service is allowed
    settings.PUSH_SERVICE_LOCAL_ORIGINS = ["http://127.0.0.1:8765"]

    answer = subscribe(logged_in, browser_keys, endpoint)

    assert answer.status_code == 400
    assert "https address of a push service" in answer.json()["error"]
    assert not PushSubscription.objects.exists()
    assert not endpoint_allowed(endpoint)  # and it would not be sent to, were it stored


@pytest.mark.parametrize(
    "language, says",
    [
        ("fr", "doit être l’adresse https d’un service de notifications"),
        ("es", "debe ser la dirección https de un servicio de notificaciones"),
    ],
)
def test_the_refusal_is_translated(language, says, vapid, logged_in, browser_keys):
    answer = subscribe(
        logged_in, browser_keys, TRICKS["backslash-at"], HTTP_ACCEPT_LANGUAGE=language
    )
    assert answer.status_code == 400 and says in answer.json()["error"]


@pytest.mark.parametrize("endpoint", REAL_ENDPOINTS)
def test_the_push_services_endpoints_pass(endpoint, vapid, logged_in, browser_keys):
    assert subscribe(logged_in, browser_keys, endpoint).status_code == 200
    assert PushSubscription.objects.get().endpoint == endpoint


PIECES = [
    "fcm.googleapis.com",
    "x.notify.windows.com",
    "10.0.0.5",
    "127.0.0.1",
    "FCM",
    "@",
    "\\",
    ":",
    "443",
    "%40",
    "%5C",
    "%2e",
    "%2f",
    ".",
    "/",
    "?",
    "#",
    "[",
    "]",
    "::1",
    "\t",
    "\n",
    " ",
    "\u3002",
    "\uff0f",
    "\u043e",
    "x",
]


@hypothesis_settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["https://", "http://", "HTTPS://", "https:/", "https:\\\\", "//"]),
    st.lists(st.sampled_from(PIECES), max_size=8),
)
def test_whatever_passes_every_parser_reads_as_a_push_service(scheme, pieces):
    """Any URL made of the tricks' pieces: if it passes, urlsplit, urllib3 and requests read
    one https push service's host, without port nor user."""
    endpoint = scheme + "".join(pieces)
    if not endpoint_allowed(endpoint):
        return
    ours, theirs = urlsplit(endpoint), parse_url(endpoint)
    sent = parse_url(requests.Request("POST", endpoint).prepare().url)
    assert ours.scheme == theirs.scheme == sent.scheme == "https"
    assert ours.hostname == theirs.host == sent.host
    assert push_service_host(sent.host)
    assert ours.port is theirs.port is sent.port is None
    assert ours.username is theirs.auth is sent.auth is None


# ---------------------------------------------------------------- end to end, at a listener


class Listener:
    """A plain TCP socket on 127.0.0.1, standing for a machine of our network: it records
    every connection made to it and closes it."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.1)
        self.port = self.server.getsockname()[1]
        self.connections = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        while not self.stopped.is_set():
            try:
                connection, address = self.server.accept()
            except TimeoutError:
                continue
            self.connections.append(address)
            connection.close()

    def stop(self):
        self.stopped.set()
        self.thread.join()
        self.server.close()


@pytest.fixture
def listener():
    spot = Listener()
    yield spot
    spot.stop()


# Each reaches the listener when given to requests as it is (checked below, so that none of
# them passes here for missing its target); L is the listener's port, P the local push
# service's, which the tests' settings allow.
TO_THE_LISTENER = {
    "backslash-at-push-service": "https://127.0.0.1:{L}\\@fcm.googleapis.com/x",
    "backslash-at-local-service": "http://127.0.0.1:{L}\\@127.0.0.1:{P}/x",
    "user-part": "http://fcm.googleapis.com@127.0.0.1:{L}/x",
    "local-service-as-user-part": "http://127.0.0.1:{P}@127.0.0.1:{L}/x",
    "fragment-at-local-service": "http://127.0.0.1:{L}#@127.0.0.1:{P}/x",
    "query-at-local-service": "http://127.0.0.1:{L}?@127.0.0.1:{P}/x",
    "percent-2e": "http://127%2e0%2e0%2e1:{L}/x",
    "ipv4-decimal": "http://2130706433:{L}/x",
    "ipv4-hex": "http://0x7f000001:{L}/x",
    "ipv4-octal": "http://0177.0.0.1:{L}/x",
    "ipv4-short": "http://127.1:{L}/x",
    "ipv6-mapped": "http://[::ffff:127.0.0.1]:{L}/x",
    "another-port": "http://127.0.0.1:{L}/x",
    "zero-padded-port": "http://127.0.0.1:0{L}/x",
    "uppercase": "http://LOCALHOST:{L}/x",
    "tab": "http://127.0.0.1:{L}/x\t",
    "newline": "http://127.0.0.1:{L}/\nx",
    "leading-tab": "\thttp://127.0.0.1:{L}/x",
}


def at(listener, push_service, trick: str) -> str:
    return trick.format(L=listener.port, P=push_service.server.server_address[1])


@pytest.mark.parametrize("trick", TO_THE_LISTENER.values(), ids=TO_THE_LISTENER.keys())
def test_each_trick_would_reach_the_listener_unchecked(trick, listener, push_service):
    """The listener's tricks are real ones: requests, as pywebpush calls it, connects."""
    with pytest.raises(requests.RequestException):
        requests.post(at(listener, push_service, trick), data=b"x", timeout=5)
    assert len(listener.connections) == 1


def notify_moderator_message(player, committed):
    """A notice to `player`, sent as the site sends it: the outbox after the commit."""

    def write():
        with transaction.atomic():
            notices.notify(player, Notification.Event.MODERATOR, text="Hello", cause="m1")

    committed(write)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    def run(fn):
        with django_capture_on_commit_callbacks(execute=True):
            fn()

    return run


def test_no_trick_ever_reaches_the_listener(
    vapid, push_service, listener, logged_in, player, browser_keys, settings, committed
):
    settings.DEBUG = True
    tricks = [at(listener, push_service, trick) for trick in TO_THE_LISTENER.values()]
    for endpoint in tricks:
        assert subscribe(logged_in, browser_keys, endpoint).status_code == 400
    assert not PushSubscription.objects.exists()
    # The one endpoint the settings allow, so that the sending runs for real.
    assert subscribe(logged_in, browser_keys, push_service.url("phone")).status_code == 200
    # Rows stored before the check, as they were then: skipped when sent to, not deleted.
    for endpoint in tricks:
        info = browser_keys.subscription(endpoint)
        PushSubscription.objects.create(user=player, endpoint=endpoint, **info["keys"])

    notify_moderator_message(player, committed)

    assert listener.connections == []
    [message] = push_service.on("phone")
    assert browser_keys.decrypt(message.body)["body"] == "Hello"
    assert Delivery.objects.get().sent_at is not None
    assert PushSubscription.objects.count() == len(tricks) + 1


def test_a_push_services_redirect_is_not_followed(
    vapid, push_service, listener, player, browser_keys, caplog
):
    """An allowed service answering 307 to an address of ours: the redirect is a refusal,
    logged and not retried, and nothing goes to that address."""
    info = browser_keys.subscription(push_service.url("moved"))
    PushSubscription.objects.create(user=player, endpoint=info["endpoint"], **info["keys"])
    push_service.redirects["moved"] = f"http://127.0.0.1:{listener.port}/internal"

    assert send_to_user(player, title="t", body="b", url="/", tag="x") == 0

    assert [message.status for message in push_service.on("moved")] == [307]
    assert listener.connections == []
    assert "refused (307)" in caplog.text
