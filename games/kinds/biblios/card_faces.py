"""How a card and a die look on the page: our own SVG symbols, never colour alone.

A card comes in two sizes: a chip (`card_face`), one line inside a sentence or a log line, and a
full face (`card_tile`), a card shape with the value and tie letter in its corner and the
category's illustration, for the hand, the public space and the card in play. Face-down cards
are `card_back`s: the same shape with no id at all, so nothing about them reaches the page.

A card face carries its printed name, value and tie-break letter as text (a church card: its
effect and one die icon per die it moves), so it reads without colour and without images, and
its category's symbol, which Biblios' sheet (static/biblios/board.css) draws as a mask cut from
our symbol sheet beside it (a <view> of symbols.svg per symbol): a board shows dozens of cards,
so each costs a few bytes.
Every face keeps the card id in `data-card`, which the leak tests look for: a face is only ever
drawn for a card the reader may see.

A face depends only on the card id, the edition and the reader's language, and a board draws
dozens (its log lines most of them), so each face and symbol is built once per process and
language and reused (a quarter of a board's render before).
"""

from functools import cache

from django.core.signals import setting_changed
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from games.kinds.biblios import names
from games.kinds.biblios.engine import cards

CHURCH_EFFECTS = {(1,): "+1", (-1,): "−1", (1, -1): "±1"}
# Scripts & Scribes prints its two-dice Bishop cards "+2"/"−2" (still 1 on each of two dice, R17).
TWO_DICE_EFFECTS_SCRIPTS_AND_SCRIBES = {(1,): "+2", (-1,): "−2"}

# Pip positions on a 3×3 grid (column, row), per die value.
PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def card_kind(card_id: str) -> str:
    """gold, church, or the category id: the CSS class and symbol of a card."""
    card = cards.CARDS.get(card_id, {})
    return card.get("category") or card.get("kind", "unknown")


def card_face(card_id: str, edition: str = "biblios") -> str:
    """One card: symbol, name, value and letter as text, its id in `data-card`."""
    if card_id not in cards.CARDS:  # not cached: any string could come here
        return format_html(
            '<span class="card card-unknown">{}</span>', names.card_label(card_id, edition)
        )
    return _known_card(card_id, edition, get_language(), tile=False)


def card_tile(card_id: str, edition: str = "biblios") -> str:
    """One card as a card: its value and letter in the corner, its illustration, its name.

    The same words as the chip (name, value, letter; a church card's effect and dice), in an
    order that reads well aloud; CSS lays them out as a card and draws the illustration.
    """
    if card_id not in cards.CARDS:
        return card_face(card_id, edition)
    return _known_card(card_id, edition, get_language(), tile=True)


@cache
def _known_card(card_id: str, edition: str, language: str | None, tile: bool) -> str:
    """A card of the deck in `language` (the active one: the key of the cache): the chip of
    sentences, or with `tile` a card laid out as one (a church card's effect and dice in its
    corner). The same words either way."""
    card = cards.CARDS[card_id]
    classes = f"card card-{card_kind(card_id)}" + (" card-tile" if tile else "")
    if card["kind"] == "church":
        effect = _church_effect(card_id, card["dice"], edition)
        dice = mark_safe('<span class="die-icon"></span>' * card["dice"])
        if tile:
            marks = format_html(
                '<span class="card-corner" aria-hidden="true"><span class="card-effect">{}'
                '</span><span class="card-dice">{}</span></span>',
                effect,
                dice,
            )
        else:
            marks = format_html(
                '<span class="card-effect" aria-hidden="true">{}</span>'
                '<span class="card-dice" aria-hidden="true">{}</span>',
                effect,
                dice,
            )
        return format_html(
            '<span class="{classes}" data-card="{id}">'
            '<span class="visually-hidden">{label}</span>'
            '<span class="card-name" aria-hidden="true">{name}</span>{marks}</span>',
            classes=classes,
            id=card_id,
            label=names.card_label(card_id, edition),
            name=names.church_label(edition),
            marks=marks,
        )
    if card["kind"] == "gold":
        name, letter = names.gold_label(), ""
    else:
        name, letter = names.category_label(card["category"], edition), card["letter"]
    return format_html(
        '<span class="{classes}" data-card="{id}">'
        '<span class="card-name">{name}</span> <span class="card-value">{value}</span>'
        "{letter}</span>",
        classes=classes,
        id=card_id,
        name=name,
        value=card["value"],
        letter=format_html(' <span class="card-letter">{}</span>', letter) if letter else "",
    )


def card_back() -> str:
    """A face-down card: the card shape and back pattern every game shares (board.css), never
    an id."""
    return mark_safe('<span class="card-back" aria-hidden="true"></span>')


def _church_effect(card_id: str, dice: int, edition: str) -> str:
    deltas = cards.CHURCH_DELTAS[card_id]
    if edition == "scripts_and_scribes" and dice == 2:
        return TWO_DICE_EFFECTS_SCRIPTS_AND_SCRIBES[deltas]
    return CHURCH_EFFECTS[deltas]


def die_face(value: int) -> str:
    """A die showing `value` as pips (the number is said in words beside it)."""
    pips = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="2.6"></circle>',
        ((6 + 6 * column, 6 + 6 * row) for column, row in PIPS.get(value, ())),
    )
    return format_html(
        '<svg class="die-face" viewBox="0 0 24 24" aria-hidden="true">'
        '<rect x="1" y="1" width="22" height="22" rx="4"></rect>{}</svg>',
        pips,
    )


def _forget_faces(*, setting: str, **_) -> None:
    """Faces hold translated words and static URLs: tests that change those start afresh."""
    if setting in {"STATIC_URL", "STORAGES", "LANGUAGE_CODE", "LANGUAGES", "LOCALE_PATHS"}:
        _known_card.cache_clear()


setting_changed.connect(_forget_faces)
