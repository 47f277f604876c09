"""Biblios' card display (`{% load biblios_cards %}`): a card id becomes a readable name in the
table's edition.

Every rendered card carries its id in `data-card`, so what a page shows can be checked against
what the seat may know (the leak tests look for ids).
"""

from django import template

from games.kinds.biblios import card_faces, names
from games.kinds.biblios.engine.cards import LETTER, VALUE, letter_rank

register = template.Library()


@register.filter
def card_name(card_id: str, edition: str = "biblios") -> str:
    """A readable name in the reader's language: "Monks 2 (A)", "Gold 3", "Church: …"."""
    return names.card_label(card_id, edition)


card_kind = register.filter("card_kind", card_faces.card_kind)


@register.filter
def by_value(card_ids: list[str]) -> list[str]:
    """A hand's cards as a player sorts them: highest value first, then best tie letter."""
    return sorted(card_ids, key=lambda card: (-VALUE[card], letter_rank(LETTER.get(card))))


@register.simple_tag
def card(card_id: str, edition: str = "biblios"):
    """A card face (symbol, name, value, letter) carrying its id in `data-card`."""
    return card_faces.card_face(card_id, edition)


@register.simple_tag
def card_tile(card_id: str, edition: str = "biblios"):
    """A card drawn as a card (corner value and letter, illustration, name), id in `data-card`:
    for the hand, the public space and the card in play; `card` is the chip for sentences."""
    return card_faces.card_tile(card_id, edition)


@register.simple_tag
def card_back():
    """A face-down card: no id, nothing to learn from it."""
    return card_faces.card_back()


@register.simple_tag
def die_face(value: int):
    """A Scriptorium die drawn with its pips."""
    return card_faces.die_face(value)
