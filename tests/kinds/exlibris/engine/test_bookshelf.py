"""The Ex Libris bookshelf (spec §3: X12–X17; the Mummy's stacks X56; X68 and X90.2–3).

Shelves are either built through legal shelvings (`shelve`) or laid out from a picture with
`layout`, then checked (`bookshelf.check`). The Hypothesis strategy `shelves` (random legal
shelvings, Mummy stacks and pre-flips) is shared with test_scoring.py.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine.bookshelf import IllegalAction
from games.kinds.exlibris.engine.cards import CARDS

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def layout(picture: str, top: int = 0, left: int = 0) -> dict:
    """A bookshelf drawn as rows of tokens: "." empty, "ID" face up, "~ID" face down,
    "ID/UNDER" a Mummy stack (top, then the entombed card). The first line is row `top`, the
    first token column `left`. Checked for X13 before it is returned."""
    stacks = {}
    for d_row, line in enumerate(picture.strip().splitlines()):
        for d_col, token in enumerate(line.split()):
            if token == ".":
                continue
            top_card, _, under = token.partition("/")
            stacks[bs.cell_key((top + d_row, left + d_col))] = {
                "top": top_card.lstrip("~"),
                "up": not top_card.startswith("~"),
                "under": under or None,
            }
    shelf = dict(sorted(stacks.items(), key=lambda item: bs.parse_key(item[0])))
    bs.check(shelf)
    return shelf


def by_shelving(*moves) -> dict:
    """A bookshelf built by legal shelvings: (card, cell) or (card, cell, "on" | "under")."""
    shelf = bs.empty()
    for move in moves:
        shelf = bs.shelve(shelf, *move)
    return shelf


# ------------------------------------------------------------------------- X12: the grid


def test_x12_the_first_card_goes_to_the_origin_and_only_there():
    assert bs.shelving_cells(bs.empty()) == [(0, 0)]
    assert bs.stack_at(by_shelving(("A-1", (0, 0))), (0, 0)) == {
        "top": "A-1",
        "up": True,
        "under": None,
    }
    with pytest.raises(IllegalAction, match="X14"):
        bs.shelve(bs.empty(), "A-1", (1, 0))


def test_x12_coordinates_go_negative_and_are_never_renumbered():
    shelf = by_shelving(("A-1", (0, 0)), ("B-1", (0, -1)), ("C-1", (-1, -1)), ("D-1", (0, -2)))
    assert bs.occupied(shelf) == {(0, 0), (0, -1), (-1, -1), (0, -2)}
    assert bs.stack_at(shelf, (0, 0))["top"] == "A-1"  # the first card never moved
    assert bs.stack_at(shelf, (-1, -1))["top"] == "C-1"


def test_x12_a_bookshelf_is_json_and_survives_a_round_trip_unchanged():
    shelf = by_shelving(("A-1", (0, 0)), ("B-1", (-1, 0)), ("C-1", (0, 1)), ("D-1", (0, 1), "on"))
    text = json.dumps(shelf)
    assert json.loads(text) == shelf
    assert list(json.loads(text)) == ["-1,0", "0,0", "0,1"]  # keys in reading order (X17)


def test_x12_operations_leave_their_input_unchanged():
    shelf = by_shelving(("A-1", (0, 0)), ("B-1", (0, 1)))
    before = json.dumps(shelf)
    bs.shelve(shelf, "C-1", (0, 2))
    bs.shelve(shelf, "C-1", (0, 1), "on")
    bs.remove(shelf, (0, 1))
    bs.flip_down(shelf, (0, 0))
    assert json.dumps(shelf) == before


@pytest.mark.parametrize("cell", [(0,), (0, 0, 0), ("0", "0"), (0.0, 1), (True, 0), "0,0", None])
def test_x12_a_cell_is_a_pair_of_integers(cell):
    with pytest.raises(IllegalAction, match="X12"):
        bs.shelve(bs.empty(), "A-1", cell)


def test_x12_a_cell_given_as_a_json_list_is_accepted():
    shelf = bs.shelve(bs.empty(), "A-1", [0, 0])
    assert bs.shelve(shelf, "B-1", [0, 1]) == by_shelving(("A-1", (0, 0)), ("B-1", (0, 1)))


def test_x3_x12_check_refuses_a_card_twice_and_malformed_stacks():
    with pytest.raises(IllegalAction, match="X3"):
        bs.check({"0,0": {"top": "A-1", "up": True, "under": "A-1"}})
    with pytest.raises(IllegalAction, match="X12"):
        bs.check({"0,0": {"top": "A-1", "up": True}})
    with pytest.raises(IllegalAction, match="X12"):
        bs.check({"zero": {"top": "A-1", "up": True, "under": None}})
    with pytest.raises(IllegalAction, match="X3"):
        bs.shelve(by_shelving(("A-1", (0, 0))), "A-1", (0, 1))


# ------------------------------------------------------------------------- X13: validity


def test_x13_the_empty_bookshelf_is_valid():
    assert bs.is_valid(bs.empty())


def test_x13_diagonal_contact_connects_nothing():
    assert not bs.cells_valid({(0, 0), (1, 1)})
    assert bs.cells_valid({(0, 0), (1, 1), (0, 1)})
    with pytest.raises(IllegalAction, match="X13"):
        layout("A-1 .\n. B-1")


def test_x13_three_rows_at_most():
    assert bs.is_valid(layout("A-1\nB-1\nC-1"))
    assert not bs.cells_valid({(0, 0), (1, 0), (2, 0), (3, 0)})
    with pytest.raises(IllegalAction, match="X13"):
        layout("A-1\nB-1\nC-1\nD-1", top=-1)


def test_x13_sideways_growth_is_unlimited():
    shelf = bs.empty()
    for col in range(30):
        shelf = bs.shelve(shelf, f"A-{col + 1}", (0, col))
    assert bs.is_valid(shelf) and bs.shelved_count(shelf) == 30


# ------------------------------------------------------------------------- X14: shelving


def test_x14_shelving_cells_are_the_orthogonal_empty_neighbours():
    shelf = by_shelving(("A-1", (0, 0)), ("B-1", (0, 1)))
    assert bs.shelving_cells(shelf) == [(-1, 0), (-1, 1), (0, -1), (0, 2), (1, 0), (1, 1)]


def test_x14_no_shelving_cell_would_make_a_fourth_row():
    """The rulebook's figure: a space beyond the three rows is red (not allowed)."""
    shelf = layout("A-1 B-1\n. C-1\n. D-1")  # rows 0..2
    cells = bs.shelving_cells(shelf)
    assert all(0 <= row <= 2 for row, _ in cells)
    assert (-1, 0) not in cells and (3, 1) not in cells
    assert (1, 0) in cells and (2, 0) in cells and (1, 2) in cells
    with pytest.raises(IllegalAction, match="X14"):
        bs.shelve(shelf, "E-1", (3, 1))


