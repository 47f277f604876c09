"""Bookshelf rearrangements (spec X42, X52, X63, X90.4–6): the Shelfmasons' run moves, the
Wizard's push and the Librarians Lodge's swaps and re-shelving, as the step lists the engine
offers (X87) with their §0 bounds.

Worked cases are drawn with `layout` (tokens: "." empty, "ID" face up, "~ID" face down,
"ID/UNDER" a Mummy stack) and their expected lists worked out by hand from the spec's wording.
The Hypothesis properties compare every enumeration with a brute-force search written straight
from the rule's definition, over bookshelves built by legal shelvings (`shelves`).
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine import shelf_moves
from games.kinds.exlibris.engine.bookshelf import IllegalAction

from .test_bookshelf import layout, shelves

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
STEP = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def all_run_moves(shelf: dict) -> set:
    """Every (start, end, destination) the engine offers through the three X52 steps."""
    return {
        (start, end, dest)
        for start in shelf_moves.run_starts(shelf)
        for end in shelf_moves.run_ends(shelf, start)
        for dest in shelf_moves.run_destinations(shelf, start, end)
    }


# ------------------------------------------------------------------- X52, X90.4: Shelfmasons


def test_x90_4_the_spec_example_b_c_slides_one_right_onto_its_own_old_cell():
    """X90.4: "A B C _ : moving B C one right gives A _ B C" (cells empty once the run is
    lifted); a second row keeps the result in one piece."""
    shelf = layout("A B C .\nD E F G")
    assert (0, 2) in shelf_moves.run_destinations(shelf, (0, 1), (0, 2))
    assert shelf_moves.move_run(shelf, (0, 1), (0, 2), (0, 2)) == layout("A . B C\nD E F G")


def test_x13_x90_4_in_a_one_row_bookshelf_that_slide_would_split_it():
    """X52 asks for a valid result (X13): alone in its row, A _ B C is in two pieces."""
    shelf = layout("A B C")
    assert (0, 2) not in shelf_moves.run_destinations(shelf, (0, 1), (0, 2))
    with pytest.raises(IllegalAction, match="X52"):
        shelf_moves.move_run(shelf, (0, 1), (0, 2), (0, 2))
    # Moving B C to the left of A is a real rearrangement: B C A.
    assert shelf_moves.move_run(shelf, (0, 1), (0, 2), (0, -2)) == layout("B C A", left=-2)


def test_x52_x90_4_a_run_that_is_the_whole_bookshelf_is_never_offered():
    shelf = layout("A B C")
    assert shelf_moves.run_destinations(shelf, (0, 0), (0, 2)) == []
    assert shelf_moves.run_ends(shelf, (0, 0)) == [(0, 0), (0, 1)]
    with pytest.raises(IllegalAction, match="X52"):
        shelf_moves.move_run(shelf, (0, 0), (0, 2), (0, 1))
    assert (
        shelf_moves.run_starts(layout("A")) == []
    )  # one card: its only run is the whole bookshelf
    assert shelf_moves.run_starts(bs.empty()) == []
    # A whole row is not the whole bookshelf: the top row here may move (onto row 2, say).
    two_rows = layout("A B\nC D")
    assert (0, 1) in shelf_moves.run_ends(two_rows, (0, 0))
    assert shelf_moves.move_run(two_rows, (0, 0), (0, 1), (2, 0)) == layout("C D\nA B", top=1)


def test_x52_a_single_card_may_move_to_another_row_and_never_onto_its_own_cell():
    """A-24: any row. Moving C out of "A B C": next to what is left, anywhere but (0, 2)."""
    shelf = layout("A B C")
    assert shelf_moves.run_destinations(shelf, (0, 2), (0, 2)) == [
        (-1, 0),
        (-1, 1),
        (0, -1),
        (1, 0),
        (1, 1),
    ]
    assert shelf_moves.move_run(shelf, (0, 2), (0, 2), (1, 0)) == layout("A B\nC .")


def test_x52_x16_the_run_keeps_its_order_its_stacks_and_their_faces():
    shelf = layout("A/U ~B C\nD . .")
    moved = shelf_moves.move_run(shelf, (0, 0), (0, 1), (1, 1))
    assert moved == layout(". . C\nD A/U ~B")
    assert bs.entombed_count(moved) == 1 and bs.shelved_count(moved) == bs.shelved_count(shelf)


def test_x52_x13_a_run_must_reconnect_what_it_bridged_and_keep_three_rows():
    """X X Y Z bridges A and B: X alone or X Y can go round, the whole X Y Z only back where it
    was, so it is not offered (X87: only completable choices)."""
    shelf = layout("A . .\nX Y Z\n. . B")
    assert shelf_moves.run_ends(shelf, (1, 0)) == [(1, 0), (1, 1)]
    assert shelf_moves.run_destinations(shelf, (1, 0), (1, 2)) == []
    assert shelf_moves.run_destinations(shelf, (1, 0), (1, 1)) == [(0, 1)]
    assert shelf_moves.move_run(shelf, (1, 0), (1, 1), (0, 1)) == layout("A X Y\n. . Z\n. . B")
    # Three rows already: nothing lands on a fourth.
    assert all(dest[0] in (0, 1, 2) for dest in shelf_moves.run_destinations(shelf, (1, 0), (1, 0)))


def test_x16_x52_refusals_name_the_rule():
    shelf = layout("A . B\nC D E")
    with pytest.raises(IllegalAction, match="X16"):
        shelf_moves.run_destinations(shelf, (0, 0), (0, 2))  # a gap: not a run
    with pytest.raises(IllegalAction, match="X16"):
        shelf_moves.run_ends(shelf, (0, 1))  # no card to start from
    with pytest.raises(IllegalAction, match="X16"):
        shelf_moves.run_destinations(shelf, (1, 2), (1, 0))  # last cell left of the first
    with pytest.raises(IllegalAction, match="X16"):
        shelf_moves.move_run(shelf, (0, 0), (1, 0), (0, 1))  # two rows
    with pytest.raises(IllegalAction, match="X52"):
        shelf_moves.move_run(shelf, (1, 1), (1, 1), (1, 1))  # nowhere: it must change something
    assert json.dumps(shelf) == json.dumps(layout("A . B\nC D E"))  # input untouched


def test_x52_the_spec_bound_example_fits():
    """§0: 5(w + L + 1) = 65 for a 9-column bookshelf and a run of 3. Lifting D E F: row -1
    touching A..C or G..I (10 spots), row 0's gap is its own cell so only beyond A or I (2),
    the same beyond J or R (2), row 2 under J..R (11): 25."""
    shelf = layout("A B C D E F G H I\nJ K L M N O P Q R")
    found = shelf_moves.run_destinations(shelf, (0, 3), (0, 5))
    assert len(found) == 25 <= 5 * (9 + 3 + 1)
    assert [dest for dest in found if dest[0] in (0, 1)] == [(0, -3), (0, 9), (1, -3), (1, 9)]


# ------------------------------------------------------------------- X63: the Wizard's push


def test_x63_a_push_inserts_a_card_between_two_cards_of_a_row():
    shelf = layout("A B C")
    assert shelf_moves.push(shelf, "N", (0, 1), "right") == layout("A N B C")
    assert shelf_moves.push(shelf, "N", (0, 1), "left") == layout("A B N C", left=-1)
    assert shelf_moves.push(shelf, "N", (0, 2), "right") == layout("A B N C")  # the line is C alone


def test_x63_a_push_inserts_into_a_column_but_never_makes_a_fourth_row():
    column = layout("A\nB")
    assert shelf_moves.push(column, "N", (0, 0), "down") == layout("N\nA\nB")
    full = layout("A\nB\nC")
    # Up or down would move an end card onto a fourth row; sideways the line is one card.
    expected = {(cell, way) for cell in [(0, 0), (1, 0), (2, 0)] for way in ("left", "right")}
    assert set(shelf_moves.push_targets(full)) == expected
    with pytest.raises(IllegalAction, match="X63"):
        shelf_moves.push(full, "N", (1, 0), "down")


def test_x63_x16_stacks_move_whole_and_the_line_stops_at_the_first_gap():
    shelf = layout("A B/U ~C . D\n. . E F G")
    pushed = shelf_moves.push(shelf, "N", (0, 0), "right")
    assert pushed == layout("N A B/U ~C D\n. . E F G")
    assert bs.entombed_count(pushed) == 1


def test_x63_one_card_can_be_pushed_every_way_and_the_bound_is_4n():
    one = layout("A")
    assert sorted(shelf_moves.push_targets(one)) == sorted(((0, 0), way) for way in STEP)
    assert len(shelf_moves.push_targets(one)) == 4 * 1
    assert shelf_moves.push_targets(bs.empty()) == []
    assert shelf_moves.push(one, "N", (0, 0), "up") == layout("A\nN", top=-1)


def test_x63_push_refusals_name_the_rule():
    shelf = layout("A B")
    with pytest.raises(IllegalAction, match="X63"):
        shelf_moves.push(shelf, "N", (0, 2), "left")  # no card at the target
    with pytest.raises(IllegalAction, match="X63"):
        shelf_moves.push(shelf, "N", (0, 0), "sideways")
    with pytest.raises(IllegalAction, match="X3"):
        shelf_moves.push(shelf, "B", (0, 0), "left")
    assert shelf == layout("A B")


# ------------------------------------------------------------------- X42: the Lodge's swaps


def test_x42_swapping_two_top_cards_leaves_the_under_cards_entombed():
    shelf = layout("A/U B ~C")
    swapped = shelf_moves.swap_cells(shelf, (0, 0), (0, 2))
    assert swapped == layout("~C/U B A")  # each card keeps its face; U stays where it was
    assert shelf_moves.swap_partners(shelf, (0, 1)) == [(0, 0), (0, 2)]
    with pytest.raises(IllegalAction, match="X42"):
        shelf_moves.swap_cells(shelf, (0, 0), (0, 0))
    with pytest.raises(IllegalAction, match="X42"):
        shelf_moves.swap_cells(shelf, (0, 0), (1, 0))


def test_x42_a_hand_card_takes_the_cell_of_the_card_it_replaces():
    shelf = layout("A/U B")
    assert shelf_moves.swap_with_hand(shelf, (0, 0), "H") == (layout("H/U B"), "A")
    lone = layout("~D B")  # a formerly entombed card (X90.3) may be swapped out
    assert shelf_moves.swap_with_hand(lone, (0, 0), "H") == (layout("H B"), "D")
    with pytest.raises(IllegalAction, match="X42"):
        shelf_moves.swap_with_hand(shelf, (1, 1), "H")
    with pytest.raises(IllegalAction, match="X3"):
        shelf_moves.swap_with_hand(shelf, (0, 0), "B")


# ------------------------------------------------------------------- X42, X90.5: re-shelving


BRIDGE = "A X B\nC . D"  # X bridges {A, C} and {B, D}


def test_x42_x15_a_bridging_card_may_be_re_shelved_though_not_removed():
    """The issue's awkward case: X may not leave (X15) but may move, judged on the result."""
    shelf = layout(BRIDGE)
    with pytest.raises(IllegalAction, match="X15"):
        bs.remove(shelf, (0, 1))
    assert shelf_moves.reshelve_cells(shelf, (0, 1)) == [(1, 1)]
    assert shelf_moves.reshelve(shelf, (0, 1), (1, 1)) == layout("A . B\nC X D")
    assert (0, 1) in shelf_moves.reshelve_origins(shelf)


