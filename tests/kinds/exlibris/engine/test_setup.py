"""The Ex Libris deal (X6–X11), its variants (X78 beginner, X79 friendly, X80 long) and the solo
setup (X82, X85): `games.kinds.exlibris.engine.setup.deal`."""

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.kinds.exlibris.engine.bookshelf import IllegalAction
from games.kinds.exlibris.engine.cards import CARDS, CATEGORIES, LIBRARIES, LOCATIONS
from games.kinds.exlibris.engine.setup import deal

ALL_TILES = set(LOCATIONS)
ALL_LIBRARIES = set(LIBRARIES)
BY_NUMBER = {tile.number: tile.id for tile in LOCATIONS.values()}

seeds = st.one_of(st.integers(min_value=-(2**63), max_value=2**63), st.text(max_size=20))
variant_sets = st.sets(st.sampled_from(["beginner", "friendly", "long"]))


def tiles(*numbers: int) -> set[str]:
    return {BY_NUMBER[n] for n in numbers}


def dealt_cards(table: dict) -> list[str]:
    return [card for seat in table["seat_setup"] for card in seat["hand"]] + table["deck"]


def check_multiplayer(table: dict, players: int, variants: set[str]) -> None:
    """Every multiplayer invariant of X6–X11 and X78–X80 on one deal."""
    beginner = "beginner" in variants
    removed_tiles = set()
    if beginner:
        removed_tiles |= tiles(3, 7, 8, 9, 15, 17)  # X78
    if "friendly" in variants:
        removed_tiles |= tiles(3, 7, 15, 16)  # X79
    removed_libraries = (
        {"goblin", "cube", "snowman", "wisp"} if "friendly" in variants else set()
    )  # X79

    # X6: seats clockwise, first player one of them, turn order clockwise from them.
    assert table["seats"] == list(range(players))
    first = table["first_player"]
    assert 0 <= first < players
    assert table["turn_order"] == [(first + i) % players for i in range(players)]
    assert [s["seat"] for s in table["seat_setup"]] == list(range(players))
    assert len({s["colour"] for s in table["seat_setup"]}) == players

    # X7: the Hut face up, not permanent; the other tiles, minus removals, face down.
    locations = table["locations"]
    assert locations["face_up"] == ["hut"]
    assert locations["permanent"] == [] and locations["discard"] == []
    assert set(locations["removed"]) == removed_tiles
    assert len(locations["deck"]) == len(set(locations["deck"]))
    assert set(locations["deck"]) == ALL_TILES - {"hut"} - removed_tiles

    # X8 / X78: the library pool and the draft order; or beginners' powerless backs.
    libraries = table["libraries"]
    assert set(libraries["removed"]) == removed_libraries
    if beginner:
        assert libraries["pool"] == [] and libraries["draft_order"] == []
        held = [s["library"]["id"] for s in table["seat_setup"]]
        assert all(s["library"]["side"] == "back" for s in table["seat_setup"])
    else:
        assert len(libraries["pool"]) == 2 * players
        assert libraries["draft_order"] == list(reversed(table["turn_order"]))
        assert libraries["draft_order"][-1] == first  # the first player picks from the last 2
        assert all(s["library"] is None for s in table["seat_setup"])
        held = libraries["pool"]
    everything = held + libraries["out"] + libraries["removed"]
    assert Counter(everything) == Counter(list(ALL_LIBRARIES))

    # X9 / X78: assistants.
    for seat in table["seat_setup"]:
        assert seat["standard_assistants"] == (3 if beginner else 2)
        assert seat["special_assistant"] is None  # comes with the drafted library (X8)

    # X10: Prominent, Banned, distinct foci, the leftovers out; all six used exactly once.
    foci = [s["focus"] for s in table["seat_setup"]]
    assert len(set(foci)) == players
    assert table["prominent"] not in foci and table["banned"] not in foci
    assert table["prominent"] != table["banned"]
    assert len(table["categories_out"]) == 6 - 2 - players
    every = [table["prominent"], table["banned"], *foci, *table["categories_out"]]
    assert Counter(every) == Counter(CATEGORIES)

    # X11: 6 cards each, the rest the deck; every card exactly once.
    assert all(len(s["hand"]) == 6 for s in table["seat_setup"])
    assert len(table["deck"]) == 152 - 6 * players
    assert Counter(dealt_cards(table)) == Counter(list(CARDS))
    assert table["discard"] == []
    assert all(s["bookshelf"] == {} for s in table["seat_setup"])

    # X67 / X80: the end trigger.
    normal = {2: 16, 3: 14, 4: 12}
    long = {2: 19, 3: 17, 4: 15}
    assert table["end_threshold"] == (long if "long" in variants else normal)[players]
    assert "solo" not in table


