"""Subscribing a browser: only a logged-in player, with the CSRF token, and only a well-formed
subscription to a push service; anything else is refused with a message and stores nothing."""

import base64
import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.test_site import run_with_settings
from webpush.models import PushSubscription

pytestmark = pytest.mark.django_db

FCM = "https://fcm.googleapis.com/fcm/send/abc123:APA91b-example"
SUBSCRIBE = reverse("webpush:subscribe")
UNSUBSCRIBE = reverse("webpush:unsubscribe")


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.fixture
def logged_in(client, player):
    client.force_login(player)
    return client


def post(client, url, body, **headers):
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


def test_a_browser_subscribes(vapid, logged_in, player, browser_keys):
    answer = post(logged_in, SUBSCRIBE, browser_keys.subscription(FCM), HTTP_USER_AGENT="Phone")

    assert answer.status_code == 200
    [stored] = PushSubscription.objects.all()
    assert (stored.user, stored.endpoint) == (player, FCM)
    assert (stored.p256dh, stored.auth) == (browser_keys.p256dh, browser_keys.auth)
    assert stored.user_agent == "Phone"


def test_subscribing_again_updates_the_keys_and_keeps_one_row(vapid, logged_in, browser_keys):
    post(logged_in, SUBSCRIBE, {"endpoint": FCM, "keys": {"p256dh": "x", "auth": "y"}})
    post(logged_in, SUBSCRIBE, browser_keys.subscription(FCM))
    post(logged_in, SUBSCRIBE, browser_keys.subscription(FCM))

    [stored] = PushSubscription.objects.all()
    assert stored.p256dh == browser_keys.p256dh


def test_padded_keys_are_stored_unpadded(vapid, logged_in, browser_keys):
    subscription = browser_keys.subscription(FCM)
    subscription["keys"]["auth"] += "=="
    assert post(logged_in, SUBSCRIBE, subscription).status_code == 200
    assert PushSubscription.objects.get().auth == browser_keys.auth


def test_a_browser_subscribed_by_another_account_moves_to_this_one(
    vapid, logged_in, player, browser_keys, django_user_model
):
    before = django_user_model.objects.create_user("before")
    PushSubscription.objects.create(user=before, endpoint=FCM, p256dh="a", auth="b")

    post(logged_in, SUBSCRIBE, browser_keys.subscription(FCM))

    assert PushSubscription.objects.get().user == player


VALID_KEY = object()  # replaced by the browser's real key in the test