def test_x42_x63_x90_5_a_wizard_re_shelves_a_bridging_card_by_pushing_the_lifted_bookshelf():
    shelf = layout(BRIDGE)
    assert set(shelf_moves.reshelve_pushes(shelf, (0, 1))) == {
        ((0, 0), "right"),
        ((0, 2), "left"),
        ((1, 0), "right"),
        ((1, 2), "left"),
    }
    assert shelf_moves.reshelve_push(shelf, (0, 1), (0, 0), "right") == layout("X A B\nC . D")
    with pytest.raises(IllegalAction, match="X42"):
        shelf_moves.reshelve_push(shelf, (0, 1), (0, 0), "up")  # leaves {B, D} apart


def test_x42_x56_a_mummy_cannot_stack_a_bridging_card_since_stacking_adds_no_cell():
    shelf = layout(BRIDGE)
    assert shelf_moves.reshelve_stacking_cells(shelf, (0, 1)) == []
    # A and B bridge too (to C and D); C does not, so C may go onto any other single card.
    assert shelf_moves.reshelve_stacking_cells(shelf, (0, 0)) == []
    assert shelf_moves.reshelve_stacking_cells(shelf, (1, 0)) == [(0, 0), (0, 1), (0, 2), (1, 2)]
    assert shelf_moves.reshelve(shelf, (1, 0), (1, 2), "on") == layout("A X B\n. . C/D")


