"""Biblios' card display (`{% load biblios_cards %}`): a card id becomes a readable name in the
table's edition.

Every rendered card carries its id in `data-card`, so what a page shows can be checked against
what the seat may know (the leak tests look for ids).
"""

from django import template

from games.kinds.biblios import card_faces, names

register = template.Library()


@register.filter
def card_name(card_id: str, edition: str = "biblios") -> str:
    """A readable name in the reader's language: "Monks 2 (A)", "Gold 3", "Church: …"."""
    return names.card_label(card_id, edition)


card_kind = register.filter("card_kind", card_faces.card_kind)


@register.simple_tag
def card(card_id: str, edition: str = "biblios"):
    """A card face (symbol, name, value, letter) carrying its id in `data-card`."""
    return card_faces.card_face(card_id, edition)


@register.simple_tag
def symbol(name: str):
    """A decorative symbol (category, gold, church, die) from our own symbol sheet."""
    return card_faces.symbol(name)


@register.simple_tag
def die_face(value: int):
    """A Scriptorium die drawn with its pips."""
    return card_faces.die_face(value)
