"""Friend requests, friendships and blocks: the one door for the pages, the API and the admin.

Each service locks both users' rows (in id order, so two services on one pair never wait on
each other crosswise) before it reads and writes the pair, and the pair's unique constraint
backs that up where the database has no row locks: two people asking each other at once end
friends, with one row. A refusal (`biblios_site.errors`) says why and changes nothing.

A request is told to its receiver (`notifications.services.notify`, inside the request's
transaction like every notice) and an acceptance to the requester; a request that ends
unanswered (taken back, or ended by a block) withdraws its unread notice, an answered one is
read. Every change to a user's pending requests redraws their navigation's count.
"""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from biblios_site import ratelimit
from biblios_site.errors import Conflict, NotAllowed, NotFound, ServiceError
from friends import selectors
from friends.models import Block, Friendship
from notifications import live
from notifications import services as notices
from notifications.models import Notification

Status = Friendship.Status
Event = Notification.Event


def _checked_pair(user, other) -> None:
    """Refuse an anonymous or banned actor, a missing or banned other, and oneself."""
    if not (getattr(user, "is_authenticated", False) and user.is_active):
        raise NotAllowed(gettext("log in first"))
    if other is None or not getattr(other, "is_active", False):
        raise NotFound(gettext("there is no such player"))
    if other.pk == user.pk:
        raise ServiceError(gettext("that is you"))


def _lock(user, other) -> None:
    """Serialise every change to this pair: the two users' rows, lower id first."""
    ids = sorted((user.pk, other.pk))
    list(get_user_model().objects.select_for_update().filter(pk__in=ids).order_by("pk"))


def _row(user, other) -> Friendship | None:
    return Friendship.objects.filter(selectors.between(user, other)).first()


def _cause(row: Friendship) -> str:
    """What the notices of one request are about (one notice per request and event)."""
    return f"friend{row.pk}"


def _requests_changed(user) -> None:
    """`user`'s pending requests changed: their navigation's count is redrawn after the commit."""
    user_id = user.pk
    transaction.on_commit(lambda: live.counts_changed([user_id]))


def send_request(sender, receiver) -> Friendship:
    """Ask `receiver` to be friends; if they asked `sender` already, that request is accepted.

    Refused between blocked users (either way), between friends, and twice."""
    _checked_pair(sender, receiver)
    with transaction.atomic():
        _lock(sender, receiver)
        if selectors.has_blocked(sender, receiver):
            raise Conflict(gettext("you blocked this player: unblock them first"))
        if selectors.has_blocked(receiver, sender):
            raise NotAllowed(gettext("this player does not take your friend requests"))
        row = _row(sender, receiver)
        if row is None:
            ratelimit.hit("friend_request", sender.pk)  # asking strangers, not answering
            try:
                with transaction.atomic():
                    row = Friendship.objects.create(sender=sender, receiver=receiver)
            except IntegrityError:  # they asked at the same moment (a database without locks)
                row = _row(sender, receiver)
                if row is None:
                    raise Conflict(gettext("the request crossed another; try again")) from None
            else:
                notices.notify(receiver, Event.FRIEND_REQUEST, actor=sender, cause=_cause(row))
                return row
        if row.status == Status.ACCEPTED:
            raise Conflict(gettext("you are friends already"))
        if row.sender_id == sender.pk:
            raise Conflict(gettext("you asked already; wait for their answer"))
        return _accepted(row)


def _accepted(row: Friendship) -> Friendship:
    """The request is accepted: the requester is told, the receiver's notice of it is read."""
    row.status, row.accepted_at = Status.ACCEPTED, timezone.now()
    row.save(update_fields=["status", "accepted_at"])
    notices.notify(row.sender, Event.FRIEND_ACCEPTED, actor=row.receiver, cause=_cause(row))
    notices.mark_cause_read(row.receiver, Event.FRIEND_REQUEST, _cause(row))
    _requests_changed(row.receiver)
    return row


def _pending(sender, receiver) -> Friendship:
    """The locked pending request from `sender` to `receiver`, or NotFound."""
    row = (
        Friendship.objects.select_for_update()
        .filter(sender=sender, receiver=receiver, status=Status.PENDING)
        .first()
    )
    if row is None:
        raise NotFound(gettext("there is no such friend request"))
    return row


def accept(receiver, sender) -> Friendship:
    """`receiver` accepts `sender`'s request: they are friends."""
    _checked_pair(receiver, sender)
    with transaction.atomic():
        _lock(receiver, sender)
        return _accepted(_pending(sender, receiver))


def refuse(receiver, sender) -> None:
    """`receiver` refuses `sender`'s request (it is deleted: `sender` may ask again)."""
    _checked_pair(receiver, sender)
    with transaction.atomic():
        _lock(receiver, sender)
        row = _pending(sender, receiver)
        notices.mark_cause_read(receiver, Event.FRIEND_REQUEST, _cause(row))
        row.delete()
        _requests_changed(receiver)


def cancel(sender, receiver) -> None:
    """`sender` takes back their request to `receiver`."""
    _checked_pair(sender, receiver)
    with transaction.atomic():
        _lock(sender, receiver)
        row = _pending(sender, receiver)
        notices.withdraw(Event.FRIEND_REQUEST, _cause(row))
        row.delete()
        _requests_changed(receiver)


def remove_friend(user, friend) -> None:
    """`user` and `friend` are no longer friends (either may end it)."""
    _checked_pair(user, friend)
    with transaction.atomic():
        _lock(user, friend)
        deleted, _ = Friendship.objects.filter(
            selectors.between(user, friend), status=Status.ACCEPTED
        ).delete()
        if not deleted:
            raise NotFound(gettext("you are not friends"))


def block(user, other) -> Block:
    """`user` blocks `other`: their friendship and any request between them end, `other`'s
    requests and invitations are refused and `user` no longer reads their chat."""
    _checked_pair(user, other)
    with transaction.atomic():
        _lock(user, other)
        if selectors.has_blocked(user, other):
            raise Conflict(gettext("you blocked this player already"))
        rows = Friendship.objects.filter(selectors.between(user, other))
        for row in rows.filter(status=Status.PENDING):
            notices.withdraw(Event.FRIEND_REQUEST, _cause(row))
            _requests_changed(row.receiver)
        rows.delete()
        return Block.objects.create(blocker=user, blocked=other)


def unblock(user, other) -> None:
    """`user` lifts their block of `other` (no friendship comes back: ask again)."""
    _checked_pair(user, other)
    with transaction.atomic():
        _lock(user, other)
        deleted, _ = Block.objects.filter(blocker=user, blocked=other).delete()
        if not deleted:
            raise NotFound(gettext("you have not blocked this player"))
