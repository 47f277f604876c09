"""`{% chat_panel %}`: the table chat on the game page, built like the live pushes build it."""

from django import template
from django.template.loader import render_to_string

from games import access
from games.play import rendering

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_panel(context):
    request, game = context["request"], context["game"]
    invited = access.holds_invite(game, session=request.session)
    panel = rendering.chat_context(game, request.user, invited=invited)
    return render_to_string("games/chat.html#panel", panel, request=request)
