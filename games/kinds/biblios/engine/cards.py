"""The 87 Biblios cards, read once from the project's deck table (`data/biblios-deck.json`).

The table is the single source of card ids, values and letters (spec §1); everything here is a
lookup derived from it so that the rules code never parses the file or hard-codes a card.
"""

import json
from pathlib import Path

DECK_FILE = Path(__file__).with_name("data") / "biblios-deck.json"

with DECK_FILE.open(encoding="utf-8") as _deck_file:
    DECK = json.load(_deck_file)

CATEGORIES: tuple[str, ...] = tuple(c["id"] for c in DECK["categories_in_scriptorium_order"])
CATEGORY_INDEX = {category: i for i, category in enumerate(CATEGORIES)}

CARDS: dict[str, dict] = {card["id"]: card for card in DECK["cards"]}
CARD_IDS: tuple[str, ...] = tuple(CARDS)
DECK_ORDER = {card_id: i for i, card_id in enumerate(CARD_IDS)}

KIND = {card_id: card["kind"] for card_id, card in CARDS.items()}
VALUE = {card_id: card.get("value", 0) for card_id, card in CARDS.items()}
CATEGORY = {card_id: card.get("category") for card_id, card in CARDS.items()}
LETTER = {card_id: card.get("letter") for card_id, card in CARDS.items()}
CHURCH_DICE = {cid: card["dice"] for cid, card in CARDS.items() if card["kind"] == "church"}
CHURCH_DELTAS = {
    cid: tuple(int(d) for d in card["directions"])
    for cid, card in CARDS.items()
    if card["kind"] == "church"
}

GOLD_BY_VALUE = {
    value: tuple(cid for cid in CARD_IDS if KIND[cid] == "gold" and VALUE[cid] == value)
    for value in (1, 2, 3)
}


def letter_rank(letter: str | None) -> int:
    """Position of a tie-break letter, A = 0; no letter ranks after every letter (R19, R21)."""
    return ord(letter) - ord("A") if letter else 99


def category_name(category: str, edition: str = "biblios", language: str = "en") -> str:
    """The printed name of a category in an edition and language (spec §8)."""
    entry = DECK["categories_in_scriptorium_order"][CATEGORY_INDEX[category]]
    names = entry[edition]
    return names.get(language) or names["en"]
