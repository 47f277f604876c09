"""`{% player_ratings player %}`: the ratings section of a profile, one tag in its template."""

from django import template

from ratings import selectors

register = template.Library()


@register.inclusion_tag("ratings/_profile_ratings.html")
def player_ratings(player):
    return {"player": player, "variants": selectors.profile_ratings(player)}
