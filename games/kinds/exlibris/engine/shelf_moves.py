"""The rearrangements of a bookshelf some effects make (spec §3, X13), as pure enumerations the
engine offers one step at a time (X87), every list bounded as §0's table says and offering only
moves whose result is a valid bookshelf (X13): the Shelfmasons' run moves (X52, X90.4), the
Wizard's push (X63), and the Librarians Lodge's swaps and re-shelving (X42, X90.5) with the
Mummy's or the Wizard's power. Like `bookshelf`, every function returns a new bookshelf. Who may
use which (the decision flow, who drives a shelving) is the engine's business.
"""

from collections.abc import Iterator

from .bookshelf import (
    MAX_ROW_SPAN,
    NEIGHBOURS,
    Cell,
    IllegalAction,
    _around,
    _build,
    _cells,
    _connected,
    _cut_cells,
    _holds,
    _in_reading_order,
    _rows_fit,
    _stacks,
    as_cell,
    cells_valid,
    is_valid,
    occupied,
    reading_order,
    shelve,
    stack_at,
    stacking_cells,
)

# ---------------------------------------------------------------------------- Shelfmasons (X52)


def _run_cells(shelf: dict, start, end) -> list[Cell]:
    """The cells of the run from `start` to `end` (X16), left to right; IllegalAction if those
    two cells do not bound a run of one row."""
    start, end = as_cell(start), as_cell(end)
    if start[0] != end[0] or end[1] < start[1]:
        raise IllegalAction(
            f"X16: a run lies in one row, its last cell at or right of its first: {start}..{end}"
        )
    cells = [(start[0], col) for col in range(start[1], end[1] + 1)]
    taken = occupied(shelf)
    if any(cell not in taken for cell in cells):
        raise IllegalAction(f"X16: {start}..{end} is not a run of occupied cells")
    return cells


def _run_destinations(taken: set[Cell], cells: list[Cell]):
    """Yield, in reading order, the (row, first column) where the run `cells` of the bookshelf
    whose occupied cells are `taken` may land (X52)."""
    rest = taken - set(cells)
    if not rest:
        return  # X90.4: the run is the whole bookshelf, a translation is not offered
    length = len(cells)
    rows = [row for row, _ in rest]
    cols = [col for _, col in rest]
    low, high = min(rows), max(rows)
    # The landed run is in one piece, and the rest's pieces touch one another nowhere, so the
    # result is in one piece (X13) exactly when the run touches every piece of the rest.
    piece = _pieces(rest)
    pieces = max(piece.values()) + 1
    # The landed run must touch the rest (which is not empty), so its row is within one of the
    # rest's rows and its cells within one column of the rest's columns.
    for row in range(low - 1, high + 2):
        if max(high, row) - min(low, row) > MAX_ROW_SPAN:
            continue  # X13: more than 3 rows
        for first in range(min(cols) - length, max(cols) + 2):
            if (row, first) == cells[0]:
                continue  # X52: the run may not end where it started
            touched = set()
            for col in range(first, first + length):
                if (row, col) in rest:
                    break  # the run lands on cells empty once it is lifted
                for nxt in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                    if nxt in piece:
                        touched.add(piece[nxt])
            else:
                if len(touched) == pieces:
                    yield (row, first)


def _pieces(cells: set[Cell]) -> dict[Cell, int]:
    """Each cell's piece: the number of its orthogonally connected group among `cells`."""
    piece: dict[Cell, int] = {}
    number = -1
    for start in cells:
        if start in piece:
            continue
        number += 1
        piece[start] = number
        todo = [start]
        while todo:
            row, col = todo.pop()
            for nxt in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if nxt in cells and nxt not in piece:
                    piece[nxt] = number
                    todo.append(nxt)
    return piece


