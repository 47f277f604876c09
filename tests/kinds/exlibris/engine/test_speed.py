"""What the engine's speed-ups must keep: a move copies on write, sharing with the
state before it every seat and tile record it leaves alone, so no later move may change an
earlier state (X86) and replaying a game from its setup gives the very same states; the
`legal_actions` list a state keeps for `apply_action`'s check is seen by nothing else and lets
nothing unlisted through; the quick bookshelf checks (one cell at a time, the one-pass cut cells,
the run destinations by pieces) agree with the plain definitions; actions are read as their JSON
round trip."""

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games.kinds.exlibris import engine as E
from games.kinds.exlibris.engine import IllegalAction, shelf_moves
from games.kinds.exlibris.engine import bookshelf as bs

TABLES = [
    (1, "standard", {"difficulty": 3}),
    (2, "friendly+long", None),
    (3, "beginner", {"owner_wide_powers": True}),
    (4, "standard", {"owner_wide_powers": True}),
]

# The containers every move's state gets new (`_next_state`): the move changes them in place.
RENEWED = ("events", "pending", "deck", "discard", "tiles", "seats")


def playout(players, variant, options, seed):
    """(state, seat, action, next state) for every move of a uniform random game."""
    state = E.new_game(players, seed=seed, variant=variant, options=options)
    rng = random.Random(seed)
    while seats := E.to_act(state):
        seat = rng.choice(seats)
        action = rng.choice(E.legal_actions(state, seat))
        new = E.apply_action(state, seat, action)
        yield state, seat, action, new
        state = new


@pytest.mark.parametrize(
    "table,seed", [(TABLES[0], 2), (TABLES[1], 4), (TABLES[2], 5), (TABLES[3], 7)]
)
def test_x86_a_move_copies_only_the_seats_it_changes_and_never_alters_an_earlier_state(table, seed):
    """X86: `apply_action` returns a new state and leaves every earlier one as it was, even
    several moves later; a seat record the move leaves equal is the earlier state's own object
    (copy on write), one it changes is a new one."""
    history = []
    for state, _, _, new in playout(*table, seed):
        for key in RENEWED:
            assert new[key] is not state[key], key
        for old_record, record in zip(state["seats"], new["seats"], strict=True):
            assert (record is old_record) == (record == old_record), record["seat"]
        history.append((state, E.dumps(state)))
    assert len(history) > 50
    for old, text in history:
        assert E.dumps(old) == text


def test_x86_a_placement_at_home_copies_the_placer_alone():
    """X86, X22: placing on a home space changes one seat: the other seats, every tile and the
    locations and libraries are the earlier state's own objects, and that state is unchanged."""
    state = E.new_game(4, seed=7, variant="beginner")  # X78: no draft, round 1's placements
    seat = E.to_act(state)[0]
    text = E.dumps(state)
    home = {"type": "place", "assistant": "standard", "target": "library"}
    assert home in E.legal_actions(state, seat)
    new = E.apply_action(state, seat, home)
    assert new["pending"][-1]["kind"] == "home"
    for other, record in enumerate(new["seats"]):
        assert (record is state["seats"][other]) == (other != seat)
    assert new["seats"][seat]["home"] == ["standard-1"]
    assert all(record is state["tiles"][tile] for tile, record in new["tiles"].items())
    assert new["locations"] is state["locations"] and new["libraries"] is state["libraries"]
    assert E.dumps(state) == text


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),  # no costly "explain"
)
@given(table=st.sampled_from(TABLES), seed=st.integers(min_value=0, max_value=2**32))
def test_x86_replaying_a_game_from_its_setup_gives_the_same_states(table, seed):
    """X86: the moves of a random game, replayed from its setup through states that keep no
    list (`steps`), give states equal to the game's, with the same JSON."""
    moves, states = [], []
    for _, seat, action, new in playout(*table, seed):
        moves.append((seat, action))
        states.append(new)
    replayed = list(E.steps(E.setup_of(states[-1]), moves))[1:]  # after the deal
    assert replayed == states
    assert [E.dumps(s) for s in replayed] == [E.dumps(s) for s in states]


def test_x86_the_list_a_state_keeps_is_seen_by_nothing_else_and_lets_nothing_unlisted_through():
    """X86: `legal_actions` keeps its list in the state for `apply_action`'s check; the JSON,
    equality, views and events are the same with or without it, the caller's list is its own,
    and an action it does not hold is still checked in full."""
    state = E.new_game(3, seed=5, variant="beginner")
    seat = E.to_act(state)[0]
    fresh = E.loads(E.dumps(state))  # keeps no list

    def seen(s):
        return E.dumps(s), E.view(s, seat), E.view(s, None), E.events_for(s, seat)

    before = seen(state)
    legal = E.legal_actions(state, seat)
    assert seen(state) == before and state == fresh and E.loads(E.dumps(state)) == state
    legal.append({"type": "place", "assistant": "standard", "target": "nowhere"})
    with pytest.raises(IllegalAction, match="not a legal place action"):
        E.apply_action(state, seat, legal[-1])
    with pytest.raises(IllegalAction, match="X86"):
        E.apply_action(state, (seat + 1) % 3, legal[0])
    listed = E.legal_actions(fresh, seat)
    for action in listed[:3] + listed[-2:]:
        assert E.apply_action(state, seat, action) == E.apply_action(fresh, seat, dict(action))


def brute_removable(shelf: dict) -> list:
    """X15 cell by cell: a 2-stack, or a card whose cell's removal leaves the rest in one piece."""
    taken = bs.occupied(shelf)

    def in_one_piece(cells):
        if not cells:
            return True
        start = next(iter(cells))
        seen, todo = {start}, [start]
        while todo:
            row, col = todo.pop()
            for nxt in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1)):
                if nxt in cells and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen == cells

    return [
        cell
        for cell in sorted(taken)
        if bs.stack_at(shelf, cell)["under"] is not None or in_one_piece(taken - {cell})
    ]


