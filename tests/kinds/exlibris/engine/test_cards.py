"""The Ex Libris tables copied into the project (X2 categories, X3 deck, X4 locations, X5
libraries) and the lookups `games.kinds.exlibris.engine.cards` builds from them.

Expected values come from the spec's tables, written out here; nothing is read from outside the
project (the spec's files live outside the repository, which the project never reads)."""

import json
from collections import Counter
from pathlib import Path

import pytest

from games.kinds.exlibris.engine import cards
from games.kinds.exlibris.engine.cards import CARDS, CATEGORIES, LIBRARIES, LOCATIONS, Card, key

PACKAGE_DIR = Path(cards.__file__).parent
DATA_DIR = PACKAGE_DIR / "data"


def raw(name: str) -> dict:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------ X2 categories


def test_x2_six_categories_in_the_scoring_form_order():
    assert CATEGORIES == (
        "corrupted_codices",
        "fantastical_fiction",
        "historic_volumes",
        "monster_manuals",
        "reference_texts",
        "spells_and_potions",
    )


def test_x2_category_names_english_and_french():
    assert cards.CATEGORY_NAMES["fantastical_fiction"] == {
        "en": "Fantastical Fiction",
        "fr": "Œuvres de Fiction",
    }
    assert cards.CATEGORY_NAMES["spells_and_potions"]["fr"] == "Potions & Sortilèges"
    assert all(row["source"] for row in raw("categories.json")["categories"])


def test_x2_the_deck_file_lists_the_same_categories_in_the_same_order():
    assert tuple(c["id"] for c in raw("ex-libris-deck.json")["categories"]) == CATEGORIES


# ------------------------------------------------------------------------------------ X3 deck


def test_x3_cards_are_named_tuples_built_from_every_deck_row():
    rows = raw("ex-libris-deck.json")["cards"]
    assert len(rows) == len(CARDS)
    for row in rows:
        card = CARDS[row["id"]]
        assert isinstance(card, Card)
        assert card == (
            row["id"],
            row["letter"],
            row["ordinal"],
            row["letter_count"],
            tuple(row["icons"]),
        )
        assert isinstance(card.books, tuple)


def test_x3_152_cards_510_books_85_per_category():
    assert len(CARDS) == 152
    assert sum(len(c.books) for c in CARDS.values()) == 510
    per_category = Counter(book for c in CARDS.values() for book in c.books)
    assert per_category == {category: 85 for category in CATEGORIES}


def test_x3_two_to_four_books_at_most_two_of_one_category():
    for card in CARDS.values():
        assert 2 <= len(card.books) <= 4, card
        assert max(Counter(card.books).values()) <= 2, card
        assert set(card.books) <= set(CATEGORIES), card


def test_x3_a_card_may_show_one_category_twice():
    """X3 (Inferred from the Gambling Den example): repeats exist in the deck."""
    assert any(len(set(c.books)) < len(c.books) for c in CARDS.values())


def test_x3_ids_and_ordinals_run_1_to_quantity_per_letter():
    by_letter: dict[str, list[int]] = {}
    for card_id, card in CARDS.items():
        assert card_id == f"{card.letter}-{card.ordinal}"
        by_letter.setdefault(card.letter, []).append(card.ordinal)
    for letter, ordinals in by_letter.items():
        quantities = {c.quantity for c in CARDS.values() if c.letter == letter}
        assert quantities == {len(ordinals)}, letter
        assert sorted(ordinals) == list(range(1, len(ordinals) + 1)), letter


def test_x3_printed_quantities():
    quantity = {c.letter: c.quantity for c in CARDS.values()}
    assert quantity["E"] == 7
    assert quantity["C"] == 9
    assert quantity["M"] == 8
    assert quantity["R"] == 6
    assert quantity["J"] == 3


def test_x5_letter_count_bookmark_matches_the_cards():
    assert Counter(c.letter for c in CARDS.values()) == cards.LETTER_COUNTS


def test_x3_e2_holds_the_anatomy_example_books():
    assert sorted(CARDS["E-2"].books) == sorted(
        ["historic_volumes", "fantastical_fiction", "spells_and_potions"]
    )


