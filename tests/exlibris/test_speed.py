"""What the engine's speed-ups must keep (issue 16): a move copies the state but shares the values
it only ever replaces whole, so no later move may change an earlier state (X86); the one-pass
cut cells give exactly the removable cells of X15; actions are read as their JSON round trip."""

import json
import random

import pytest

from games.engine.exlibris import bookshelf as bs
from games.engine.exlibris import engine as E
from games.engine.exlibris.engine import IllegalAction

# Where a state may share a list or dict with the state it came from: values the engine never
# changes in place (the categories out of the game, bookshelves and their stacks, a tile's card
# entries, slot holders and sharing Ghosts, a seat's library).
SHARED_PATHS = (
    ("categories_out",),
    ("seats", None, "bookshelf"),
    ("seats", None, "library"),
    ("tiles", None, "cards", None),
    ("tiles", None, "slots", None),
    ("tiles", None, "shared", None),
)


def containers(value, path=()):
    """Every list and dict inside `value`, with its path."""
    if isinstance(value, (dict, list)):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            yield from containers(item, (*path, key))


def shareable(path) -> bool:
    return any(
        len(path) >= len(pattern)
        and all(part is None or part == step for part, step in zip(pattern, path, strict=False))
        for pattern in SHARED_PATHS
    )


@pytest.mark.parametrize(
    "players,variant,options,seed",
    [
        (1, "standard", {"difficulty": 3}, 2),
        (2, "friendly+long", None, 4),
        (3, "beginner", {"owner_wide_powers": True}, 5),
        (4, "standard", {"owner_wide_powers": True}, 7),
    ],
)
def test_x86_a_move_shares_only_what_no_move_changes_and_never_alters_an_earlier_state(
    players, variant, options, seed
):
    """X86: `apply_action` returns a new state and leaves every earlier one as it was, even
    several moves later, though it shares some values with them."""
    state = E.new_game(players, seed=seed, variant=variant, options=options)
    rng = random.Random(seed)
    history = []
    while seats := E.to_act(state):
        seat = rng.choice(seats)
        before = {id(value): path for path, value in containers(state)}
        new = E.apply_action(state, seat, rng.choice(E.legal_actions(state, seat)))
        for path, value in containers(new):
            if id(value) in before:
                assert shareable(path) and shareable(before[id(value)]), (path, before[id(value)])
        history.append((state, E.dumps(state)))
        state = new
    assert len(history) > 50
    for old, text in history:
        assert E.dumps(old) == text


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


def test_x15_removable_cells_in_one_pass_are_those_of_the_cell_by_cell_test():
    """X15: random bookshelves (rings, trees, 2-stacks, and a few in pieces): the cut cells of
    one depth-first search give the same removable cells as testing each cell."""
    rng = random.Random(15)
    for _ in range(3000):
        cells = {(0, 0)}
        for _ in range(rng.randrange(25)):
            row, col = rng.choice(sorted(cells))
            d_row, d_col = rng.choice(bs.NEIGHBOURS)
            if abs(row + d_row) <= 1:
                cells.add((row + d_row, col + d_col))
        if rng.random() < 0.1:
            cells.add((rng.randrange(-1, 2), rng.randrange(-12, 12)))
        shelf = {
            bs.cell_key(cell): {
                "top": f"T-{i}",
                "up": True,
                "under": f"U-{i}" if rng.random() < 0.2 else None,
            }
            for i, cell in enumerate(sorted(cells))
        }
        assert bs.removable_cells(shelf) == brute_removable(shelf)


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
