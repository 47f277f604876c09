"""`{% player_record player %}` and `{% player_games player own %}`: a profile's games sections.

Rendered by tags so that the profile page (accounts) shows games without its view reading them:
accounts never imports games, the way `{% player_ratings %}` keeps ratings out of it.
"""

from django import template

from games.history import selectors

register = template.Library()


@register.inclusion_tag("games/_player_record.html")
def player_record(player):
    return {"record": selectors.player_record(player)}


@register.inclusion_tag("games/_player_games.html", takes_context=True)
def player_games(context, player, own: bool):
    """`own`: the reader is `player`, who alone sees their private tables listed; anyone else
    sees the tables `games.access.listed_to` shows them."""
    reader = getattr(context.get("request"), "user", None)
    games = selectors.player_games(player, include_private=own, reader=reader)
    return {"player": player, "games": games}
