"""Sending Web Push messages (pywebpush, VAPID keys from settings): the notifications outbox
calls send_to_user after its transaction has committed, never inside one (it waits on the
network). Each endpoint is checked again before it is sent to (webpush/endpoints.py), and a
push service's redirect is never followed: either would let a stored URL lead the server's
request into our own network."""

import base64
import hashlib
import json
import logging

import requests
from django.conf import settings
from pywebpush import WebPushException, webpush

from webpush.endpoints import endpoint_allowed
from webpush.models import PushSubscription

log = logging.getLogger(__name__)

# How long a push service keeps a message for a device that is offline: a turn notice still
# matters the next morning (turn-based tables give 12 h at least), not a week later.
TTL_S = 24 * 3600
TIMEOUT_S = 10
# The push service answers these when the browser unsubscribed or the subscription expired.
GONE = {404, 410}


class PushFailed(Exception):
    """A transient failure: the outbox retries later."""


class NoRedirects(requests.Session):
    """A requests session that answers a redirect with the redirect itself: pywebpush posts
    through `session.post`, which has no switch of its own for it. A 3xx is then a refusal
    (WebPushException with its status), logged and not retried."""

    def request(self, method, url, *args, **kwargs):
        kwargs["allow_redirects"] = False
        return super().request(method, url, *args, **kwargs)


def push_enabled() -> bool:
    """Push is off unless all three VAPID settings are set (biblios_site/settings.py)."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY and settings.VAPID_SUBJECT)


def send_to_user(user, *, title: str, body: str, url: str, tag: str) -> int:
    """Push to every subscription of `user` (pywebpush, VAPID keys from settings); returns how many
    were sent; deletes subscriptions the push service says are gone (404/410); raises PushFailed
    when any subscription failed transiently (5xx, 429, timeout, connection refused), after trying
    them all. Other refusals (a 4xx such as 403 after the VAPID keys changed, a redirect) are
    logged, not retried: sending again would get the same answer. An endpoint the current
    check refuses is skipped, not deleted: a setting changed by mistake must not wipe every
    device."""
    if not push_enabled():
        return 0
    payload = json.dumps({"title": title, "body": body, "url": url, "tag": tag})
    sent, transient = 0, []
    with NoRedirects() as session:
        for subscription in PushSubscription.objects.filter(user=user).order_by("pk"):
            if not endpoint_allowed(subscription.endpoint):
                log.warning("push subscription %s: endpoint not allowed, skipped", subscription.pk)
                continue
            try:
                webpush(
                    subscription.as_subscription_info(),
                    data=payload,
                    vapid_private_key=settings.VAPID_PRIVATE_KEY,
                    # webpush adds "aud" (the endpoint's origin) and "exp" to the dict it is given.
                    vapid_claims={"sub": settings.VAPID_SUBJECT},
                    ttl=TTL_S,
                    timeout=TIMEOUT_S,
                    headers={"Topic": _topic(tag)} if tag else None,
                    requests_session=session,
                )
            except WebPushException as failure:
                status = failure.status_code
                if status in GONE:
                    subscription.delete()
                elif status is None or status >= 500 or status == 429:
                    transient.append(f"{subscription.pk}: {status or failure.message}")
                else:
                    log.error("push to subscription %s refused (%s)", subscription.pk, status)
            except requests.RequestException as failure:
                transient.append(f"{subscription.pk}: {type(failure).__name__}")
            else:
                sent += 1
    if transient:
        raise PushFailed(f"push to {user} failed for subscriptions {', '.join(transient)}")
    return sent


def _topic(tag: str) -> str:
    """RFC 8030's Topic header (at most 32 base64url characters): a newer message with the same
    topic replaces one still waiting at the push service, as `tag` does in the browser."""
    return base64.urlsafe_b64encode(hashlib.sha256(tag.encode()).digest()[:24]).decode()
