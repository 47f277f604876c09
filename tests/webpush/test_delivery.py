"""send_to_user against a push service on 127.0.0.1: what it receives is encrypted to the
browser's key (decrypted here as the browser would), signed with the site's VAPID key, and
its answers decide what happens to the subscription."""

import base64
import json
import socket

import pytest
from py_vapid import Vapid

from webpush.delivery import PushFailed, send_to_user
from webpush.models import PushSubscription

pytestmark = pytest.mark.django_db

NOTICE = {"title": "Your turn", "body": "Ada played; it is your move.", "url": "/games/7/"}


def subscribe(user, keys, endpoint) -> PushSubscription:
    info = keys.subscription(endpoint)
    return PushSubscription.objects.create(user=user, endpoint=endpoint, **info["keys"])


def test_the_browser_reads_title_body_and_url(vapid, push_service, browser_keys, player):
    subscribe(player, browser_keys, push_service.url("device-1"))

    assert send_to_user(player, tag="turn-7", **NOTICE) == 1

    [message] = push_service.on("device-1")
    assert message.headers["content-encoding"] == "aes128gcm"
    assert NOTICE["body"].encode() not in message.body  # only the browser can read it
    assert browser_keys.decrypt(message.body) == {**NOTICE, "tag": "turn-7"}
    # Kept a day for a device that is offline, not dropped at once (pywebpush's default).
    assert message.headers["ttl"] == "86400"


def test_the_message_is_signed_with_the_sites_vapid_key(vapid, push_service, browser_keys, player):
    subscribe(player, browser_keys, push_service.url("device-1"))
    send_to_user(player, tag="turn-7", **NOTICE)

    [message] = push_service.on("device-1")
    scheme, _, credentials = message.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in credentials.split(","))
    assert fields["k"] == vapid["VAPID_PUBLIC_KEY"]
    assert Vapid.verify(message.headers["authorization"])  # the JWT's signature, with k
    claims = json.loads(base64.urlsafe_b64decode(fields["t"].split(".")[1] + "=="))
    assert claims["aud"] == push_service.url("").rstrip("/")
    assert claims["sub"] == vapid["VAPID_SUBJECT"]


def test_every_device_of_the_user_and_no_one_elses(
    vapid, push_service, browser_keys, player, django_user_model
):
    other = django_user_model.objects.create_user("someone-else")
    subscribe(player, browser_keys, push_service.url("phone"))
    subscribe(player, browser_keys, push_service.url("laptop"))
    subscribe(other, browser_keys, push_service.url("theirs"))

    assert send_to_user(player, tag="t", **NOTICE) == 2

    assert len(push_service.on("phone")) == len(push_service.on("laptop")) == 1
    assert push_service.on("theirs") == []


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_service_says_is_gone_is_deleted(
    status, vapid, push_service, browser_keys, player
):
    subscribe(player, browser_keys, push_service.url("gone"))
    subscribe(player, browser_keys, push_service.url("here"))
    push_service.answers["gone"] = status

    assert send_to_user(player, tag="t", **NOTICE) == 1

    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        push_service.url("here")
    ]


@pytest.mark.parametrize("status", [500, 503, 429])
def test_a_transient_failure_raises_after_trying_every_device(
    status, vapid, push_service, browser_keys, player
):
    subscribe(player, browser_keys, push_service.url("busy"))
    subscribe(player, browser_keys, push_service.url("fine"))
    push_service.answers["busy"] = status

    with pytest.raises(PushFailed):
        send_to_user(player, tag="t", **NOTICE)

    assert len(push_service.on("fine")) == 1
    assert PushSubscription.objects.count() == 2  # kept: the retry sends again


def test_a_service_that_cannot_be_reached_is_a_transient_failure(
    vapid, browser_keys, player, settings
):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.PUSH_SERVICE_LOCAL_ORIGINS = [f"http://127.0.0.1:{port}"]
    subscribe(player, browser_keys, f"http://127.0.0.1:{port}/nobody")

    with pytest.raises(PushFailed):
        send_to_user(player, tag="t", **NOTICE)
    assert PushSubscription.objects.count() == 1


def test_a_refusal_is_logged_not_retried(vapid, push_service, browser_keys, player, caplog):
    """403: the subscription was made with other VAPID keys; sending again cannot help."""
    subscribe(player, browser_keys, push_service.url("old-keys"))
    push_service.answers["old-keys"] = 403

    assert send_to_user(player, tag="t", **NOTICE) == 0

    assert "refused (403)" in caplog.text
    assert PushSubscription.objects.count() == 1


def test_nothing_is_sent_while_push_is_off(push_service, browser_keys, player, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = settings.VAPID_SUBJECT = ""
    subscribe(player, browser_keys, push_service.url("device-1"))

    assert send_to_user(player, tag="t", **NOTICE) == 0
    assert push_service.received == []


def test_a_user_without_devices_gets_nothing(vapid, push_service, player):
    assert send_to_user(player, tag="t", **NOTICE) == 0
    assert push_service.received == []
