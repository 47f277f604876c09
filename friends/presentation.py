"""What the friends page and a player's friend buttons show, for the views and the profile's
template tag alike."""

from friends import selectors


def lists_context(user) -> dict:
    """The friends page: my friends, requests both ways and whom I blocked."""
    return {
        "friends": list(selectors.friends_of(user)),
        "incoming": [row.sender for row in selectors.incoming_requests(user)],
        "outgoing": [row.receiver for row in selectors.outgoing_requests(user)],
        "blocked": [row.blocked for row in selectors.blocked_users(user)],
    }


def actions_context(user, other) -> dict:
    """`other`'s friend buttons as `user` sees them (on my own profile: a link to my friends,
    with the requests waiting for me counted)."""
    relation = selectors.relation(user, other)
    own = relation == selectors.SELF
    return {
        "other": other,
        "relation": relation,
        "incoming_count": selectors.incoming_requests(user).count() if own else 0,
    }
