"""`{% chat_panel %}`: the table chat on the game page, built like the live pushes build it."""

from django import template
from django.template.loader import render_to_string

from games import chat_views

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_panel(context):
    request, game = context["request"], context["game"]
    panel = chat_views.chat_context(
        game, request.user, may_watch=chat_views.may_watch(request, game)
    )
    return render_to_string("games/chat.html#panel", panel, request=request)
