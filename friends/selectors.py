"""Who is whose friend, who asked whom, who blocked whom: the reads every app asks here.

Each takes users (or anonymous visitors, who have no friends and block nobody) and costs one
query.
"""

from django.contrib.auth import get_user_model
from django.db.models import Q

from friends.models import Block, Friendship

Status = Friendship.Status

# What one user is to another, as the profile's buttons and the API say it.
SELF, FRIENDS, SENT, RECEIVED, BLOCKED, NONE = (
    "self",
    "friends",
    "request_sent",
    "request_received",
    "blocked",
    "none",
)


def _person(user) -> bool:
    return getattr(user, "is_authenticated", False)


def between(a, b) -> Q:
    """Rows of the pair, whoever asked."""
    return Q(sender=a, receiver=b) | Q(sender=b, receiver=a)


def friend_ids(user) -> set[int]:
    """The ids of `user`'s friends (accepted requests either way)."""
    if not _person(user):
        return set()
    rows = Friendship.objects.filter(
        Q(sender=user) | Q(receiver=user), status=Status.ACCEPTED
    ).values_list("sender_id", "receiver_id")
    return {other for pair in rows for other in pair if other != user.pk}


def friends_of(user):
    """`user`'s friends, active accounts only, by name."""
    return (
        get_user_model()
        .objects.filter(pk__in=friend_ids(user), is_active=True)
        .order_by("display_name", "username")
    )


def are_friends(a, b) -> bool:
    if not (_person(a) and _person(b)) or a.pk == b.pk:
        return False
    return Friendship.objects.filter(between(a, b), status=Status.ACCEPTED).exists()


def incoming_requests(user):
    """Requests waiting for `user`'s answer, newest first, with their senders."""
    return Friendship.objects.filter(receiver=user, status=Status.PENDING).select_related("sender")


def incoming_count(user) -> int:
    """How many requests wait for `user`'s answer (from active accounts): the navigation's
    count next to "My friends"."""
    if not _person(user):
        return 0
    return Friendship.objects.filter(
        receiver=user, status=Status.PENDING, sender__is_active=True
    ).count()


def outgoing_requests(user):
    """Requests `user` sent that wait for an answer, newest first."""
    return Friendship.objects.filter(sender=user, status=Status.PENDING).select_related("receiver")


def has_blocked(blocker, other) -> bool:
    """Whether `blocker` blocked `other` (one direction)."""
    if not (_person(blocker) and _person(other)):
        return False
    return Block.objects.filter(blocker=blocker, blocked=other).exists()


def blocked(a, b) -> bool:
    """Whether either of `a` and `b` blocked the other: no request or invitation passes."""
    if not (_person(a) and _person(b)):
        return False
    return Block.objects.filter(Q(blocker=a, blocked=b) | Q(blocker=b, blocked=a)).exists()


def blocked_ids(user) -> set[int]:
    """The ids of the users `user` blocked (whose chat they do not read)."""
    if not _person(user):
        return set()
    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def blocked_either_way_ids(user) -> set[int]:
    """The ids of the users `user` blocked or was blocked by: none of `user`'s offers reaches
    them, and none of theirs reaches `user`."""
    if not _person(user):
        return set()
    rows = Block.objects.filter(Q(blocker=user) | Q(blocked=user)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in rows for other in pair if other != user.pk}


def blocked_users(user):
    """The blocks `user` made, newest first, with the blocked users."""
    return Block.objects.filter(blocker=user).select_related("blocked")


def relation(user, other) -> str:
    """What `other` is to `user`: SELF, BLOCKED (by `user`), FRIENDS, SENT (a request of
    `user`'s waits), RECEIVED (one of `other`'s waits) or NONE; NONE for an anonymous reader."""
    if not _person(user):
        return NONE
    if user.pk == other.pk:
        return SELF
    if has_blocked(user, other):
        return BLOCKED
    row = Friendship.objects.filter(between(user, other)).values("status", "sender_id").first()
    if row is None:
        return NONE
    if row["status"] == Status.ACCEPTED:
        return FRIENDS
    return SENT if row["sender_id"] == user.pk else RECEIVED


def player_named(username):
    """The active player of this username, or None (a banned one is nobody to befriend)."""
    if not isinstance(username, str):
        return None
    return get_user_model().objects.filter(username=username, is_active=True).first()