def _run_movable(taken: set[Cell], cells: list[Cell]) -> bool:
    """Whether the run `cells` has at least one destination (X87: offer only what completes)."""
    rest = taken - set(cells)
    if rest and _connected(rest):
        # Always true: beside the rest's leftmost cell or beside its rightmost cell, in that
        # cell's row; the two spots differ, so one of them is not where the run started.
        return True
    return next(_run_destinations(taken, cells), None) is not None


def _movable_ends(taken: set[Cell], start: Cell) -> Iterator[Cell]:
    """The last cells, left to right, of the movable runs starting at the occupied `start`."""
    row, first = start
    col = first
    while (row, col) in taken:
        if _run_movable(taken, [(row, c) for c in range(first, col + 1)]):
            yield (row, col)
        col += 1


def run_starts(shelf: dict) -> list[Cell]:
    """X52 step 1 (the engine adds `pass`): the cells, in reading order, that start a run
    which can be moved somewhere. At most n (occupied cells)."""
    taken = occupied(shelf)
    # A run of one card whose cell is not a cut cell leaves the rest in one piece, which makes
    # it movable (`_run_movable`): the cut cells, found once, spare most cells the search.
    cut = _cut_cells(taken) if len(taken) > 1 else None
    return [
        cell
        for cell in sorted(taken)
        if cut is not None and cell not in cut or _starts_movable_run(taken, cell)
    ]


def _starts_movable_run(taken: set[Cell], start: Cell) -> bool:
    """Whether one of `_movable_ends(taken, start)` exists: `_run_movable` for each run from
    `start`, its quick test (the rest in one piece) tried on all of them before any search
    for a destination."""
    row, first = start
    runs = []
    col = first
    while (row, col) in taken:
        runs.append([(row, c) for c in range(first, col + 1)])
        col += 1
    if any((rest := taken - set(cells)) and _connected(rest) for cells in runs):
        return True
    return any(next(_run_destinations(taken, cells), None) is not None for cells in runs)


def run_ends(shelf: dict, start) -> list[Cell]:
    """X52 step 2: the last cells, left to right, of the runs starting at `start` that can be
    moved (X16: a run is consecutive occupied cells of one row). At most the row's length."""
    start = as_cell(start)
    taken = occupied(shelf)
    if start not in taken:
        raise IllegalAction(f"X16: no card at {start} to start a run")
    return list(_movable_ends(taken, start))


def run_destinations(shelf: dict, start, end) -> list[Cell]:
    """X52 step 3, X90.4: where the run `start`..`end` may land, each named by (row, first
    column), in reading order. The run keeps its order and stacks and lands on cells that are
    empty once it is lifted, in any row; the result must be valid (X13, so in one piece); it may
    not land where it started, and a run that is the whole bookshelf is offered nowhere. At most
    5(w + L + 1) for a bookshelf w columns wide and a run of L cells (§0)."""
    return list(_run_destinations(occupied(shelf), _run_cells(shelf, start, end)))


def move_run(shelf: dict, start, end, dest) -> dict:
    """X52: the bookshelf with the run `start`..`end` moved so that its first cell is `dest`,
    stacks and faces unchanged; IllegalAction unless `dest` is one of `run_destinations`."""
    cells = _run_cells(shelf, start, end)
    dest = as_cell(dest)
    if dest not in set(_run_destinations(occupied(shelf), cells)):
        raise IllegalAction(
            f"X52: the run {cells[0]}..{cells[-1]} may not move to {dest} (it must land on "
            "cells empty once it is lifted, leave a valid bookshelf and change something)"
        )
    stacks = _stacks(shelf)
    moved = [stacks.pop(cell) for cell in cells]
    for i, stack in enumerate(moved):
        stacks[(dest[0], dest[1] + i)] = stack
    return _build(stacks)


# ---------------------------------------------------------------------------- Wizard push (X63)

DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}  # X63


def _direction(direction: str) -> tuple[int, int]:
    if direction not in DIRECTIONS:
        raise IllegalAction(f"X63: a push goes up, down, left or right, not {direction!r}")
    return DIRECTIONS[direction]


