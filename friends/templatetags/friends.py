"""`{% friend_actions player %}`: a profile's friend buttons (Add friend, Accept, Block…).

A tag, so that the profile page (accounts) shows them without its view reading friendships:
accounts never imports friends, as it never imports games or ratings.
"""

from django import template

from friends.presentation import actions_context

register = template.Library()


@register.inclusion_tag("friends/friends.html#actions", takes_context=True)
def friend_actions(context, player):
    request = context["request"]
    return {**actions_context(request.user, player), "next": request.get_full_path()}