# ------------------------------------------------------------------------------- multiplayer


@pytest.mark.parametrize("players", [2, 3, 4])
def test_x6_to_x11_basic_deal(players):
    check_multiplayer(deal(players, seed=2017), players, set())


@settings(max_examples=150, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=seeds, variants=variant_sets)
def test_x6_to_x11_x78_to_x80_every_deal_keeps_the_invariants(players, seed, variants):
    check_multiplayer(deal(players, seed=seed, variant=variants), players, variants)


@settings(max_examples=50, deadline=None)
@given(players=st.sampled_from([1, 2, 3, 4]), seed=seeds, variants=variant_sets)
def test_x86_the_deal_is_determined_by_its_seed_and_json_able(players, seed, variants):
    if players == 1:
        variants = variants - {"beginner", "long"}
        kwargs = {"solo_difficulty": 4}
    else:
        kwargs = {}
    table = deal(players, seed=seed, variant=variants, **kwargs)
    again = deal(players, seed=seed, variant=tuple(sorted(variants)), **kwargs)
    assert table == again
    assert json.loads(json.dumps(table)) == table


def test_x6_the_seed_picks_the_first_player_and_the_shuffles_differ():
    tables = [deal(4, seed=s) for s in range(40)]
    assert {t["first_player"] for t in tables} == {0, 1, 2, 3}
    assert len({tuple(t["deck"]) for t in tables}) == 40
    assert len({tuple(t["locations"]["deck"]) for t in tables}) == 40
    assert len({tuple(t["libraries"]["pool"]) for t in tables}) > 1
    assert len({(t["prominent"], t["banned"]) for t in tables}) > 1


def test_x6_a_host_may_pick_the_first_player_and_nothing_else_changes():
    drawn = deal(3, seed="table")
    for seat in range(3):
        picked = deal(3, seed="table", first_player=seat)
        assert picked["first_player"] == seat
        assert picked["turn_order"] == [seat, (seat + 1) % 3, (seat + 2) % 3]
        assert picked["libraries"]["draft_order"] == list(reversed(picked["turn_order"]))
        assert picked["deck"] == drawn["deck"]
        assert picked["seat_setup"] == drawn["seat_setup"]


def test_x8_draft_runs_in_reverse_turn_order():
    table = deal(4, seed=5, first_player=2)
    assert table["turn_order"] == [2, 3, 0, 1]
    assert table["libraries"]["draft_order"] == [1, 0, 3, 2]


def test_x78_beginner_removes_six_tiles_and_plays_library_backs():
    table = deal(3, seed=9, variant={"beginner"})
    assert set(table["locations"]["removed"]) == {
        "auction",
        "den",
        "lodge",
        "collector",
        "guild",
        "yard_sale",
    }
    assert len(table["locations"]["deck"]) == 17 - 6
    assert [s["standard_assistants"] for s in table["seat_setup"]] == [3, 3, 3]
    assert table["libraries"]["pool"] == []
    assert all(s["library"]["side"] == "back" for s in table["seat_setup"])


def test_x79_friendly_removes_four_tiles_and_four_libraries():
    table = deal(4, seed=9, variant=("friendly",))
    assert set(table["locations"]["removed"]) == {"auction", "den", "guild", "tax"}
    assert len(table["locations"]["deck"]) == 17 - 4
    removed = {"goblin", "cube", "snowman", "wisp"}
    assert set(table["libraries"]["removed"]) == removed
    assert not removed & set(table["libraries"]["pool"] + table["libraries"]["out"])
    # 8 libraries remain: with 4 players all 8 are laid out.
    assert len(table["libraries"]["pool"]) == 8 and table["libraries"]["out"] == []


def test_x78_x79_combined_remove_the_union_of_tiles():
    table = deal(2, seed=1, variant=["beginner", "friendly"])
    assert {LOCATIONS[t].number for t in table["locations"]["removed"]} == {
        3,
        7,
        8,
        9,
        15,
        16,
        17,
    }


def test_x80_long_game_thresholds():
    assert [deal(n, seed=0, variant={"long"})["end_threshold"] for n in (2, 3, 4)] == [19, 17, 15]
    assert [deal(n, seed=0)["end_threshold"] for n in (2, 3, 4)] == [16, 14, 12]


# ---------------------------------------------------------------------------------------- solo