def _line(taken: set[Cell], target: Cell, step: tuple[int, int]) -> list[Cell]:
    """X63: the occupied cells from `target` on in direction `step`, up to the first gap."""
    line = []
    cell = target
    while cell in taken:
        line.append(cell)
        cell = (cell[0] + step[0], cell[1] + step[1])
    return line


def _pushes(shelf: dict, avoid: Cell | None = None) -> list[tuple[Cell, str]]:
    """Every push (target, direction) on `shelf` whose result is valid (X13), `avoid` excepted
    as a target. After a push the occupied cells are the old ones plus the cell the line moves
    into, the new card filling the target."""
    taken = occupied(shelf)
    connected = _connected(taken)
    found = []
    for target in sorted(taken):
        if target == avoid:
            continue
        for name, step in DIRECTIONS.items():
            if _push_fits(taken, connected, target, step):
                found.append((target, name))
    return found


def _push_fits(taken: set[Cell], connected: bool, target: Cell, step: tuple[int, int]) -> bool:
    """Whether the push at the occupied `target` towards `step` leaves a valid bookshelf (X13),
    `connected` saying whether the occupied cells `taken` are in one piece."""
    last = _line(taken, target, step)[-1]
    after = taken | {(last[0] + step[0], last[1] + step[1])}
    # On a connected bookshelf only the row band can break (the new cell touches the line); a
    # lifted one (the Lodge, X90.5) may be in pieces, so check everything.
    return _rows_fit(after) if connected else cells_valid(after)


def _apply_push(shelf: dict, card: str, target: Cell, direction: str) -> dict:
    step = DIRECTIONS[direction]
    stacks = _stacks(shelf)
    for cell in reversed(_line(set(stacks), target, step)):
        stacks[(cell[0] + step[0], cell[1] + step[1])] = stacks.pop(cell)
    stacks[target] = {"top": card, "up": True, "under": None}
    return _build(stacks)


def push_targets(shelf: dict) -> list[tuple[Cell, str]]:
    """X63: the pushes a Wizard-driven shelving may make instead of using an empty cell, as
    (occupied target cell, direction), targets in reading order: the line of occupied cells from
    the target on in that direction moves one cell that way, and the card is shelved into the
    target. Only pushes keeping at most 3 rows are listed (nothing else can break). At most 4n."""
    return _pushes(shelf)


def push(shelf: dict, card: str, target, direction: str) -> dict:
    """X63: the bookshelf after a Wizard's push at `target` towards `direction` that shelves
    `card` (face up, X14) into the opened target; stacks move whole (X16)."""
    target = as_cell(target)
    _direction(direction)
    if not isinstance(card, str):
        raise IllegalAction(f"X14: {card!r} is not a card")
    if _holds(shelf, card):
        raise IllegalAction(f"X3: card {card} is already in the bookshelf")
    taken = occupied(shelf)  # `push_targets` for this one push:
    if target not in taken or not _push_fits(
        taken, _connected(taken), target, DIRECTIONS[direction]
    ):
        raise IllegalAction(
            f"X63: no push {direction} at {target}: the target must hold a card and the "
            "bookshelf must keep at most 3 rows"
        )
    return _apply_push(shelf, card, target, direction)


# ---------------------------------------------------------------------------- the Lodge (X42)


def swap_partners(shelf: dict, cell) -> list[Cell]:
    """X42 (b): the other cells whose top card may be exchanged with the top card at `cell`, in
    reading order (every other occupied cell: a swap changes no occupied cell, X13 holds)."""
    cell = as_cell(cell)
    if stack_at(shelf, cell) is None:
        raise IllegalAction(f"X42: no card at {cell}")
    return [other for other in reading_order(shelf) if other != cell]


