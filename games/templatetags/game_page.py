"""Tags of the game pages (templates/games/game.html, the replay viewer, the inspector) that need
the game's kind or the reader's punctuation."""

import json

from django import template
from django.templatetags.static import static
from django.utils.html import format_html

from games.kinds import registry
from games.play import wording

register = template.Library()


@register.simple_tag
def stand_in_bot(game) -> str:
    """The printed name of the bot that plays a seat whose player leaves ("Scholar")."""
    kind = registry.of(game)
    return kind.bot_label(kind.stand_in)


@register.simple_tag
def kind_stylesheet(game) -> str:
    """The link to the stylesheet of the game's kind (`GameKind.stylesheet`), if it has one: the
    pages drawing a board or its cards load only their own game's look. `game` may be the kind
    itself, on the pages of a kind rather than of a game (its rules, its scoring demo)."""
    kind = game if isinstance(game, registry.GameKind) else registry.of(game)
    path = kind.stylesheet
    return format_html('<link rel="stylesheet" href="{}">', static(path)) if path else ""


@register.simple_tag
def colon() -> str:
    """The colon after a label ("Move 3: …"), as the reader's language writes it."""
    return wording.colon()


@register.simple_tag(takes_context=True)
def log_sentences(context, events, board_template: str) -> str:
    """The log lines of one move (each drawn by the kind's `#event` partial) as sentences one
    after the other: "…; Bob starts. Bob drew a card." rather than "…; Bob starts.; Bob drew
    a card"."""
    partial = context.template.engine.get_template(f"{board_template}#event")
    lines = []
    for event in events:
        with context.push(event=event):
            lines.append(partial.render(context))
    return wording.sentences(lines)


# What htmx does with each answer on the game page: refusals are swapped in like successes
# (the board or chat panel they carry says why), a 204 (a move whose board the socket brings)
# changes nothing, anything else is an error.
RESPONSE_HANDLING = [
    {"code": "204", "swap": False},
    {"code": "[23]..", "swap": True},
    {"code": "(400|403|409|429)", "swap": True, "error": False},
    {"code": "...", "swap": False, "error": True},
]


@register.simple_tag
def response_handling() -> str:
    """The game page's keys for the base's one htmx config (`{% block htmx_config %}`): htmx
    reads a page's first `htmx-config` meta only, so a second one would be ignored. Escaped
    into the attribute, which the browser reads back as plain JSON."""
    return ', "responseHandling": ' + json.dumps(RESPONSE_HANDLING)