def test_x14_a_two_row_bookshelf_may_grow_up_or_down():
    shelf = by_shelving(("A-1", (0, 0)), ("B-1", (1, 0)))
    cells = bs.shelving_cells(shelf)
    assert (-1, 0) in cells and (2, 0) in cells
    taller = bs.shelve(shelf, "C-1", (-1, 0))
    assert (2, 0) not in bs.shelving_cells(taller)  # now three rows: only sideways


def test_x14_a_shelved_card_is_face_up_and_only_into_a_listed_cell():
    shelf = by_shelving(("A-1", (0, 0)))
    for cell in [(0, 0), (1, 1), (0, 2)]:  # occupied, diagonal, not adjacent
        with pytest.raises(IllegalAction, match="X14"):
            bs.shelve(shelf, "B-1", cell)
    assert bs.stack_at(bs.shelve(shelf, "B-1", (1, 0)), (1, 0))["up"] is True


# ------------------------------------------------------------------------- X15: removal


def test_x15_a_bridging_card_may_not_leave_but_an_end_card_may():
    shelf = layout("A-1 B-1 C-1")
    assert bs.removable_cells(shelf) == [(0, 0), (0, 2)]
    with pytest.raises(IllegalAction, match="X15"):
        bs.remove(shelf, (0, 1))
    rest, card = bs.remove(shelf, (0, 2))
    assert card == "C-1" and rest == layout("A-1 B-1")


