"""Tags of the game page (templates/games/game.html) that need the game's kind."""

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
