"""The e-mail choice on a player's own profile page (accounts draws it without importing this
app, as it draws games and ratings)."""

from django import template

from notifications import services
from notifications.models import Preference

register = template.Library()


@register.inclusion_tag("notifications/email_settings.html", takes_context=True)
def email_settings(context, player):
    """The form, for the player themself only (an empty context otherwise renders nothing)."""
    user = context["request"].user
    if not user.is_authenticated or user.pk != player.pk:
        return {"hidden": True}
    return {
        "csrf_token": context.get("csrf_token"),
        "next": context["request"].get_full_path(),
        "choice": services.email_choice(user),
        "choices": Preference.Email.choices,
        "has_address": bool(user.email),
    }