def test_x15_every_card_of_a_loop_may_leave():
    shelf = layout("A-1 B-1\nC-1 D-1")
    assert bs.removable_cells(shelf) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_x15_removing_the_last_card_empties_the_bookshelf():
    assert bs.remove(layout("A-1"), (0, 0)) == ({}, "A-1")


def test_x15_no_card_no_removal():
    with pytest.raises(IllegalAction, match="X15"):
        bs.remove(layout("A-1"), (0, 1))


def test_x15_x56_the_top_of_a_stack_leaves_even_on_a_bridge_and_the_under_card_stays():
    shelf = layout("A-1 B-1/B-2 C-1")
    assert (0, 1) in bs.removable_cells(shelf)
    rest, card = bs.remove(shelf, (0, 1))
    assert card == "B-1"  # only a top card is ever chosen
    assert bs.stack_at(rest, (0, 1)) == {"top": "B-2", "up": False, "under": None}
    assert bs.entombed_count(shelf) == 1 and bs.entombed_count(rest) == 0  # no longer entombed
    assert bs.occupied(rest) == bs.occupied(shelf)  # the cell stays occupied, still connected


def test_x90_3_a_formerly_entombed_card_is_a_top_card_again():
    """X90.3: face down, yet a top card for the Mummy, removal and pre-flip checks."""
    rest, _ = bs.remove(layout("A-1/A-2 B-1"), (0, 0))
    assert (0, 0) in bs.stacking_cells(rest)
    assert (0, 0) in bs.removable_cells(rest)
    with pytest.raises(IllegalAction, match="X90"):
        bs.flip_down(rest, (0, 0))  # already face down
    restacked = bs.shelve(rest, "C-1", (0, 0), "on")
    assert bs.stack_at(restacked, (0, 0)) == {"top": "C-1", "up": True, "under": "A-2"}
    assert bs.remove(rest, (0, 0)) == (layout("B-1", left=1), "A-2")


# ------------------------------------------------------------------------- X16, X17


def test_x16_runs_are_the_maximal_stretches_of_a_row():
    shelf = layout("A-1 B-1 . C-1 . .\nD-1 E-1 E-2 E-3 E-4 E-5", left=-2)
    assert bs.runs(shelf, 0) == [(-2, -1), (1, 1)]
    assert bs.runs(shelf, 1) == [(-2, 3)]
    assert bs.runs(shelf, 2) == []


def test_x17_reading_order_is_top_row_first_then_left_to_right():
    shelf = by_shelving(("A-1", (0, 0)), ("B-1", (0, -1)), ("C-1", (1, 0)), ("D-1", (-1, 0)))
    assert bs.reading_order(shelf) == [(-1, 0), (0, -1), (0, 0), (1, 0)]
    assert bs.bottom_row(shelf) == 1
    assert bs.bottom_row(bs.empty()) is None


def test_x17_shelved_count_counts_a_two_stack_twice_and_face_down_cards_too():
    shelf = layout("A-1/A-2 ~B-1 C-1")
    assert bs.shelved_count(shelf) == 4
    assert bs.cards(shelf) == ["A-1", "A-2", "B-1", "C-1"]


# ------------------------------------------------------------------------- X56: the Mummy


def test_x56_on_top_the_old_card_goes_under_face_down():
    shelf = by_shelving(("A-1", (0, 0)), ("B-1", (0, 0), "on"))
    assert bs.stack_at(shelf, (0, 0)) == {"top": "B-1", "up": True, "under": "A-1"}
    assert bs.entombed_count(shelf) == 1 and bs.shelved_count(shelf) == 2


def test_x56_underneath_the_new_card_goes_under_and_the_top_keeps_its_face():
    shelf = bs.shelve(layout("~A-1 B-1"), "C-1", (0, 0), "under")
    assert bs.stack_at(shelf, (0, 0)) == {"top": "A-1", "up": False, "under": "C-1"}
    shelf = bs.shelve(shelf, "D-1", (0, 1), "under")
    assert bs.stack_at(shelf, (0, 1)) == {"top": "B-1", "up": True, "under": "D-1"}


