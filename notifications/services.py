"""Writing notifications: `notify`, the e-mail preference and unsubscribing.

`notify` only writes rows, inside the caller's transaction: the notification each recipient
sees in the site and the outbox's deliveries (e-mail, the daily digest, Web Push). After the
commit the recipients' sockets get their new unread count and the deliveries are sent
(`sending`); the worker sends whatever a dead process committed and never sent.
"""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from notifications import live, sending, tokens
from notifications.models import Delivery, Notification, Preference
from webpush.delivery import push_enabled
from webpush.models import PushSubscription

Event = Notification.Event
# A digest gathers a day of notices: the first one waiting sets when it goes.
DIGEST_EVERY = timedelta(days=1)
# How long the e-mail and push of a notice its recipient may be looking at wait (a live table's
# start and end, pushed to its open page, which reads them): read by then, they are not sent.
SEEN_GRACE = timedelta(seconds=10)
# Events of which a recipient keeps one notice per game: the newest replaces the last, so a long
# turn-based game leaves one "Your turn" in the list, not one per turn.
ONE_PER_GAME = {Event.YOUR_TURN}


def notify(
    users,
    event: str,
    *,
    game=None,
    tournament=None,
    actor=None,
    text: str = "",
    cause: str = "",
    grace: timedelta = timedelta(0),
    until=None,
) -> list:
    """Notify `users` (one User or several) of `event`; the new Notifications.

    Call it inside the transaction of the change that causes it. The actor never notifies
    themself; bots are not users and get nothing; a second call for the same recipient, event
    and cause adds nothing (one notification per cause: `cause` defaults to the game and, for a
    turn, its version; for an invitation, the game and the actor). A notice of ONE_PER_GAME
    replaces the recipient's earlier one of that event and game, its outbox rows with it (a
    digest keeps its due time). Nothing here checks
    friendships or blocks: the callers refuse what must not be sent. The e-mails and pushes
    wait `grace` (SEEN_GRACE for news a recipient may be watching); none goes for a notice
    read before it is sent. A mute is told with its end, `until`. A tournament's notice names
    it (`tournament`) and its own cause.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("notify() belongs inside the transaction of what causes it")
    event = Event(event)
    if event in (Event.MODERATOR, Event.MUTED) and not text.strip():
        raise ValueError("a moderator's message or mute needs its text")
    if (event == Event.MUTED) != (until is not None):
        raise ValueError("a mute, and only a mute, is told with its end (`until`)")
    cause = cause or _cause(event, game, actor)
    recipients = _recipients(users, actor)
    if not recipients:
        return []
    already = set(
        Notification.objects.filter(recipient__in=recipients, event=event, cause=cause).values_list(
            "recipient_id", flat=True
        )
    )
    now = timezone.now()
    fresh = [user for user in recipients if user.pk not in already]
    carried = _replace_earlier(fresh, event, game)
    created = [
        Notification.objects.create(
            recipient=user,
            event=event,
            game=game,
            tournament=tournament,
            actor=actor,
            text=text.strip(),
            until=until,
            cause=cause,
            created_at=now,
        )
        for user in fresh
    ]
    deliveries = _deliveries(created, now, now + grace, carried)
    recipient_ids = [notification.recipient_id for notification in created]
    if recipient_ids:
        transaction.on_commit(lambda: live.counts_changed(recipient_ids))
    if deliveries:
        ids = [delivery.pk for delivery in deliveries]
        transaction.on_commit(lambda: sending.send_soon(ids))
    return created


def _cause(event: Event, game, actor) -> str:
    if game is None:
        raise ValueError(f"a {event} notification needs its game, or a cause")
    if event == Event.YOUR_TURN:
        return f"g{game.pk}v{game.version}"
    if event == Event.INVITATION:
        return f"g{game.pk}a{actor.pk if actor else 0}"
    return f"g{game.pk}"


def _recipients(users, actor) -> list:
    """Distinct active users, the actor left out, in a stable order."""
    if isinstance(users, get_user_model()):
        users = [users]
    seen, recipients = set(), []
    for user in users:
        if user is None or user.pk in seen or not user.is_active:
            continue
        if actor is not None and user.pk == actor.pk:
            continue
        seen.add(user.pk)
        recipients.append(user)
    return recipients


def _replace_earlier(users: list, event: Event, game) -> dict:
    """Delete `users`' earlier notices of `event` about `game` when it is ONE_PER_GAME; the due
    time of the digest each of them was waiting in ({user id: due}), which the new notice
    keeps (else a turn a day could postpone a digest for good)."""
    if event not in ONE_PER_GAME or game is None or not users:
        return {}
    earlier = Notification.objects.filter(recipient__in=users, event=event, game=game)
    carried = dict(
        Delivery.objects.filter(
            notification__in=earlier, channel=Delivery.Channel.DIGEST, sent_at=None
        ).values_list("notification__recipient_id", "due_at")
    )
    earlier.delete()
    return carried


def _deliveries(created: list, now, due_at, carried: dict) -> list:
    """The outbox rows of new notifications: an e-mail (or a place in the digest) as each
    recipient chose, for those with an address; a push for those with a subscription. The
    e-mail and the push are due at `due_at`; a digest when the one waiting goes (`carried`:
    the due time of a digest row a replaced notice held)."""
    if not created:
        return []
    user_ids = [notification.recipient_id for notification in created]
    choices = dict(Preference.objects.filter(user_id__in=user_ids).values_list("user_id", "email"))
    pushable = set()
    if push_enabled():
        pushable = set(
            PushSubscription.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True)
        )
    rows = []
    for notification in created:
        user = notification.recipient
        choice = choices.get(user.pk, Preference.Email.EACH)
        if user.email and choice == Preference.Email.EACH:
            rows.append(
                Delivery(notification=notification, channel=Delivery.Channel.EMAIL, due_at=due_at)
            )
        elif user.email and choice == Preference.Email.DIGEST:
            rows.append(
                Delivery(
                    notification=notification,
                    channel=Delivery.Channel.DIGEST,
                    due_at=_digest_due(user, now, carried.get(user.pk)),
                )
            )
        if user.pk in pushable:
            rows.append(
                Delivery(notification=notification, channel=Delivery.Channel.PUSH, due_at=due_at)
            )
    for row in rows:
        row.save()
    return rows


def _digest_due(user, now, carried=None):
    """When `user`'s next digest goes: with the digest already waiting (or the one `carried`
    over from a replaced notice), else a day from now."""
    waiting = (
        Delivery.objects.filter(
            notification__recipient=user, channel=Delivery.Channel.DIGEST, sent_at=None
        )
        .order_by("due_at")
        .values_list("due_at", flat=True)
        .first()
    )
    known = [due for due in (waiting, carried) if due is not None]
    return min(known) if known else now + DIGEST_EVERY


# ------------------------------------------------------------------------- reading


def mark_read(user, ids=None) -> int:
    """Mark `user`'s notifications `ids` (all of them when None) read; how many changed."""
    unread = Notification.objects.filter(recipient=user, read_at=None)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    changed = unread.update(read_at=timezone.now())
    if changed:
        transaction.on_commit(lambda: live.counts_changed([user.pk]))
    return changed


