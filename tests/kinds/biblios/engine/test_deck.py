"""The engine's deck table (spec §1): 87 cards with the spread the spec gives."""

from collections import Counter

from games.kinds.biblios.engine.cards import CARDS, CATEGORIES


def test_deck_has_87_cards_with_unique_ids():
    assert len(CARDS) == 87


def test_category_spread_matches_spec_section_1():
    """Monks and Pigments: four 2s, three 3s, two 4s; the other three: seven 1s, two 2s."""
    for category in CATEGORIES:
        values = Counter(c["value"] for c in CARDS.values() if c.get("category") == category)
        letters = sorted(c["letter"] for c in CARDS.values() if c.get("category") == category)
        assert letters == list("ABCDEFGHI")
        if category in ("monks", "pigments"):
            assert values == {2: 4, 3: 3, 4: 2}
        else:
            assert values == {1: 7, 2: 2}


def test_gold_and_church_cards_match_spec_section_1():
    gold = Counter(c["value"] for c in CARDS.values() if c["kind"] == "gold")
    assert gold == {1: 11, 2: 11, 3: 11}
    church = Counter(
        (c["dice"], tuple(c["directions"])) for c in CARDS.values() if c["kind"] == "church"
    )
    assert church == {
        (1, ("+1",)): 2,
        (1, ("-1",)): 2,
        (2, ("+1",)): 2,
        (2, ("-1",)): 2,
        (1, ("+1", "-1")): 1,
    }


def test_lower_values_take_earlier_letters():
    """Spec §1 assumption: 2s = A–D, 3s = E–G, 4s = H–I; 1s = A–G, 2s = H–I."""
    monks = {c["letter"]: c["value"] for c in CARDS.values() if c.get("category") == "monks"}
    assert [monks[letter] for letter in "ABCDEFGHI"] == [2, 2, 2, 2, 3, 3, 3, 4, 4]
    tomes = {
        c["letter"]: c["value"] for c in CARDS.values() if c.get("category") == "forbidden_tomes"
    }
    assert [tomes[letter] for letter in "ABCDEFGHI"] == [1, 1, 1, 1, 1, 1, 1, 2, 2]
