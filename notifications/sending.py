"""The outbox's sender: e-mails, daily digests and Web Push, each exactly once as far
as a sender can tell.

Why this shape:
- `services.notify` writes the deliveries in the transaction of their cause; nothing is sent
  inside it. Right after the commit `send_soon` wakes this process's worker (or, with no worker
  running, sends those deliveries itself), and the worker polls the outbox every
  NOTIFY_POLL_S, so whatever a process committed and died before sending goes out from
  another one.
- A worker claims the rows it is about to send with one conditional UPDATE (its token, and a
  due time a lease ahead): two workers never send the same row, and the claim of one that dies
  ends with its lease. Each row is marked sent right after it went, so a retry sends what was
  not yet marked and never twice what was. The one window left, a crash between a message
  going and its row being marked, is why the lease is long: it can double that one message.
- Failures are retried with a growing back-off, up to MAX_ATTEMPTS; the error stays on the row
  for the admin.
- A digest is one e-mail per user and day: all its rows share one due time (`notify` gives a
  new row the waiting digest's), and they are claimed and marked together.
"""

import logging
import secrets
from datetime import timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from biblios_site import background
from notifications import texts, tokens
from notifications.models import Delivery
from webpush import delivery as webpush_delivery

logger = logging.getLogger(__name__)

BATCH = 50  # rows claimed per poll, the longest due first
LEASE = timedelta(minutes=10)
MAX_ATTEMPTS = 8
MAX_BACKOFF = timedelta(hours=6)


class Undeliverable(Exception):
    """Retrying cannot help (no address any more, account closed): the row is given up."""


def send_pending(*, now=None, ids=None) -> int:
    """Send the deliveries due by `now` (only `ids`, if given); how many went."""
    now = now or timezone.now()
    token = _claim(now, ids)
    if token is None:
        return 0
    claimed = Delivery.objects.filter(claimed_by=token, sent_at=None).select_related(
        "notification__recipient",
        "notification__game",
        "notification__tournament",
        "notification__actor",
    )
    sent = 0
    digests: dict[int, list[Delivery]] = {}
    for row in claimed.order_by("pk"):
        if row.notification.read_at is not None:  # seen in the site: old news by e-mail
            _give_up([row.pk], token, "read in the site before it was sent")
        elif row.channel == Delivery.Channel.DIGEST:
            digests.setdefault(row.notification.recipient_id, []).append(row)
        else:
            sent += _attempt([row], token, now, _send_one)
    for rows in digests.values():
        sent += _attempt(rows, token, now, _send_digest)
    return sent


def _claim(now, ids) -> str | None:
    """Claim a batch of due rows for this call (with every row of each due digest); its token,
    or None when there was nothing to claim."""
    due = Delivery.objects.filter(sent_at=None, due_at__lte=now, attempts__lt=MAX_ATTEMPTS)
    if ids is not None:
        due = due.filter(pk__in=ids)
    chosen = list(
        due.order_by("due_at", "pk").values_list("pk", "channel", "notification__recipient_id")[
            :BATCH
        ]
    )
    if not chosen:
        return None
    pks = {pk for pk, channel, _ in chosen if channel != Delivery.Channel.DIGEST}
    digest_users = {user for _, channel, user in chosen if channel == Delivery.Channel.DIGEST}
    if digest_users:
        pks |= set(
            due.filter(
                channel=Delivery.Channel.DIGEST, notification__recipient_id__in=digest_users
            ).values_list("pk", flat=True)
        )
    token = secrets.token_hex(8)
    claimed = Delivery.objects.filter(
        pk__in=pks, sent_at=None, due_at__lte=now, attempts__lt=MAX_ATTEMPTS
    ).update(claimed_by=token, due_at=now + LEASE)
    return token if claimed else None


