"""What every page's navigation shows of the reader's games: how many wait on their move."""

from django.utils.functional import SimpleLazyObject

from games.play import selectors


def your_turn(request) -> dict:
    """`your_turn_count` for a logged-in reader, counted (one indexed query) only when a
    template shows it: partials rendered with the request never pay for it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"your_turn_count": SimpleLazyObject(lambda: selectors.your_turn_count(user))}
