"""Card display: a card id becomes a readable name in the table's edition.

Every rendered card carries its id in `data-card`, so what a page shows can be checked against
what the seat may know (the leak tests look for ids).
"""

from django import template
from django.utils.html import format_html

from games.engine import cards

register = template.Library()

CHURCH_WORDS = {
    ("+1",): "raise",
    ("-1",): "lower",
    ("+1", "-1"): "raise or lower",
}


def _signed(deltas) -> tuple[str, ...]:
    return tuple(f"{delta:+d}" for delta in deltas)


@register.filter
def card_name(card_id: str, edition: str = "biblios") -> str:
    """A readable name: "Monks 2 (A)", "Gold 3", "Church: raise 2 dice by 1"."""
    card = cards.CARDS.get(card_id)
    if card is None:
        return "unknown card"
    if card["kind"] == "gold":
        return f"Gold {card['value']}"
    if card["kind"] == "church":
        words = CHURCH_WORDS[_signed(cards.CHURCH_DELTAS[card_id])]
        dice = "1 die" if card["dice"] == 1 else f"{card['dice']} dice"
        return f"Church: {words} {dice} by 1"
    name = cards.category_name(card["category"], edition)
    return f"{name} {card['value']} ({card['letter']})"


@register.filter
def card_kind(card_id: str) -> str:
    """gold, church, or the category id: the CSS class of a card."""
    card = cards.CARDS.get(card_id, {})
    return card.get("category") or card.get("kind", "unknown")


@register.simple_tag
def card(card_id: str, edition: str = "biblios"):
    """A card as an inline element carrying its id (`data-card`) and its display name."""
    return format_html(
        '<span class="card card-{}" data-card="{}">{}</span>',
        card_kind(card_id),
        card_id,
        card_name(card_id, edition),
    )