def swap_cells(shelf: dict, first, second) -> dict:
    """X42 (b): the bookshelf with the top cards of two cells exchanged. Under cards never move
    and stay entombed; each moved card keeps its face (a swap is not a shelving, X16)."""
    first, second = as_cell(first), as_cell(second)
    if second not in swap_partners(shelf, first):
        raise IllegalAction(
            f"X42: swap the top cards of two different occupied cells, not {second}"
        )
    stacks = _stacks(shelf)
    a, b = stacks[first], stacks[second]
    stacks[first] = {"top": b["top"], "up": b["up"], "under": a["under"]}
    stacks[second] = {"top": a["top"], "up": a["up"], "under": b["under"]}
    return _build(stacks)


def swap_with_hand(shelf: dict, cell, card: str) -> tuple[dict, str]:
    """X42 (b): (the bookshelf with hand card `card` in place of the top card at `cell`, the card
    that left for the hand). The hand card comes face up; an under card stays entombed. The
    caller checks that `card` is in the hand."""
    cell = as_cell(cell)
    old = stack_at(shelf, cell)
    if old is None:
        raise IllegalAction(f"X42: no card at {cell}")
    if not isinstance(card, str):
        raise IllegalAction(f"X42: {card!r} is not a card")
    if _holds(shelf, card):
        raise IllegalAction(f"X3: card {card} is already in the bookshelf")
    stacks = _stacks(shelf)
    stacks[cell] = {"top": card, "up": True, "under": old["under"]}
    return _build(stacks), old["top"]


def lift(shelf: dict, cell) -> tuple[dict, str]:
    """X42, X90.5: (the bookshelf with the top card at `cell` taken out to be re-shelved, that
    card). The under card of a 2-stack stays, face down and no longer entombed (X15). Unlike
    `remove`, the rest may be in pieces: a re-shelving is judged on the final bookshelf only, so
    the result is an intermediate, not a bookshelf to keep."""
    cell = as_cell(cell)
    stacks = _stacks(shelf)
    old = stacks.pop(cell, None)
    if old is None:
        raise IllegalAction(f"X42: no card at {cell} to re-shelve")
    if old["under"] is not None:
        stacks[cell] = {"top": old["under"], "up": False, "under": None}
    return _build(stacks), old["top"]


def reshelve_cells(shelf: dict, origin) -> list[Cell]:
    """X42: the empty cells, in reading order, where the top card at `origin` may be re-shelved:
    empty once it is lifted, not the origin, next to a card of the final bookshelf, and leaving
    it valid (X13). The card may be one whose removal alone would split the bookshelf; a
    bookshelf of one card in all offers nothing (X90.5). At most 2n + 2."""
    origin = as_cell(origin)
    rest, _ = lift(shelf, origin)
    taken = occupied(rest)
    if not taken:
        return []
    rows = [row for row, _ in taken]
    low, high = min(rows), max(rows)
    # A cell next to the rest leaves it in one piece (X13) when it touches every piece of it.
    piece = _pieces(taken)
    pieces = len(set(piece.values()))
    found = set()
    for row, col in taken:
        for d_row, d_col in NEIGHBOURS:
            cell = (row + d_row, col + d_col)
            if (
                cell in taken
                or cell == origin
                or max(high, cell[0]) - min(low, cell[0]) > MAX_ROW_SPAN
            ):
                continue
            touched = {piece[near] for near in _around(cell) if near in piece}
            if len(touched) == pieces:
                found.add(cell)
    return sorted(found)


def reshelve_stacking_cells(shelf: dict, origin) -> list[Cell]:
    """X42, X56, X90.5: with a Mummy at the Lodge, the single-card cells (X90.3) onto which, on
    top or underneath, the card at `origin` may be re-shelved: not the origin (its card must end
    elsewhere), and only when the bookshelf without the card is valid, since stacking adds no
    cell. At most n (2n actions with the two ways)."""
    origin = as_cell(origin)
    rest, _ = lift(shelf, origin)
    if not rest or not is_valid(rest):
        return []
    return [cell for cell in stacking_cells(rest) if cell != origin]