def test_x42_a_bridge_with_a_single_gap_moves_only_with_a_wizard():
    """A X B: the only cell joining A and B is X's own, so X has no plain destination (nor a
    Mummy's, the rest being in pieces), but a Wizard can push A or B into the gap."""
    shelf = layout("A X B")
    assert shelf_moves.reshelve_cells(shelf, (0, 1)) == []
    assert shelf_moves.reshelve_origins(shelf) == [(0, 0), (0, 2)]
    assert shelf_moves.reshelve_origins(shelf, "mummy") == [(0, 0), (0, 2)]
    assert shelf_moves.reshelve_origins(shelf, "wizard") == [(0, 0), (0, 1), (0, 2)]
    assert shelf_moves.reshelve_push(shelf, (0, 1), (0, 2), "left") == layout("A B X")


def test_x90_5_the_card_must_end_in_another_cell_than_its_origin():
    """Lifting a stack's top leaves the under card alone in the origin: no stacking back onto
    it (Mummy) and no push there (Wizard)."""
    shelf = layout("A/U B")
    assert shelf_moves.lift(shelf, (0, 0)) == (layout("~U B"), "A")
    assert shelf_moves.reshelve_stacking_cells(shelf, (0, 0)) == [(0, 1)]
    assert all(target != (0, 0) for target, _ in shelf_moves.reshelve_pushes(shelf, (0, 0)))
    assert shelf_moves.reshelve_cells(shelf, (0, 0)) == [
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 2),
        (1, 0),
        (1, 1),
    ]
    assert shelf_moves.reshelve(shelf, (0, 0), (1, 0)) == layout("~U B\nA .")
    with pytest.raises(IllegalAction, match="X42"):
        shelf_moves.reshelve(shelf, (0, 0), (0, 0), "on")
    with pytest.raises(IllegalAction, match="X42"):
        shelf_moves.reshelve(layout("A B"), (0, 0), (0, 0))