def test_x56_stacking_needs_a_single_card_and_adds_no_cell():
    shelf = layout("A-1/A-2 B-1")
    assert bs.stacking_cells(shelf) == [(0, 1)]
    for stack in ("on", "under"):
        with pytest.raises(IllegalAction, match="X56"):
            bs.shelve(shelf, "C-1", (0, 0), stack)  # never more than 2 cards
        with pytest.raises(IllegalAction, match="X56"):
            bs.shelve(shelf, "C-1", (0, 2), stack)  # an empty cell is not a stack
    assert bs.occupied(bs.shelve(shelf, "C-1", (0, 1), "on")) == bs.occupied(shelf)
    with pytest.raises(IllegalAction, match="X56"):
        bs.shelve(shelf, "C-1", (0, 1), "beside")


# ------------------------------------------------------------------------- X68, X90.2


def test_x68_x90_2_a_pre_flip_turns_a_stack_top_down_and_the_under_card_stays_entombed():
    shelf = bs.flip_down(layout("A-1/A-2 B-1"), (0, 0))
    assert bs.stack_at(shelf, (0, 0)) == {"top": "A-1", "up": False, "under": "A-2"}
    assert bs.entombed_count(shelf) == 1
    with pytest.raises(IllegalAction, match="X90"):
        bs.flip_down(shelf, (0, 0))
    with pytest.raises(IllegalAction, match="X68"):
        bs.flip_down(shelf, (5, 5))


# ------------------------------------------------------------------------- properties

REAL_CARDS = sorted(CARDS)


@st.composite
def shelves(draw, max_cards: int = 30, pool=None) -> dict:
    """A random bookshelf reached by legal steps only: shelvings into a listed cell, Mummy
    stacks (X56) and pre-flips (X68), with real deck cards (from `pool` if given)."""
    deck = draw(st.permutations(sorted(pool or REAL_CARDS)))
    shelf = bs.empty()
    for card in deck[: draw(st.integers(0, max_cards))]:
        stackable = bs.stacking_cells(shelf)
        if stackable and draw(st.integers(0, 5)) == 0:
            cell = draw(st.sampled_from(stackable))
            shelf = bs.shelve(shelf, card, cell, draw(st.sampled_from(["on", "under"])))
        else:
            shelf = bs.shelve(shelf, card, draw(st.sampled_from(bs.shelving_cells(shelf))))
    for cell in bs.reading_order(shelf):
        if bs.stack_at(shelf, cell)["up"] and draw(st.integers(0, 6)) == 0:
            shelf = bs.flip_down(shelf, cell)
    return shelf


def brute_force_shelving_cells(shelf: dict) -> set:
    """X14 straight from X13: every empty cell whose addition leaves a valid bookshelf."""
    taken = bs.occupied(shelf)
    if not taken:
        return {(0, 0)}
    rows = [r for r, _ in taken]
    cols = [c for _, c in taken]
    return {
        (r, c)
        for r in range(min(rows) - 3, max(rows) + 4)
        for c in range(min(cols) - 3, max(cols) + 4)
        if (r, c) not in taken and bs.cells_valid(taken | {(r, c)})
    }


@PROPERTY
@given(shelves())
def test_x13_x14_legal_shelvings_always_give_a_valid_bookshelf(shelf):
    bs.check(shelf)
    assert bs.is_valid(shelf)
    assert set(bs.shelving_cells(shelf)) == brute_force_shelving_cells(shelf)
    assert json.loads(json.dumps(shelf)) == shelf


@PROPERTY
@given(shelves(), st.data())
def test_x15_removal_sequences_keep_the_bookshelf_connected(shelf, data):
    """X15: some card may always leave a non-empty bookshelf; a single card may leave exactly
    when the rest stays connected; removing every card one by one is always possible."""
    count = bs.shelved_count(shelf)
    while shelf:
        removable = bs.removable_cells(shelf)
        assert removable
        taken = bs.occupied(shelf)
        for cell in bs.reading_order(shelf):
            single = bs.stack_at(shelf, cell)["under"] is None
            assert (cell in removable) == (not single or bs.cells_valid(taken - {cell}))
        cell = data.draw(st.sampled_from(removable))
        under = bs.stack_at(shelf, cell)["under"]
        shelf, card = bs.remove(shelf, cell)
        assert card not in bs.cards(shelf)
        bs.check(shelf)
        count -= 1
        assert bs.shelved_count(shelf) == count
        if under is not None:
            assert bs.stack_at(shelf, cell) == {"top": under, "up": False, "under": None}
    assert count == 0
