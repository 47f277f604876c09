"""Printed names of categories, cards and the dice board, in the reader's language.

The engine knows ids only; pages, pushes and logs name things here, at the edge, in the active
language (`get_language()`), so each reader sees the names printed in their own edition: the deck
table gives every category's name per edition and language (spec §8).

Scripts & Scribes was not published in Spanish, so the deck table has no Spanish names for it.
Spanish readers get the Spanish renderings below of the printed English/French names rather than
English words in a Spanish page (documented in the README's Languages section).
"""

from django.utils.translation import get_language, gettext, ngettext, pgettext

from games.kinds.biblios.engine import cards

SCRIPTS_AND_SCRIBES_SPANISH = {
    "monks": "Iluminadores",
    "pigments": "Materiales",
    "holy_books": "Escribas",
    "manuscripts": "Manuscritos",
    "forbidden_tomes": "Pergaminos",
}


def current_language() -> str:
    """The active language without a region ("fr" for "fr-ca"); English when none is active."""
    return (get_language() or "en").split("-")[0]


def category_label(category: str, edition: str = "biblios") -> str:
    """A category as printed on the cards of `edition` in the reader's language."""
    language = current_language()
    if edition == "scripts_and_scribes" and language == "es":
        return SCRIPTS_AND_SCRIBES_SPANISH[category]
    return cards.category_name(category, edition, language)


def church_label(edition: str = "biblios") -> str:
    """Biblios has Church cards; Scripts & Scribes calls the same cards Bishop cards."""
    if edition == "scripts_and_scribes":
        return pgettext("card kind", "Bishop")
    return pgettext("card kind", "Church")


def dice_board_label(edition: str = "biblios") -> str:
    """The board the five category dice sit on: Scriptorium, or Value Board in S&S."""
    if edition == "scripts_and_scribes":
        return gettext("Value Board")
    return gettext("Scriptorium")


def gold_label() -> str:
    return pgettext("card kind", "Gold")


def card_label(card_id: str, edition: str = "biblios") -> str:
    """A card's readable name: "Monks 2 (A)", "Gold 3", "Church: raise 2 dice by 1"."""
    card = cards.CARDS.get(card_id)
    if card is None:
        return gettext("unknown card")
    if card["kind"] == "gold":
        return gettext("%(gold)s %(value)s") % {"gold": gold_label(), "value": card["value"]}
    if card["kind"] == "church":
        deltas = cards.CHURCH_DELTAS[card_id]
        count = card["dice"]
        if deltas == (1,):
            effect = ngettext("raise %(count)s die by 1", "raise %(count)s dice by 1", count)
        elif deltas == (-1,):
            effect = ngettext("lower %(count)s die by 1", "lower %(count)s dice by 1", count)
        else:
            effect = ngettext(
                "raise or lower %(count)s die by 1", "raise or lower %(count)s dice by 1", count
            )
        return gettext("%(church)s: %(effect)s") % {
            "church": church_label(edition),
            "effect": effect % {"count": count},
        }
    return gettext("%(category)s %(value)s (%(letter)s)") % {
        "category": category_label(card["category"], edition),
        "value": card["value"],
        "letter": card["letter"],
    }


def dice_list(dice, edition: str) -> str:
    """Category names joined as a phrase: "Monks and Pigments"."""
    labels = [category_label(die, edition) for die in dice]
    if len(labels) < 2:
        return "".join(labels)
    return gettext("%(first)s and %(last)s") % {
        "first": ", ".join(labels[:-1]),
        "last": labels[-1],
    }