def check_solo(table: dict, variants: set[str], difficulty: int) -> None:
    """X82 (solo setup) and X85 (difficulty) on one deal."""
    solo_tiles = {t for t, tile in LOCATIONS.items() if tile.solo}
    locations = table["locations"]
    # X82.1: 10 solo tiles, 6 face up in the permanent row, 4 face down in the stack.
    assert len(locations["permanent"]) == 6 and len(locations["solo_stack"]) == 4
    assert locations["face_up"] == locations["permanent"]
    assert set(locations["permanent"]) | set(locations["solo_stack"]) == solo_tiles
    assert len(set(locations["permanent"] + locations["solo_stack"])) == 10
    assert set(locations["removed"]) == ALL_TILES - solo_tiles
    assert locations["deck"] == []
    # X82.2: 2 of the 7 solo libraries offered (friendly: without its removals); 3 standard.
    libraries = table["libraries"]
    offered = libraries["pool"]
    assert len(offered) == 2 == len(set(offered))
    assert all(LIBRARIES[lib].solo for lib in offered)
    assert libraries["draft_order"] == [0]
    if "friendly" in variants:
        assert set(libraries["removed"]) == {"goblin", "cube", "snowman", "wisp"}
        assert "wisp" not in offered
    assert Counter(offered + libraries["out"] + libraries["removed"]) == Counter(
        list(ALL_LIBRARIES)
    )
    (seat,) = table["seat_setup"]
    assert seat["standard_assistants"] == 3 and seat["special_assistant"] is None
    # X82.3: Prominent, Banned, the Public Library's focus, your focus, 2 hints: all six.
    solo = table["solo"]
    every = [
        table["prominent"],
        table["banned"],
        solo["public_library_focus"],
        seat["focus"],
        *solo["hints"],
    ]
    assert len(solo["hints"]) == 2
    assert Counter(every) == Counter(CATEGORIES)
    assert table["categories_out"] == []
    # X82.4: 6 cards, the rest the deck.
    assert len(seat["hand"]) == 6 and len(table["deck"]) == 146
    assert Counter(dealt_cards(table)) == Counter(list(CARDS))
    # X83, X85
    assert solo["rounds"] == 5
    assert solo["difficulty"] == solo["discard_per_preparation"] == difficulty
    assert table["end_threshold"] is None
    assert table["first_player"] == 0 and table["turn_order"] == [0]


@settings(max_examples=100, deadline=None)
@given(
    seed=seeds,
    friendly=st.booleans(),
    difficulty=st.integers(min_value=1, max_value=7),
)
def test_x82_x85_every_solo_deal_keeps_the_invariants(seed, friendly, difficulty):
    variants = {"friendly"} if friendly else set()
    table = deal(1, seed=seed, variant=variants, solo_difficulty=difficulty)
    check_solo(table, variants, difficulty)


def test_x82_solo_offers_vary_with_the_seed():
    tables = [deal(1, seed=s, solo_difficulty=1) for s in range(30)]
    assert len({tuple(t["libraries"]["pool"]) for t in tables}) > 1
    assert len({tuple(t["locations"]["permanent"]) for t in tables}) > 1
    offered = {lib for t in tables for lib in t["libraries"]["pool"]}
    assert offered == {lib for lib, row in LIBRARIES.items() if row.solo}


def test_x85_difficulty_names():
    names = [deal(1, seed=0, solo_difficulty=d)["solo"]["difficulty_name"] for d in (1, 4, 7)]
    assert names == [
        {"en": "Initiate", "fr": "Initié"},
        {"en": "Scholar", "fr": "Érudit"},
        {"en": "Demiurge", "fr": "Démiurge"},
    ]


# ----------------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    "args, kwargs, rule",
    [
        ((0,), {"seed": 1}, "X1"),
        ((5,), {"seed": 1}, "X1"),
        ((True,), {"seed": 1}, "X1"),
        ((2,), {"seed": 1.5}, "seed"),
        ((2,), {"seed": None}, "seed"),
        ((2,), {"seed": 1, "variant": "long"}, "X78-X80"),
        ((2,), {"seed": 1, "variant": {"hard"}}, "X78-X80"),
        ((2,), {"seed": 1, "solo_difficulty": 3}, "X85"),
        ((1,), {"seed": 1}, "X85"),
        ((1,), {"seed": 1, "solo_difficulty": 0}, "X85"),
        ((1,), {"seed": 1, "solo_difficulty": 8}, "X85"),
        ((1,), {"seed": 1, "solo_difficulty": True}, "X85"),
        ((1,), {"seed": 1, "solo_difficulty": 2, "variant": {"beginner"}}, "X82"),
        ((1,), {"seed": 1, "solo_difficulty": 2, "variant": {"long"}}, "X83"),
        ((3,), {"seed": 1, "first_player": 3}, "X6"),
        ((3,), {"seed": 1, "first_player": -1}, "X6"),
    ],
)
def test_refused_setups_name_the_rule(args, kwargs, rule):
    with pytest.raises(IllegalAction, match=rule):
        deal(*args, **kwargs)