def test_x3_card_art_facts():
    """X3 (review G11): R-1, E-7 and F-1 hold 4 books; one of C-3..C-9 does; J-3, K-1 >= 3."""
    assert len(CARDS["R-1"].books) == 4
    assert len(CARDS["E-7"].books) == 4
    assert len(CARDS["F-1"].books) == 4
    assert any(len(CARDS[f"C-{n}"].books) == 4 for n in range(3, 10))
    assert len(CARDS["J-3"].books) >= 3
    assert len(CARDS["K-1"].books) >= 3


def test_x3_icons_are_listed_in_category_order():
    for card in CARDS.values():
        order = [CATEGORIES.index(book) for book in card.books]
        assert order == sorted(order), card


def test_x3_key_is_letter_then_ordinal_and_unique():
    assert key("E-2") == ("E", 2)
    assert key("M-8") > key("M-3")
    assert key("M-8") < key("P-1")
    # Ordinals compare as numbers, not strings: S-10 sorts after S-9 (12 S cards).
    assert key("S-9") < key("S-10")
    assert len({key(card_id) for card_id in CARDS}) == len(CARDS)
    assert list(cards.CARD_IDS) == sorted(CARDS, key=key)


def test_x3_key_of_an_unknown_card_fails():
    with pytest.raises(KeyError):
        key("Q-1")


# ------------------------------------------------------------------------------- X4 locations

# The X4 table: number, id, timing, setup (count, face), slots for 2 / 3 / 4 players, solo icon.
X4 = [
    (1, "hut", "instant", (0, None), (1, 1, 1), True),
    (2, "swap", "instant", (3, "up"), (1, 2, 2), True),
    (3, "auction", "delayed", (3, "up"), (4, 4, 4), False),
    (4, "bindery", "instant", (0, None), (1, 1, 1), True),
    (5, "community", "instant", (3, "up"), (1, 2, 2), False),
    (6, "well", "instant", (0, None), (1, 1, 2), True),
    (7, "den", "instant", (0, None), (2, 3, 4), False),
    (8, "lodge", "instant", (0, None), (1, 1, 1), False),
    (9, "collector", "instant", (1, "up"), (1, 2, 3), True),
    (10, "bookshop", "instant", (3, "up"), (2, 2, 2), True),
    (11, "dump", "delayed", (0, None), (1, 2, 2), True),
    (12, "tavern", "delayed", (0, None), (2, 3, 4), True),
    (13, "cabin", "instant", (4, "down"), (1, 1, 1), True),
    (14, "flea", "instant", (4, "up"), (2, 2, 3), False),
    (15, "guild", "instant", (0, None), (1, 1, 1), False),
    (16, "tax", "instant", (0, None), (1, 1, 1), False),
    (17, "yard_sale", "instant", (0, None), (1, 1, 1), False),
    (18, "shelfmasons", "instant", (0, None), (1, 1, 1), True),
]


def test_x4_eighteen_tiles_numbered_in_order():
    assert len(LOCATIONS) == 18
    assert [tile.number for tile in LOCATIONS.values()] == list(range(1, 19))
    assert [(row[0], row[1]) for row in X4] == [(t.number, t.id) for t in LOCATIONS.values()]
    assert all(cards.LOCATION_BY_NUMBER[t.number] == t.id for t in LOCATIONS.values())


@pytest.mark.parametrize("number, tile_id, timing, setup, slot_counts, solo", X4)
def test_x4_each_tile_row(number, tile_id, timing, setup, slot_counts, solo):
    tile = LOCATIONS[tile_id]
    assert tile.number == number
    assert tile.timing == timing
    assert (tile.setup_count, tile.setup_face) == setup
    assert tuple(len(tile.slots(players)) for players in (2, 3, 4)) == slot_counts
    assert tile.solo is solo
    assert tile.en and tile.fr and "*" not in tile.en + tile.fr


def test_x4_slots_are_numbered_ungated_first_and_gated_ones_open_with_more_players():
    for tile in LOCATIONS.values():
        assert list(tile.slot_gates) == sorted(tile.slot_gates), tile.id
        assert tile.slots(2) == tuple(range(1, len(tile.slots(2)) + 1))
        assert set(tile.slots(2)) <= set(tile.slots(3)) <= set(tile.slots(4))
        assert set(tile.slot_gates) <= {1, 3, 4}


