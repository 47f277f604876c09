"""What every page's navigation shows of the reader's friends: the requests waiting for them."""

from django.utils.functional import SimpleLazyObject

from friends import selectors


def requests(request) -> dict:
    """`friend_request_count` for a logged-in reader, counted only when a template shows it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"friend_request_count": SimpleLazyObject(lambda: selectors.incoming_count(user))}
