"""The navigation's counts, live: after a commit that changes what a user's navigation
counts (a new notification, notifications read, a game now waiting on them or no longer), every
open page of theirs is told over its `ws/me/` socket (notifications.consumers.NavConsumer), which
re-reads the counts and swaps them in. A hint, like the games' pushes: no data rides on it.
"""

from biblios_site import push


def nav_group(user_id: int) -> str:
    return f"nav-{user_id}"


def counts_changed(user_ids) -> None:
    """Tell each user's open pages to redraw their navigation's counts (after a commit)."""
    for user_id in dict.fromkeys(user_ids):
        push.send(nav_group(user_id), {"type": "nav.changed"})
