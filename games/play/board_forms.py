"""The opening tag every game's move forms share (each kind's template tags call it), and the
action a move button posts.

Why one place: what makes a move post safely is the platform's, not a game's: it posts to the
game's `game_act` URL with htmx (the answer, the board, replaces `#board`) or as a plain form
without JavaScript, with the CSRF token and the board version it was drawn at (a move made on a
stale board is refused by the service).
"""

import json

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

# What a single-quoted HTML attribute may not hold as it is (JSON's own quotes it may).
_SINGLE_QUOTED = str.maketrans({"&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;"})


def action_value(action: dict) -> SafeString:
    """An action's JSON for a button's single-quoted `value='…'`: its double quotes need no
    escaping there, so a board offering forty buttons is ~1.5 KB lighter than with `&quot;`."""
    return mark_safe(json.dumps(action, separators=(",", ":")).translate(_SINGLE_QUOTED))


def move_form_start(context, css_class: str, hidden: dict | None = None) -> str:
    """`<form …>` with the CSRF token, the board's version and `hidden` fields; the caller adds
    the move's own fields and buttons and closes the form. A lesson's board
    (games/learn/lessons.py),
    which has no game row, posts to its own `act_url`."""
    url = context.get("act_url") or reverse("game_act", args=[context["game"].pk])
    csrf = context.get("csrf_token")
    csrf_input = (
        format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', csrf)
        if csrf and csrf != "NOTPROVIDED"
        else ""
    )
    fields = {"version": context["view"]["version"], **(hidden or {})}
    return format_html(
        '<form method="post" action="{url}" hx-post="{url}" hx-target="#board" '
        'hx-swap="outerHTML" class="{css_class}">{csrf}{fields}',
        url=url,
        css_class=css_class,
        csrf=csrf_input,
        fields=format_html_join("", '<input type="hidden" name="{}" value="{}">', fields.items()),
    )