@pytest.mark.parametrize(
    "endpoint, p256dh, auth, says",
    [
        ("http://fcm.googleapis.com/fcm/send/x", VALID_KEY, VALID_KEY, "https"),
        ("https://evil.example.org/collect", VALID_KEY, VALID_KEY, "push service"),
        ("https://10.0.0.5/internal", VALID_KEY, VALID_KEY, "push service"),
        ("https://fcm.googleapis.com.evil.org/x", VALID_KEY, VALID_KEY, "push service"),
        ("javascript:alert(1)", VALID_KEY, VALID_KEY, "https"),
        ("https://" + "a" * 1000 + ".fcm.googleapis.com/", VALID_KEY, VALID_KEY, "1000"),
        (FCM, "not base64 !", VALID_KEY, "P-256"),
        (FCM, b64(b"\x04" + b"\x01" * 64), VALID_KEY, "P-256"),  # not a point on the curve
        (FCM, b64(b"\x04" * 33), VALID_KEY, "P-256"),
        (FCM, VALID_KEY, b64(b"\x00" * 15), "16 bytes"),
        (FCM, VALID_KEY, "%%%", "16 bytes"),
        (None, VALID_KEY, VALID_KEY, "required"),
        (FCM, None, VALID_KEY, "required"),
        (FCM, VALID_KEY, 16, "required"),
    ],
)
def test_a_bad_subscription_is_refused_and_nothing_is_stored(
    endpoint, p256dh, auth, says, vapid, logged_in, browser_keys
):
    keys = {"p256dh": browser_keys.p256dh, "auth": browser_keys.auth}
    if p256dh is not VALID_KEY:
        keys["p256dh"] = p256dh
    if auth is not VALID_KEY:
        keys["auth"] = auth

    answer = post(logged_in, SUBSCRIBE, {"endpoint": endpoint, "keys": keys})

    assert answer.status_code == 400
    assert says in answer.json()["error"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("body", ["not json", "[1, 2]", '"text"', "{}"])
def test_a_body_that_is_no_subscription_is_refused(body, vapid, logged_in):
    answer = logged_in.post(SUBSCRIBE, body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_a_local_push_service_only_at_the_origin_the_settings_list(
    vapid, logged_in, browser_keys, settings
):
    local = "http://127.0.0.1:9999/push/1"
    settings.DEBUG = True  # DEBUG alone lets no local address in
    assert post(logged_in, SUBSCRIBE, browser_keys.subscription(local)).status_code == 400
    settings.PUSH_SERVICE_LOCAL_ORIGINS = ["http://127.0.0.1:9999"]
    for elsewhere in ("http://127.0.0.1:9998/push/1", "http://localhost:9999/push/1"):
        assert post(logged_in, SUBSCRIBE, browser_keys.subscription(elsewhere)).status_code == 400
    assert not PushSubscription.objects.exists()
    assert post(logged_in, SUBSCRIBE, browser_keys.subscription(local)).status_code == 200


def test_production_refuses_a_local_push_service():
    result = run_with_settings(
        "import django; django.setup()",
        DEBUG="0",
        SECRET_KEY="a-real-production-secret-key-" + "x" * 40,
        ALLOWED_HOSTS="biblios.example.org",
        PUSH_SERVICE_LOCAL_ORIGINS="http://127.0.0.1:8765",
    )
    assert result.returncode != 0
    assert "PUSH_SERVICE_LOCAL_ORIGINS" in result.stderr


def test_other_push_services_are_accepted(vapid, logged_in, browser_keys):
    for endpoint in (
        "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
        "https://web.push.apple.com/QGx0",
        "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
    ):
        assert post(logged_in, SUBSCRIBE, browser_keys.subscription(endpoint)).status_code == 200
    assert PushSubscription.objects.count() == 3


def test_devices_per_player_are_capped(vapid, logged_in, player, browser_keys, settings):
    settings.MAX_PUSH_SUBSCRIPTIONS_PER_USER = 2
    for n in range(2):
        PushSubscription.objects.create(user=player, endpoint=f"{FCM}-{n}", p256dh="a", auth="b")

    refused = post(logged_in, SUBSCRIBE, browser_keys.subscription(FCM))
    again = post(logged_in, SUBSCRIBE, browser_keys.subscription(f"{FCM}-1"))

    assert refused.status_code == 400 and "2 devices" in refused.json()["error"]
    assert again.status_code == 200  # a device already counted may renew its keys
    assert PushSubscription.objects.count() == 2


def test_subscribing_needs_a_login(vapid, client, browser_keys):
    answer = post(client, SUBSCRIBE, browser_keys.subscription(FCM))
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert not PushSubscription.objects.exists()


def test_subscribing_needs_the_csrf_token(vapid, player, browser_keys):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    assert post(browser, SUBSCRIBE, browser_keys.subscription(FCM)).status_code == 403
    assert not PushSubscription.objects.exists()


def test_no_subscription_while_push_is_off(logged_in, browser_keys):
    answer = post(logged_in, SUBSCRIBE, browser_keys.subscription(FCM))
    assert answer.status_code == 404
    assert not PushSubscription.objects.exists()


def test_get_is_refused(vapid, logged_in):
    assert logged_in.get(SUBSCRIBE).status_code == 405


def test_unsubscribing_forgets_only_this_players_device(
    vapid, logged_in, player, django_user_model
):
    other = django_user_model.objects.create_user("other")
    PushSubscription.objects.create(user=player, endpoint=FCM, p256dh="a", auth="b")
    PushSubscription.objects.create(user=player, endpoint=FCM + "-2", p256dh="a", auth="b")
    PushSubscription.objects.create(user=other, endpoint=FCM + "-3", p256dh="a", auth="b")

    assert post(logged_in, UNSUBSCRIBE, {"endpoint": FCM}).status_code == 200
    assert post(logged_in, UNSUBSCRIBE, {"endpoint": FCM + "-3"}).status_code == 200

    assert set(PushSubscription.objects.values_list("endpoint", flat=True)) == {
        FCM + "-2",
        FCM + "-3",
    }
    assert post(logged_in, UNSUBSCRIBE, {"nothing": 1}).status_code == 400


def test_the_plain_form_stops_every_device_of_the_player(
    vapid, logged_in, player, django_user_model
):
    other = django_user_model.objects.create_user("other")
    PushSubscription.objects.create(user=player, endpoint=FCM, p256dh="a", auth="b")
    PushSubscription.objects.create(user=player, endpoint=FCM + "-2", p256dh="a", auth="b")
    PushSubscription.objects.create(user=other, endpoint=FCM + "-3", p256dh="a", auth="b")

    answer = logged_in.post(UNSUBSCRIBE, {"everywhere": "1"})

    assert answer.status_code == 302 and answer["Location"] == reverse("accounts:my_profile")
    assert list(PushSubscription.objects.values_list("user", flat=True)) == [other.pk]


def test_logging_out_forgets_the_devices_this_session_subscribed(vapid, player, browser_keys):
    """A plain logout (no script) on a shared computer: the device it subscribed stops, the
    player's other devices, subscribed from other sessions, go on."""
    shared, phone = Client(), Client()
    shared.force_login(player)
    phone.force_login(player)
    assert post(shared, SUBSCRIBE, browser_keys.subscription(FCM)).status_code == 200
    assert post(phone, SUBSCRIBE, browser_keys.subscription(FCM + "-2")).status_code == 200

    assert shared.post(reverse("accounts:logout")).status_code == 302

    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [FCM + "-2"]


def test_the_profile_offers_the_switch_only_when_push_is_on(logged_in, player, settings):
    page = logged_in.get(reverse("accounts:my_profile"), follow=True).content.decode()
    assert "push-device" not in page

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public-key-b64", "private"
    settings.VAPID_SUBJECT = "mailto:a@example.org"
    page = logged_in.get(reverse("accounts:my_profile"), follow=True).content.decode()
    assert 'data-public-key="public-key-b64"' in page
    assert "js/push-device.js" in page
    assert "everywhere" not in page  # no device yet

    PushSubscription.objects.create(user=player, endpoint=FCM, p256dh="a", auth="b")
    page = logged_in.get(reverse("accounts:my_profile"), follow=True).content.decode()
    assert 'name="everywhere"' in page


def test_another_players_profile_has_no_switch(vapid, logged_in, django_user_model):
    other = django_user_model.objects.create_user("other")
    page = logged_in.get(reverse("accounts:profile", args=[other.username])).content.decode()
    assert "push-device" not in page
