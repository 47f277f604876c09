"""Board helpers: action forms that work with htmx and without JavaScript, and log lines."""

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.engine.cards import category_name

from .cards import card

register = template.Library()


@register.filter
def seat_name(names: list[str], seat) -> str:
    try:
        return names[seat]
    except (IndexError, TypeError):
        return "somebody"


@register.simple_tag(takes_context=True)
def action_form(context, action_type: str):
    """The opening tag of an action form: posts with htmx, or as a plain form without JS.

    Carries the board version it was rendered at (a stale board is refused by the service) and
    the action type; the caller adds the action's own fields and closes the form.
    """
    url = reverse("game_act", args=[context["game"].pk])
    csrf = context.get("csrf_token")
    csrf_input = (
        format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', csrf)
        if csrf and csrf != "NOTPROVIDED"
        else ""
    )
    return format_html(
        '<form method="post" action="{url}" hx-post="{url}" hx-target="#board" '
        'hx-swap="outerHTML" class="action action-{kind}">{csrf}'
        '<input type="hidden" name="version" value="{version}">'
        '<input type="hidden" name="type" value="{kind}">',
        url=url,
        kind=action_type,
        csrf=csrf_input,
        version=context["view"]["version"],
    )


@register.simple_tag(takes_context=True)
def log_line(context, event: dict):
    """One engine event (already filtered for this seat by `events_for`) in words."""
    names, me, edition = context["names"], context["me"], context["edition"]

    def who(seat):
        if seat is None:
            return "somebody"
        return "you" if seat == me else seat_name(names, seat)

    def shown(card_id):
        return card(card_id, edition)

    line = LINES.get(event.get("type"))
    if line is None:
        return event.get("type", "")
    text = line(event, who, shown, "a card", edition)
    # Only "you" needs a capital: player names are shown as their owners wrote them.
    return mark_safe("Y" + text[1:]) if text.startswith("you") else text


def _placed(event, who, shown, hidden, edition):
    where = {
        "self": "face down for themself",
        "auction": "face down on the auction pile",
        "public": "face up in the public space",
    }[event["to"]]
    if event.get("card"):
        return format_html("{} placed {} {}", who(event["seat"]), shown(event["card"]), where)
    return format_html("{} placed {} {}", who(event["seat"]), hidden, where)


def _church_used(event, who, shown, hidden, edition):
    dice = " and ".join(category_name(die, edition) for die in event["dice"])
    return format_html(
        "{} used {}: {} {}", who(event["seat"]), shown(event["card"]), dice, f"{event['delta']:+d}"
    )


def _paid(event, who, shown, hidden, edition):
    cards = format_html_join(", ", "{}", ((shown(c),) for c in event["cards"]))
    return format_html("{} paid {} ({} Gold bid)", who(event["seat"]), cards, event["amount"])


def _maybe(event, shown, hidden):
    return shown(event["card"]) if event.get("card") else hidden


LINES = {
    "game_started": lambda e, who, shown, hidden, ed: format_html(
        "The game began with {} players; {} start.", e["players"], who(e["first_player"])
    ),
    "drew": lambda e, who, shown, hidden, ed: format_html(
        "{} drew {}", who(e["seat"]), _maybe(e, shown, hidden)
    ),
    "placed": _placed,
    "took_own_card": lambda e, who, shown, hidden, ed: format_html(
        "{} took {} (placed face down) into hand", who(e["seat"]), _maybe(e, shown, "their card")
    ),
    "gift_turn": lambda e, who, shown, hidden, ed: format_html(
        "Next to draw and give out cards: {}", who(e["seat"])
    ),
    "picked": lambda e, who, shown, hidden, ed: format_html(
        "{} took {} from the public space", who(e["seat"]), shown(e["card"])
    ),
    "church_acquired": lambda e, who, shown, hidden, ed: format_html(
        "{} acquired {}", who(e["seat"]), shown(e["card"])
    ),
    "church_used": _church_used,
    "church_unused": lambda e, who, shown, hidden, ed: format_html(
        "{} discarded {} without using it", who(e["seat"]), shown(e["card"])
    ),
    "auction_phase": lambda e, who, shown, hidden, ed: format_html(
        "The auctions begin: {} cards in the auction pile", e["cards"]
    ),
    "auction_card": lambda e, who, shown, hidden, ed: format_html(
        "{} put {} up for auction", who(e["seat"]), shown(e["card"])
    ),
    "bid": lambda e, who, shown, hidden, ed: format_html("{} bid {}", who(e["seat"]), e["amount"]),
    "passed": lambda e, who, shown, hidden, ed: format_html("{} passed", who(e["seat"])),
    "auction_won": lambda e, who, shown, hidden, ed: format_html(
        "{} won the auction with a bid of {}", who(e["seat"]), e["amount"]
    ),
    "card_unsold": lambda e, who, shown, hidden, ed: format_html(
        "Nobody bought {}; it leaves the game", shown(e["card"])
    ),
    "paid": _paid,
    "gave": lambda e, who, shown, hidden, ed: format_html(
        "{} discarded {} face down", who(e["seat"]), _maybe(e, shown, hidden)
    ),
    "card_bought": lambda e, who, shown, hidden, ed: format_html(
        "{} took {}", who(e["seat"]), shown(e["card"])
    ),
    "refused": lambda e, who, shown, hidden, ed: format_html(
        "{} refused to pay {}", who(e["seat"]), e["amount"]
    ),
    "penalty_discard": lambda e, who, shown, hidden, ed: format_html(
        "{} discarded {} from {}'s hand at random (Medieval bluff)",
        who(e["seat"]),
        _maybe(e, shown, hidden),
        who(e["loser"]),
    ),
    "penalty_take": lambda e, who, shown, hidden, ed: format_html(
        "{} took {} from {}'s hand as a penalty",
        who(e["seat"]),
        _maybe(e, shown, hidden),
        who(e["loser"]),
    ),
    "game_over": lambda e, who, shown, hidden, ed: "The game is over",
}
