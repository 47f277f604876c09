"""Tags of the game page (templates/games/game.html) that need the game's kind."""

import json

from django import template
from django.templatetags.static import static
from django.utils.html import format_html

from games.kinds import registry

register = template.Library()


@register.simple_tag
def stand_in_bot(game) -> str:
    """The printed name of the bot that plays a seat whose player leaves ("Scholar")."""
    kind = registry.of(game)
    return kind.bot_label(kind.stand_in)


@register.simple_tag
def kind_stylesheet(game) -> str:
    """The link to the stylesheet of the game's kind (`GameKind.stylesheet`), if it has one: the
    pages drawing a board load only their own game's look."""
    path = registry.of(game).stylesheet
    return format_html('<link rel="stylesheet" href="{}">', static(path)) if path else ""


# What htmx does with each answer on the game page: refusals are swapped in like successes
# (the board or chat panel they carry says why), a 204 (a move whose board the socket brings)
# changes nothing, anything else is an error.
RESPONSE_HANDLING = [
    {"code": "204", "swap": False},
    {"code": "[23]..", "swap": True},
    {"code": "(400|403|409|429)", "swap": True, "error": False},
    {"code": "...", "swap": False, "error": True},
]


@register.simple_tag
def response_handling() -> str:
    """The game page's keys for the base's one htmx config (`{% block htmx_config %}`): htmx
    reads a page's first `htmx-config` meta only, so a second one would be ignored. Escaped
    into the attribute, which the browser reads back as plain JSON."""
    return ', "responseHandling": ' + json.dumps(RESPONSE_HANDLING)