def test_x42_x90_5_one_card_in_all_offers_no_re_shelving_but_a_lone_stack_does():
    one = layout("A")
    for power in shelf_moves.POWERS:
        assert shelf_moves.reshelve_origins(one, power) == []
    assert shelf_moves.reshelve_cells(one, (0, 0)) == []
    assert shelf_moves.reshelve_pushes(one, (0, 0)) == []
    stack = layout("A/U")  # two cards in all
    assert shelf_moves.reshelve_origins(stack) == [(0, 0)]
    assert shelf_moves.reshelve_cells(stack, (0, 0)) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    assert shelf_moves.reshelve_stacking_cells(stack, (0, 0)) == []
    assert shelf_moves.reshelve_pushes(stack, (0, 0)) == []


def test_x42_x14_x90_3_re_shelving_is_a_shelving_the_card_comes_face_up():
    shelf = layout("~D B C")  # D: a formerly entombed card, alone and face down
    assert shelf_moves.reshelve(shelf, (0, 0), (0, 3)) == layout("B C D", left=1)
    assert shelf_moves.reshelve(shelf, (0, 0), (0, 2), "under") == layout(". B C/D")
    assert shelf_moves.reshelve_push(shelf, (0, 0), (0, 1), "right") == layout("D B C", left=1)


def test_x42_x53_re_shelving_refusals_name_the_rule():
    shelf = layout("A B")
    with pytest.raises(IllegalAction, match="X42"):
        shelf_moves.reshelve_cells(shelf, (1, 1))  # no card there
    with pytest.raises(IllegalAction, match="X42"):
        shelf_moves.reshelve(shelf, (0, 0), (0, 3))  # touches nothing
    with pytest.raises(IllegalAction, match="X56"):
        shelf_moves.reshelve(shelf, (0, 0), (0, 1), "beside")
    with pytest.raises(IllegalAction, match="X53"):
        shelf_moves.reshelve_origins(shelf, "witch")
    with pytest.raises(IllegalAction, match="X63"):
        shelf_moves.reshelve_push(shelf, (0, 0), (0, 1), "sideways")