def reshelve_pushes(shelf: dict, origin) -> list[tuple[Cell, str]]:
    """X42, X63, X90.5: with a Wizard at the Lodge, the pushes (target, direction) that re-shelve
    the card at `origin`: the push acts on the bookshelf with the card already lifted, the target
    is not the origin, and the final bookshelf must be valid (X13; the lifted one may be in
    pieces). At most 4n."""
    origin = as_cell(origin)
    rest, _ = lift(shelf, origin)
    return _pushes(rest, avoid=origin)


POWERS = (None, "mummy", "wizard")  # X53, X90.6: at most one power drives a shelving


def reshelve_origins(shelf: dict, power: str | None = None) -> list[Cell]:
    """X42 (b): the cells, in reading order, whose top card can be re-shelved somewhere, with
    the power of the assistant driving the Lodge's effect (None, "mummy" or "wizard"). At most
    n."""
    if power not in POWERS:
        raise IllegalAction(
            f"X53: the power driving a shelving is the Mummy's, the Wizard's or none, not {power!r}"
        )
    cells = _cells(shelf)
    # The rest is in one piece when the card lifted leaves its under card behind (a 2-stack) or
    # its cell is not a cut cell, on a connected bookshelf of two cells or more: found once.
    cut = _cut_cells(set(cells)) if len(cells) > 1 else None
    found = []
    for cell, stack in _in_reading_order(cells, shelf):
        if cut is not None and (stack["under"] is not None or cell not in cut):
            found.append(cell)  # the rest is in one piece: the fast path below holds
            continue
        rest = occupied(lift(shelf, cell)[0])
        if (
            # Fast path, always true: a card lifted from a connected rest fits beside the rest's
            # leftmost cell or its rightmost one, and at most one of the two is the origin.
            (rest and _connected(rest))
            or reshelve_cells(shelf, cell)
            or (power == "mummy" and reshelve_stacking_cells(shelf, cell))
            or (power == "wizard" and reshelve_pushes(shelf, cell))
        ):
            found.append(cell)
    return found


def reshelve(shelf: dict, origin, cell, stack: str | None = None) -> dict:
    """X42: the bookshelf with the top card at `origin` re-shelved, face up (a real shelving,
    X14), into the empty `cell` of `reshelve_cells`; with `stack` "on" or "under" (a Mummy at the
    Lodge, X56), onto a cell of `reshelve_stacking_cells` instead."""
    origin, cell = as_cell(origin), as_cell(cell)
    if stack is None:
        allowed = reshelve_cells(shelf, origin)
    elif stack in ("on", "under"):
        allowed = reshelve_stacking_cells(shelf, origin)
    else:
        raise IllegalAction(f"X56: a stacking is 'on' or 'under', not {stack!r}")
    if cell not in allowed:
        raise IllegalAction(
            f"X42: the card at {origin} may not be re-shelved at {cell}: it must end in another "
            "cell and leave a valid bookshelf"
        )
    rest, card = lift(shelf, origin)
    return shelve(rest, card, cell, stack)


def reshelve_push(shelf: dict, origin, target, direction: str) -> dict:
    """X42, X63, X90.5: the bookshelf with the top card at `origin` lifted, then re-shelved by a
    Wizard's push at `target` towards `direction` (one of `reshelve_pushes`)."""
    origin, target = as_cell(origin), as_cell(target)
    _direction(direction)
    if (target, direction) not in reshelve_pushes(shelf, origin):
        raise IllegalAction(
            f"X42: no push {direction} at {target} re-shelves the card at {origin}: the target "
            "must hold a card, not be the origin, and the final bookshelf must be valid"
        )
    rest, card = lift(shelf, origin)
    return _apply_push(rest, card, target, direction)
