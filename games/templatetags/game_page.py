"""Tags of the game page (templates/games/game.html) that need the game's kind."""

from django import template

from games.kinds import registry

register = template.Library()


@register.simple_tag
def stand_in_bot(game) -> str:
    """The printed name of the bot that plays a seat whose player leaves ("Scholar")."""
    kind = registry.of(game)
    return kind.bot_label(kind.stand_in)