# ------------------------------------------------------------------- brute force, properties


def brute_run_moves(shelf: dict) -> set:
    """X52 and X90.4 from their words: every run (X16), every landing row and first column in a
    box wider than any touching spot, cells empty once the run is lifted, a valid result (X13),
    something changed, and never the whole bookshelf."""
    taken = bs.occupied(shelf)
    rows = [r for r, _ in taken]
    cols = [c for _, c in taken]
    moves = set()
    for row, first in taken:
        last = first
        while (row, last) in taken:
            run = {(row, c) for c in range(first, last + 1)}
            rest = taken - run
            length = last - first + 1
            for to_row in range(min(rows) - 2, max(rows) + 3):
                for to_col in range(min(cols) - length - 2, max(cols) + 3):
                    landing = {(to_row, to_col + i) for i in range(length)}
                    if (
                        rest
                        and (to_row, to_col) != (row, first)
                        and not landing & rest
                        and bs.cells_valid(rest | landing)
                    ):
                        moves.add(((row, first), (row, last), (to_row, to_col)))
            last += 1
    return moves


def brute_push(stacks: dict, card: str, target, way: str) -> dict:
    """X63 from its words: the unbroken line from the target moves one cell that way."""
    d_row, d_col = STEP[way]
    line = [target]
    while (line[-1][0] + d_row, line[-1][1] + d_col) in stacks:
        line.append((line[-1][0] + d_row, line[-1][1] + d_col))
    moved = {cell: stack for cell, stack in stacks.items() if cell not in line}
    for row, col in line:
        moved[(row + d_row, col + d_col)] = stacks[(row, col)]
    moved[target] = {"top": card, "up": True, "under": None}
    return moved


def keyed(stacks: dict) -> dict:
    return {bs.cell_key(cell): stacks[cell] for cell in sorted(stacks)}


def cells_of(shelf: dict) -> dict:
    return {bs.parse_key(key): stack for key, stack in shelf.items()}


@PROPERTY
@given(shelves(max_cards=12))
def test_x52_x90_4_run_moves_match_a_brute_force_search_and_the_bounds(shelf):
    offered = all_run_moves(shelf)
    assert offered == brute_run_moves(shelf)
    n = len(bs.occupied(shelf))
    starts = shelf_moves.run_starts(shelf)
    assert len(starts) <= n and starts == sorted(starts)
    cols = [c for _, c in bs.occupied(shelf)]
    width = max(cols) - min(cols) + 1 if cols else 0
    for start in starts:
        ends = shelf_moves.run_ends(shelf, start)
        row_length = sum(1 for r, _ in bs.occupied(shelf) if r == start[0])
        assert 0 < len(ends) <= row_length
        for end in ends:
            found = shelf_moves.run_destinations(shelf, start, end)
            length = end[1] - start[1] + 1
            assert 0 < len(found) <= 5 * (width + length + 1)  # §0
            for dest in found:
                moved = shelf_moves.move_run(shelf, start, end, dest)
                bs.check(moved)
                assert sorted(bs.cards(moved)) == sorted(bs.cards(shelf))
                for i in range(length):  # order and stacks kept (X52, X16)
                    before = bs.stack_at(shelf, (start[0], start[1] + i))
                    assert bs.stack_at(moved, (dest[0], dest[1] + i)) == before


@PROPERTY
@given(shelves(max_cards=14))
def test_x63_pushes_match_a_brute_force_search_and_the_4n_bound(shelf):
    stacks = cells_of(shelf)
    brute = {
        (target, way)
        for target in stacks
        for way in STEP
        if bs.is_valid(keyed(brute_push(stacks, "NEW", target, way)))
    }
    offered = shelf_moves.push_targets(shelf)
    assert set(offered) == brute and len(offered) == len(brute)
    assert len(offered) <= 4 * len(stacks)
    for target, way in offered:
        pushed = shelf_moves.push(shelf, "NEW", target, way)
        assert pushed == keyed(brute_push(stacks, "NEW", target, way))
        bs.check(pushed)
        assert bs.stack_at(pushed, target) == {"top": "NEW", "up": True, "under": None}
        assert bs.occupied(shelf) < bs.occupied(pushed)  # every occupied cell stays occupied
        assert bs.shelved_count(pushed) == bs.shelved_count(shelf) + 1