def _attempt(rows: list[Delivery], token: str, now, send) -> int:
    """Send `rows` (one message); mark them sent at once, or count the failure."""
    pks = [row.pk for row in rows]
    mine = Delivery.objects.filter(pk__in=pks, claimed_by=token, sent_at=None)
    try:
        send(rows)
    except Undeliverable as reason:
        _give_up(pks, token, str(reason))
        return 0
    except Exception as failure:
        attempts = rows[0].attempts + 1
        backoff = min(timedelta(minutes=2**attempts), MAX_BACKOFF)
        logger.warning("delivery %s failed (attempt %s): %r", pks, attempts, failure)
        mine.update(
            attempts=F("attempts") + 1,
            last_error=repr(failure)[:500],
            due_at=now + backoff,
            claimed_by="",
        )
        return 0
    mine.update(sent_at=timezone.now(), claimed_by="")
    return len(rows)


def _give_up(pks: list[int], token: str, reason: str) -> None:
    """Never send these claimed rows; the admin shows why."""
    Delivery.objects.filter(pk__in=pks, claimed_by=token, sent_at=None).update(
        attempts=MAX_ATTEMPTS, last_error=reason[:500], claimed_by=""
    )


def _send_one(rows: list[Delivery]) -> None:
    (row,) = rows
    notification = row.notification
    user = notification.recipient
    if not user.is_active:
        raise Undeliverable("the account is closed")
    text = texts.render(notification)
    if row.channel == Delivery.Channel.PUSH:
        tag = f"game-{notification.game_id}" if notification.game_id else f"n-{notification.pk}"
        webpush_delivery.send_to_user(user, title=text.title, body=text.body, url=text.url, tag=tag)
        return
    with translation.override(texts.language_of(user)):
        _mail(user, text.title, "notifications/email.txt", {"text": text})


def _send_digest(rows: list[Delivery]) -> None:
    user = rows[0].notification.recipient
    if not user.is_active:
        raise Undeliverable("the account is closed")
    notifications = sorted((row.notification for row in rows), key=lambda n: n.created_at)
    with translation.override(texts.language_of(user)):
        entries = [texts.text_of(notification) for notification in notifications]
        subject = ngettext(
            "Your day on Biblios Online: %(count)s notice",
            "Your day on Biblios Online: %(count)s notices",
            len(entries),
        ) % {"count": len(entries)}
        _mail(user, subject, "notifications/digest.txt", {"entries": entries})


def _mail(user, subject: str, template: str, context: dict) -> None:
    """One e-mail to `user` with the unsubscribe link (in the text and as List-Unsubscribe,
    which mail clients offer as one click: RFC 8058)."""
    if not user.email:
        raise Undeliverable("no e-mail address")
    unsubscribe = texts.absolute(
        reverse("notifications:unsubscribe", args=[tokens.unsubscribe_token(user)])
    )
    body = render_to_string(
        template,
        {
            **context,
            "user": user,
            "unsubscribe_url": unsubscribe,
            "settings_url": texts.absolute(reverse("accounts:my_profile")),
            "site_name": gettext("Biblios Online"),
        },
    )
    message = EmailMultiAlternatives(
        subject=subject,
        body=body,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.send()


# ------------------------------------------------------------------- the worker


# Rung after a commit that queued deliveries: this process's worker sends them at once.
outbox_alarm = background.Alarm()


def send_soon(ids) -> None:
    """After a commit: wake this process's worker to send `ids`, or send them here when no
    worker runs in this process (a management command, runserver with TURN_WORKER=0, the
    tests). Never fails the caller: the poll retries whatever did not go."""
    if outbox_alarm.ring():
        return
    try:
        send_pending(ids=ids)
    except Exception:
        logger.exception("sending notifications %s after the commit failed", ids)


async def run_forever() -> None:
    """Send what is due every NOTIFY_POLL_S, or at once when `send_soon` wakes it."""
    poll = database_sync_to_async(send_pending, thread_sensitive=False)
    with outbox_alarm.armed():
        while True:
            try:
                await poll()
            except Exception:
                logger.exception("notification outbox poll failed")
            await outbox_alarm.sleep(settings.NOTIFY_POLL_S)
