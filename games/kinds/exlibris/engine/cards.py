"""The Ex Libris tables, read once from `data/`: deck (X3), categories (X2), locations (X4),
libraries (X5).

The JSON tables are the single source of card, tile and library facts; every row carries its
source so that a photo of the components can correct an assumption without touching code (spec
"ASSUMPTION" rule). The rules code only uses the lookups built here.
"""

import json
from pathlib import Path
from typing import NamedTuple

DATA_DIR = Path(__file__).with_name("data")


def _load(name: str) -> dict:
    with (DATA_DIR / name).open(encoding="utf-8") as table:
        return json.load(table)


DECK = _load("ex-libris-deck.json")


class Card(NamedTuple):
    """One book card (X3): letter, ordinal among that letter, the letter's quantity, and one
    category id per book icon (a category may repeat)."""

    id: str
    letter: str
    ordinal: int
    quantity: int
    books: tuple[str, ...]


CARDS: dict[str, Card] = {
    row["id"]: Card(
        id=row["id"],
        letter=row["letter"],
        ordinal=row["ordinal"],
        quantity=row["letter_count"],
        books=tuple(row["icons"]),
    )
    for row in DECK["cards"]
}


def key(card_id: str) -> tuple[str, int]:
    """A card's alphabetical key (letter, ordinal): the order of X3, used by A1 (X69)."""
    card = CARDS[card_id]
    return (card.letter, card.ordinal)


CARD_IDS: tuple[str, ...] = tuple(sorted(CARDS, key=key))

CATEGORY_TABLE = _load("categories.json")
CATEGORIES: tuple[str, ...] = tuple(row["id"] for row in CATEGORY_TABLE["categories"])
CATEGORY_INDEX = {category: i for i, category in enumerate(CATEGORIES)}
CATEGORY_NAMES: dict[str, dict[str, str]] = {
    row["id"]: {"en": row["en"], "fr": row["fr"]} for row in CATEGORY_TABLE["categories"]
}


class Location(NamedTuple):
    """One location tile (X4). `slot_gates` holds, per slot in number order, the least number of
    players that may use it (1: any); `setup_count` cards are dealt onto it, `setup_face` up or
    down (None when it takes none)."""

    id: str
    number: int
    en: str
    fr: str
    timing: str  # "instant" | "delayed"
    setup_count: int
    setup_face: str | None  # "up" | "down" | None
    slot_gates: tuple[int, ...]
    bids: bool  # the Auction House: slots are bids 1-4 (X37)
    solo: bool
    source: str

    def slots(self, players: int) -> tuple[int, ...]:
        """The slot numbers usable with `players` players (X4 gates; X21)."""
        return tuple(i + 1 for i, gate in enumerate(self.slot_gates) if gate <= players)


def _location(row: dict) -> Location:
    setup = row["setup"]
    return Location(
        id=row["id"],
        number=row["number"],
        en=row["en"],
        fr=row["fr"],
        timing=row["timing"],
        setup_count=setup["count"] if setup else 0,
        setup_face=setup["face"] if setup else None,
        slot_gates=tuple(slot["gate"] or 1 for slot in row["slots"]),
        bids=any("bid" in slot for slot in row["slots"]),
        solo=row["solo"],
        source=row["source"],
    )


LOCATION_TABLE = _load("locations.json")
LOCATIONS: dict[str, Location] = {
    location.id: location
    for location in sorted(map(_location, LOCATION_TABLE["locations"]), key=lambda t: t.number)
}
LOCATION_BY_NUMBER: dict[int, str] = {tile.number: tile.id for tile in LOCATIONS.values()}


class Library(NamedTuple):
    """One library tile (X5); its id is its special assistant's id."""

    id: str
    number: int
    en: str
    fr: str
    assistant_en: str
    assistant_fr: str
    solo: bool  # one of the 7 solo libraries (X82)
    friendly_removed: bool  # removed by the friendly variant (X79)
    source: str


LIBRARY_TABLE = _load("libraries.json")
LIBRARIES: dict[str, Library] = {
    library.id: library
    for library in sorted(
        (
            Library(
                id=row["id"],
                number=row["number"],
                en=row["en"],
                fr=row["fr"],
                assistant_en=row["assistant"]["en"],
                assistant_fr=row["assistant"]["fr"],
                solo=row["solo"],
                friendly_removed=row["friendly_removed"],
                source=row["source"],
            )
            for row in LIBRARY_TABLE["libraries"]
        ),
        key=lambda library: library.number,
    )
}

# The letter-count bookmark printed on every library (X5): how many cards carry each letter.
LETTER_COUNTS: dict[str, int] = dict(DECK["letter_counts"])