@PROPERTY
@given(shelves(max_cards=12))
def test_x42_x90_5_x90_6_re_shelving_matches_a_brute_force_search_and_the_bounds(shelf):
    """X42 from its words, for each origin: plain cells, a Mummy's stacks, a Wizard's pushes;
    the final bookshelf valid, the card elsewhere than its origin; §0's 6n + 2 (X90.6)."""
    n = len(bs.occupied(shelf))
    origins = {power: [] for power in shelf_moves.POWERS}
    for origin in bs.reading_order(shelf):
        stacks = cells_of(shelf)
        old = stacks.pop(origin)
        card = old["top"]
        if old["under"] is not None:
            stacks[origin] = {"top": old["under"], "up": False, "under": None}
        rows = [r for r, _ in bs.occupied(shelf)]
        cols = [c for _, c in bs.occupied(shelf)]
        plain = {
            (r, c)
            for r in range(min(rows) - 2, max(rows) + 3)
            for c in range(min(cols) - 2, max(cols) + 3)
            if (r, c) not in stacks
            and (r, c) != origin
            and stacks
            and bs.cells_valid(set(stacks) | {(r, c)})
        }
        stacking = {
            cell
            for cell, stack in stacks.items()
            if stack["under"] is None and cell != origin and bs.cells_valid(set(stacks))
        }
        pushes = {
            (target, way)
            for target in stacks
            for way in STEP
            if target != origin and bs.is_valid(keyed(brute_push(stacks, card, target, way)))
        }
        assert set(shelf_moves.reshelve_cells(shelf, origin)) == plain
        assert set(shelf_moves.reshelve_stacking_cells(shelf, origin)) == stacking
        assert set(shelf_moves.reshelve_pushes(shelf, origin)) == pushes
        assert len(plain) <= 2 * n + 2 and 2 * len(stacking) <= 2 * n and len(pushes) <= 4 * n
        assert len(plain) + max(2 * len(stacking), len(pushes)) <= 6 * n + 2
        for power, extra in ((None, set()), ("mummy", stacking), ("wizard", pushes)):
            if plain or extra:
                origins[power].append(origin)
        for cell in plain:
            after = shelf_moves.reshelve(shelf, origin, cell)
            bs.check(after)
            assert bs.stack_at(after, cell) == {"top": card, "up": True, "under": None}
            assert sorted(bs.cards(after)) == sorted(bs.cards(shelf))
        for cell in stacking:
            for way in ("on", "under"):
                after = shelf_moves.reshelve(shelf, origin, cell, way)
                bs.check(after)
                assert card in (bs.stack_at(after, cell)["top"], bs.stack_at(after, cell)["under"])
        for target, way in pushes:
            after = shelf_moves.reshelve_push(shelf, origin, target, way)
            assert after == keyed(brute_push(stacks, card, target, way))
            bs.check(after)
    for power in shelf_moves.POWERS:
        assert shelf_moves.reshelve_origins(shelf, power) == origins[power]
        assert len(origins[power]) <= n


@PROPERTY
@given(shelves(max_cards=12), st.data())
def test_x42_swaps_change_no_cell_and_lose_no_card(shelf, data):
    if len(shelf) < 2:
        return
    first = data.draw(st.sampled_from(bs.reading_order(shelf)))
    second = data.draw(st.sampled_from(shelf_moves.swap_partners(shelf, first)))
    swapped = shelf_moves.swap_cells(shelf, first, second)
    bs.check(swapped)
    assert bs.occupied(swapped) == bs.occupied(shelf)
    assert sorted(bs.cards(swapped)) == sorted(bs.cards(shelf))
    assert bs.entombed_count(swapped) == bs.entombed_count(shelf)
    assert bs.stack_at(swapped, first)["top"] == bs.stack_at(shelf, second)["top"]
    assert bs.stack_at(swapped, first)["under"] == bs.stack_at(shelf, first)["under"]
    assert shelf_moves.swap_cells(swapped, first, second) == shelf