def mark_game_seen(user, game) -> int:
    """Mark `user`'s unread notifications about `game` read: a player who opens its page, or
    whose open page is pushed its start, end or turn, needs no badge for what they are looking
    at (a live table's start and end would otherwise pile up unread). One query when there is
    nothing to mark."""
    if not user.is_authenticated:
        return 0
    unread = Notification.objects.filter(recipient=user, game=game, read_at=None)
    ids = list(unread.values_list("pk", flat=True))
    return mark_read(user, ids) if ids else 0


def mark_cause_read(user, event: str, cause: str) -> int:
    """Mark `user`'s unread notice of `event` and `cause` read: they answered what it asked
    (a friend request accepted or refused from the profile, say) without opening it."""
    ids = list(
        Notification.objects.filter(
            recipient=user, event=event, cause=cause, read_at=None
        ).values_list("pk", flat=True)
    )
    return mark_read(user, ids) if ids else 0


def withdraw(event: str, cause: str) -> int:
    """Delete the unread notices of `event` and `cause`, their outbox rows with them: what they
    asked for is gone (a friend request taken back, or its sender blocked). Read ones stay in
    their readers' lists. Inside the transaction of what withdraws them."""
    unread = Notification.objects.filter(event=event, cause=cause, read_at=None)
    recipient_ids = list(unread.values_list("recipient_id", flat=True))
    if recipient_ids:
        unread.delete()
        transaction.on_commit(lambda: live.counts_changed(recipient_ids))
    return len(recipient_ids)


# ---------------------------------------------------------------------- preferences


def email_choice(user) -> str:
    preference = Preference.objects.filter(user=user).first()
    return preference.email if preference else Preference.Email.EACH


def set_email_choice(user, choice: str) -> None:
    """Each notice, a daily digest or none, as the player saved it: a new version of the
    choice, so no unsubscribe link sent before serves any more."""
    choice = Preference.Email(choice)
    with transaction.atomic():
        _save_choice(Preference.objects.filter(user=user), user, choice)


def unsubscribe_by_link(user, version: int) -> bool:
    """No more e-mail for `user`, if `version` (what their unsubscribe link names) is still
    their e-mail choice's: the link was not used and the player has not chosen since. Whether
    it was; one conditional UPDATE, so two clicks at once turn it off once."""
    with transaction.atomic():
        current = Preference.objects.filter(user=user, email_version=version)
        return _save_choice(current, user, Preference.Email.NONE)


def unsubscribe_link_serves(user, version: int) -> bool:
    """Whether an unsubscribe link naming `version` would still turn `user`'s e-mail off."""
    return tokens.email_version(user) == version


def _save_choice(rows, user, choice: str) -> bool:
    """Save `choice` as the next version of `user`'s preference if `rows` (their preference,
    perhaps narrowed to one version) still matches; whether it did. Notices still waiting to
    be e-mailed follow the new choice: none drops them, digest gathers them, each sends them
    at once."""
    Preference.objects.get_or_create(user=user)
    if not rows.update(email=choice, email_version=F("email_version") + 1):
        return False
    waiting = Delivery.objects.filter(
        notification__recipient=user,
        channel__in=[Delivery.Channel.EMAIL, Delivery.Channel.DIGEST],
        sent_at=None,
    )
    if choice == Preference.Email.NONE:
        waiting.delete()
    elif choice == Preference.Email.DIGEST:
        now = timezone.now()
        waiting.update(channel=Delivery.Channel.DIGEST, due_at=_digest_due(user, now))
    else:
        waiting.update(channel=Delivery.Channel.EMAIL, due_at=timezone.now())
    return True
