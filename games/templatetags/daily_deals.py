"""`{% player_daily_deals player own %}`: a profile's daily deals, its streak and past days.

A tag, so that accounts never imports games (as `{% player_games %}`)."""

from django import template

from games.daily import selectors, services

register = template.Library()


@register.inclusion_tag("games/_player_daily.html")
def player_daily_deals(player, own: bool):
    """`own`: the reader is `player`, who sees today's deals too and links to their games;
    anyone else sees the days before today only, which tell nothing of a deal still in play."""
    streak, past = selectors.days_of(player)
    if not own:
        past = [deal for deal in past if deal.day < services.today()]
    return {"streak": streak, "past": past, "own": own}
