"""What every page's template needs to know about its reader beyond `user`: their theme."""

from accounts.models import Theme

# An anonymous visitor's choice (a logged-in player's is on their profile); no script reads it.
THEME_COOKIE = "theme"
THEME_COOKIE_MAX_AGE = 365 * 24 * 3600


def chosen_theme(request) -> str:
    """The player's saved theme, else the visitor's cookie, else auto (the device decides)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user.theme if user.theme in Theme.values else Theme.AUTO
    cookie = request.COOKIES.get(THEME_COOKIE)
    return cookie if cookie in Theme.values else Theme.AUTO


def theme(request) -> dict:
    """`theme` for `<html data-theme>`, and the choices the navigation's toggle offers."""
    return {"theme": chosen_theme(request), "theme_choices": Theme.choices}