def random_bookshelf(rng: random.Random, size: int = 25) -> dict:
    """A random bookshelf: rings, trees, 2-stacks, and now and then one in pieces."""
    cells = {(0, 0)}
    for _ in range(rng.randrange(size)):
        row, col = rng.choice(sorted(cells))
        d_row, d_col = rng.choice(bs.NEIGHBOURS)
        if abs(row + d_row) <= 1:
            cells.add((row + d_row, col + d_col))
    if rng.random() < 0.1:
        cells.add((rng.randrange(-1, 2), rng.randrange(-12, 12)))
    return {
        bs.cell_key(cell): {
            "top": f"T-{i}",
            "up": True,
            "under": f"U-{i}" if rng.random() < 0.2 else None,
        }
        for i, cell in enumerate(sorted(cells))
    }


def test_x15_removable_cells_in_one_pass_are_those_of_the_cell_by_cell_test():
    """X15: random bookshelves (rings, trees, 2-stacks, and a few in pieces): the cut cells of
    one depth-first search give the same removable cells as testing each cell."""
    rng = random.Random(15)
    for _ in range(3000):
        shelf = random_bookshelf(rng)
        assert bs.removable_cells(shelf) == brute_removable(shelf)


def accepts(move, *args) -> bool:
    """Whether the bookshelf function `move` accepts `args` (IllegalAction: no)."""
    try:
        move(*args)
    except IllegalAction:
        return False
    return True


def brute_destinations(shelf: dict, start, end) -> list:
    """X52 by its words: every (row, first column) near the rest where the lifted run lands on
    empty cells, leaves a valid bookshelf (X13) and changes something."""
    cells = [(start[0], col) for col in range(start[1], end[1] + 1)]
    rest = bs.occupied(shelf) - set(cells)
    if not rest:
        return []
    found = []
    for row in range(min(r for r, _ in rest) - 1, max(r for r, _ in rest) + 2):
        for first in range(min(c for _, c in rest) - len(cells), max(c for _, c in rest) + 2):
            landing = {(row, first + i) for i in range(len(cells))}
            if (row, first) != cells[0] and not landing & rest and bs.cells_valid(rest | landing):
                found.append((row, first))
    return found


def brute_reshelve_cells(shelf: dict, origin) -> list:
    """X42 by its words: the empty cells next to the lifted bookshelf, not the origin, that
    leave it valid (X13)."""
    taken = bs.occupied(shelf_moves.lift(shelf, origin)[0])
    return sorted(
        {
            (row + d_row, col + d_col)
            for row, col in taken
            for d_row, d_col in bs.NEIGHBOURS
            if (row + d_row, col + d_col) not in taken | {origin}
            and bs.cells_valid(taken | {(row + d_row, col + d_col)})
        }
    )


def test_x14_x15_x42_x52_x63_each_move_checked_alone_is_one_its_list_offers():
    """X14, X15, X63: `shelve`, `remove` and `push`, which check the one cell they are given,
    accept exactly the cells `shelving_cells`, `removable_cells` and `push_targets` list; X52,
    X42: the run destinations and the re-shelving cells found by the pieces of what stays are
    those of the plain search."""
    rng = random.Random(52)
    for _ in range(400):
        shelf = random_bookshelf(rng, size=14)
        taken = bs.occupied(shelf)
        rows = [row for row, _ in taken]
        cols = [col for _, col in taken]
        window = [
            (row, col)
            for row in range(min(rows) - 2, max(rows) + 3)
            for col in range(min(cols) - 2, max(cols) + 3)
        ]
        shelving, removable = set(bs.shelving_cells(shelf)), set(bs.removable_cells(shelf))
        pushes = set(shelf_moves.push_targets(shelf))
        for cell in window:
            assert accepts(bs.shelve, shelf, "NEW", cell) == (cell in shelving)
            assert accepts(bs.remove, shelf, cell) == (cell in removable)
            for direction in shelf_moves.DIRECTIONS:
                pushed = accepts(shelf_moves.push, shelf, "NEW", cell, direction)
                assert pushed == ((cell, direction) in pushes)
        for origin in taken:
            assert shelf_moves.reshelve_cells(shelf, origin) == brute_reshelve_cells(shelf, origin)
        for start in shelf_moves.run_starts(shelf):
            for end in shelf_moves.run_ends(shelf, start):
                assert shelf_moves.run_destinations(shelf, start, end) == brute_destinations(
                    shelf, start, end
                )


@pytest.mark.parametrize(
    "action",
    [
        {"type": "flip", "cell": (0, 1)},
        {"type": "flip", "cell": [0, 1], "extra": None, "on": True},
        {"type": "take", "card": "A-1"},
        {"type": "take", "cell": [[0, 1]]},
        {1: "one", "type": "x"},
        {"type": "x", "weight": 1.5},
        ["not", "a", "dict"],
    ],
)
def test_x86_an_action_is_read_as_its_json_round_trip(action):
    """X86: whatever the shortcut for flat actions, an action reads as JSON would give it back."""
    assert E._as_json(action) == json.loads(json.dumps(action))
    assert type(E._as_json(action)) is type(json.loads(json.dumps(action)))


def test_x86_an_action_json_cannot_hold_is_refused_naming_the_rule():
    """X86: an action that is not JSON data is refused, naming the decision's rule."""
    state = E.new_game(2, seed=1)
    seat = E.to_act(state)[0]
    with pytest.raises(IllegalAction, match="X8: an action is a small JSON object"):
        E.apply_action(state, seat, {"type": "take", "library": {1, 2}})