def test_x4_gates_on_the_den_are_3_plus_and_4_plus():
    den = LOCATIONS["den"]
    assert den.slot_gates == (1, 1, 3, 4)
    assert den.slots(3) == (1, 2, 3)


def test_x37_auction_slots_are_four_ungated_bids():
    auction = LOCATIONS["auction"]
    assert auction.bids
    assert auction.slots(2) == (1, 2, 3, 4)
    assert not any(tile.bids for tile in LOCATIONS.values() if tile.id != "auction")


def test_x4_delayed_tiles_are_3_11_12():
    delayed = [t.number for t in LOCATIONS.values() if t.timing == "delayed"]
    assert delayed == [3, 11, 12]


def test_x4_ten_solo_tiles():
    """X82.1 takes the 10 solo tiles."""
    assert sum(tile.solo for tile in LOCATIONS.values()) == 10


def test_x4_every_row_names_its_source_and_flags_assumptions():
    rows = raw("locations.json")["locations"]
    assert all(row["source"].startswith("ex-libris-spec.md X4") for row in rows)
    by_id = {row["id"]: row for row in rows}
    assert "ASSUMPTION" in by_id["tavern"]["source"]  # its slot counts are assumed
    assert "setup count: printed" in by_id["collector"]["source"]
    assert "number: printed" in by_id["hut"]["source"]
    assert LOCATIONS["hut"].source == by_id["hut"]["source"]


# ------------------------------------------------------------------------------- X5 libraries

X5 = [
    (1, "goblin", "Caverns of Comprehension", "Gobelin sournois", False, True),
    (2, "automaton", "Clockwork Compendium", "Automate", True, False),
    (3, "mummy", "Pyramid of Prose", "Momie", True, False),
    (4, "cube", "Dungeon of Deep Thought", "Cube gélatineux", False, True),
    (5, "sasquatch", "Forest of Folios", "Sasquatch", False, False),
    (6, "bookworm", "Burrow of Books", "Ver bibliophage", True, False),
    (7, "ghost", "Haunted Athenaeum", "Fantôme", False, False),
    (8, "snowman", "Igloo of Information", "Bonhomme de neige", False, True),
    (9, "golem", "Scrapyard Scriptorium", "Golem de bric & de broc", True, False),
    (10, "wizard", "Tower of Tomes", "Magicien", True, False),
    (11, "witch", "Cauldron Cottage", "Sorcière", True, False),
    (12, "wisp", "Volcanic Biblioteca", "Feu follet", True, True),
]


def test_x5_twelve_libraries_in_number_order():
    assert len(LIBRARIES) == 12
    assert [(lib.number, lib.id) for lib in LIBRARIES.values()] == [(r[0], r[1]) for r in X5]


@pytest.mark.parametrize("number, lib_id, name, assistant_fr, solo, friendly_removed", X5)
def test_x5_each_library_row(number, lib_id, name, assistant_fr, solo, friendly_removed):
    library = LIBRARIES[lib_id]
    assert library.en == name
    assert library.assistant_fr == assistant_fr
    assert library.fr and library.assistant_en
    assert library.solo is solo
    assert library.friendly_removed is friendly_removed
    assert library.source.startswith("ex-libris-spec.md X5")


def test_x5_seven_solo_libraries_and_x79_four_friendly_removals():
    assert sum(lib.solo for lib in LIBRARIES.values()) == 7
    assert {lib.en for lib in LIBRARIES.values() if lib.friendly_removed} == {
        "Caverns of Comprehension",
        "Dungeon of Deep Thought",
        "Igloo of Information",
        "Volcanic Biblioteca",
    }


# ------------------------------------------------------- the project reads nothing outside itself


def test_the_engine_package_reads_nothing_outside_itself():
    """The tables are copies inside the package: no module names a path outside it."""
    for path in PACKAGE_DIR.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for outside in ("../", "..\\", "shared/rules", "/work/", ".parent.parent"):
            assert outside not in text, (path.name, outside)
    assert cards.DATA_DIR == DATA_DIR
    assert {p.name for p in DATA_DIR.iterdir()} >= {
        "ex-libris-deck.json",
        "categories.json",
        "locations.json",
        "libraries.json",
    }
