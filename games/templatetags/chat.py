"""`{% chat_panel %}`: the table chat on the game page, built like the live pushes build it."""

from django import template
from django.template.loader import render_to_string

from games.play import rendering

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_panel(context):
    """The chat for the page's `visitor` (the one its view worked out, not a second one)."""
    panel = rendering.chat_context(context["game"], context["visitor"])
    return render_to_string("games/chat.html#panel", panel, request=context["request"])
