"""A player's bookshelf (spec §3, X12–X17, X56, X90.2–3): plain data and pure functions on it.

A bookshelf is a dict from a cell's key "row,col" to its stack
`{"top": card id, "up": bool, "under": card id | None}`, with its cells in reading order (X17).
`up` says whether the top card is face up; an under card is always face down and entombed (X56).
Plain JSON data so that a game state holding bookshelves survives `loads(dumps(state))` unchanged;
every function here returns a new bookshelf and never changes the one it is given. Cells passed
in and returned are `(row, col)` pairs: rows grow downward, columns rightward, and coordinates
are never renumbered (X12), so they may be negative.

The rearrangements the effects need are here too, as pure enumerations the engine offers one step
at a time (X87), every list bounded as §0's table says and offering only moves whose result is a
valid bookshelf (X13): the Shelfmasons' run moves (X52, X90.4), the Wizard's push (X63), and the
Librarians Lodge's swaps and re-shelving (X42, X90.5) with the Mummy's or the Wizard's power.
Who may use which (the decision flow, who drives a shelving) is the engine's business.
"""

from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter

Cell = tuple[int, int]
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # X13: orthogonal contact only
MAX_ROW_SPAN = 2  # X13: at most 3 rows, max(row) - min(row) <= 2


class IllegalAction(ValueError):
    """An operation the rules do not allow on this bookshelf; the message names the rule."""


# ---------------------------------------------------------------------------- cells and keys


_MEMO_SIZE = 4096  # far more cells than a game uses; past it keys are simply not remembered


def _not_a_key(key) -> IllegalAction:
    return IllegalAction(f"X12: {key!r} does not name a cell (row,col)")


class _CellsOfKeys(dict):
    """Key -> cell for the keys met so far, a key being parsed the first time it is looked up
    (IllegalAction for anything but "row,col" with two integers). A bookshelf is read and
    rebuilt at every step and its cells stay within a few rows and columns, so parsing each
    key once pays; and a lookup through the dict (`map(_CELL_OF_KEY, shelf)`) runs in C."""

    def __missing__(self, key) -> Cell:
        if type(key) is not str:
            raise _not_a_key(key)
        try:
            row, col = key.split(",")
            cell = int(row), int(col)
        except ValueError:
            raise _not_a_key(key) from None
        if len(self) < _MEMO_SIZE:
            self[key] = cell
        return cell


class _KeysOfCells(dict):
    """Cell (a pair of ints, already checked) -> key, as `_CellsOfKeys` the other way."""

    def __missing__(self, cell: Cell) -> str:
        key = f"{cell[0]},{cell[1]}"
        if len(self) < _MEMO_SIZE:
            self[cell] = key
        return key


_CELL_OF_KEY = _CellsOfKeys().__getitem__
_KEY_OF_CELL = _KeysOfCells().__getitem__


def cell_key(cell: Sequence[int]) -> str:
    """The dict key of a cell: "row,col"."""
    return _KEY_OF_CELL(as_cell(cell))


def parse_key(key: str) -> Cell:
    """The cell a key names; IllegalAction for anything but "row,col" with two integers."""
    if type(key) is not str:
        raise _not_a_key(key)
    return _CELL_OF_KEY(key)


def as_cell(cell) -> Cell:
    """A cell given as a (row, col) pair of integers (tuple or JSON list), as a tuple."""
    kind = type(cell)
    if (kind is tuple or kind is list) and len(cell) == 2:
        row, col = cell
        if type(row) is int and type(col) is int:  # the common case, checked quickly
            return row, col
    if (
        not isinstance(cell, (tuple, list))
        or len(cell) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)
    ):
        raise IllegalAction(f"X12: {cell!r} is not a cell (row, col)")
    return cell[0], cell[1]


def _build(stacks: dict[Cell, dict]) -> dict:
    """A bookshelf from cell -> stack, its keys in reading order (so its JSON is canonical)."""
    cells = sorted(stacks)
    return dict(zip(map(_KEY_OF_CELL, cells), map(stacks.__getitem__, cells), strict=True))


def _stacks(shelf: dict) -> dict[Cell, dict]:
    return dict(zip(map(_CELL_OF_KEY, shelf), shelf.values(), strict=True))


def _cells(shelf: dict) -> list[Cell]:
    """The occupied cells in the bookshelf's key order (reading order for one `_build` made)."""
    return list(map(_CELL_OF_KEY, shelf))


# ---------------------------------------------------------------------------- reading


def empty() -> dict:
    """An empty bookshelf (valid, X13)."""
    return {}


def _in_reading_order(cells: list[Cell], shelf: dict) -> list[tuple[Cell, dict]]:
    """(cell, stack) pairs of a bookshelf in reading order (X17), given its `_cells`."""
    return sorted(zip(cells, shelf.values(), strict=True), key=_CELL_OF_PAIR)


_CELL_OF_PAIR = itemgetter(0)  # sort (cell, stack) pairs by their cells only


def occupied(shelf: dict) -> set[Cell]:
    """The occupied cells."""
    return set(_cells(shelf))


def reading_order(shelf: dict) -> list[Cell]:
    """X17: occupied cells by ascending row (top row first), then ascending column."""
    return sorted(occupied(shelf))  # (row, col) tuples sort in exactly that order


def stacks_in_reading_order(shelf: dict) -> list[tuple[Cell, dict]]:
    """X17: (cell, stack) for every occupied cell in reading order (`reading_order` with each
    cell's `stack_at`, without looking each one up)."""
    return _in_reading_order(_cells(shelf), shelf)


def stack_at(shelf: dict, cell) -> dict | None:
    """The stack in a cell, or None when it is empty."""
    return shelf.get(cell_key(cell))


def bottom_row(shelf: dict) -> int | None:
    """X17: the largest occupied row (rows grow downward); None for an empty bookshelf."""
    return max((row for row, _ in occupied(shelf)), default=None)


def shelved_count(shelf: dict) -> int:
    """X17 (A-14): cards physically in the bookshelf; a 2-stack counts 2, face-down ones too.
    This is what the end trigger (X67) counts."""
    return sum(1 + (stack["under"] is not None) for stack in shelf.values())


def entombed_count(shelf: dict) -> int:
    """X56: cards lying under another card (2 points each in B1, X71)."""
    return sum(stack["under"] is not None for stack in shelf.values())


def cards(shelf: dict) -> list[str]:
    """Every card in the bookshelf, top then under, cells in reading order."""
    found = []
    for _, stack in _in_reading_order(_cells(shelf), shelf):
        found.append(stack["top"])
        if stack["under"] is not None:
            found.append(stack["under"])
    return found


def _holds(shelf: dict, card: str) -> bool:
    """Whether `card` is in the bookshelf (`card in cards(shelf)`, without listing them)."""
    stacks = shelf.values()
    return card in map(_TOP, stacks) or card in map(_UNDER, stacks)  # map: looped in C


_TOP = itemgetter("top")
_UNDER = itemgetter("under")


def runs(shelf: dict, row: int) -> list[tuple[int, int]]:
    """X16: the maximal runs of `row` as (first column, last column), left to right.

    A run is any stretch of consecutive occupied columns of one row, so every run of the row is
    a sub-stretch of exactly one of these (what the Shelfmasons Guild, X52, will pick from)."""
    return stretches(col for r, col in occupied(shelf) if r == row)


def stretches(values: Iterable[int]) -> list[tuple[int, int]]:
    """The maximal stretches of consecutive integers among `values`, as (first, last)."""
    found: list[tuple[int, int]] = []
    for value in sorted(set(values)):
        if found and found[-1][1] == value - 1:
            found[-1] = (found[-1][0], value)
        else:
            found.append((value, value))
    return found


# ---------------------------------------------------------------------------- validity


def _connected(cells: set[Cell]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        row, col = todo.pop()
        for nxt in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):  # NEIGHBOURS
            if nxt in cells and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return len(seen) == len(cells)


def _rows_fit(cells: Iterable[Cell]) -> bool:
    rows = [row for row, _ in cells]
    return not rows or max(rows) - min(rows) <= MAX_ROW_SPAN


def cells_valid(cells: Iterable[Cell]) -> bool:
    """X13 on a set of occupied cells: orthogonally connected and spanning at most 3 rows."""
    cells = set(cells)
    return _rows_fit(cells) and _connected(cells)


def is_valid(shelf: dict) -> bool:
    """X13: the occupied cells are 4-connected and span at most 3 rows (empty is valid)."""
    return cells_valid(occupied(shelf))


_STACK_FIELDS = frozenset(("top", "up", "under"))


def check(shelf: dict) -> None:
    """Raise IllegalAction unless `shelf` is a well-formed, valid bookshelf: keys "row,col",
    stacks {"top", "up", "under"}, no card twice (X3: every card is unique), X13 geometry."""
    if not isinstance(shelf, dict):
        raise IllegalAction("X12: a bookshelf is a mapping of cells to stacks")
    seen = set()
    for key, stack in shelf.items():
        parse_key(key)
        if not isinstance(stack, dict) or stack.keys() != _STACK_FIELDS:
            raise IllegalAction(f"X12: the stack at {key} must have top, up and under")
        if not isinstance(stack["top"], str) or not isinstance(stack["up"], bool):
            raise IllegalAction(f"X12: the stack at {key} needs a top card and its face")
        if stack["under"] is not None and not isinstance(stack["under"], str):
            raise IllegalAction(f"X56: the under card at {key} must be a card id or None")
        for card in (stack["top"], stack["under"]):
            if card is not None:
                if card in seen:
                    raise IllegalAction(f"X3: card {card} is in the bookshelf twice")
                seen.add(card)
    if not is_valid(shelf):
        raise IllegalAction("X13: a bookshelf must be connected and span at most 3 rows")


# ---------------------------------------------------------------------------- shelving


def shelving_cells(shelf: dict) -> list[Cell]:
    """X14: the empty cells a card may be shelved into, in reading order: orthogonally next to
    an occupied cell and keeping at most 3 rows; (0, 0) alone for an empty bookshelf (X12)."""
    taken = occupied(shelf)
    if not taken:
        return [(0, 0)]
    low, high = min(taken)[0], max(taken)[0]  # cells compare by row first
    if high - low > MAX_ROW_SPAN:  # never a bookshelf in play (X13): no row keeps 3 rows
        return []
    around = set()
    add = around.add  # the four neighbours spelt out: this runs at every shelving
    for row, col in taken:
        add((row - 1, col))
        add((row + 1, col))
        add((row, col - 1))
        add((row, col + 1))
    around -= taken
    if high - low < MAX_ROW_SPAN:  # one row more above or below still makes at most 3
        return sorted(around)
    # A new cell keeps at most 3 rows when its row is within MAX_ROW_SPAN of both extremes:
    # here, between them.
    return sorted(cell for cell in around if low <= cell[0] <= high)


def _is_shelving_cell(stacks: dict[Cell, dict], cell: Cell) -> bool:
    """Whether `cell` is one of `shelving_cells` of the bookshelf `stacks` (cell -> stack),
    tested alone: empty, next to a card, keeping at most 3 rows; (0, 0) when it is empty."""
    if not stacks:
        return cell == (0, 0)
    if cell in stacks:
        return False
    row, col = cell
    if not (
        (row - 1, col) in stacks
        or (row + 1, col) in stacks
        or (row, col - 1) in stacks
        or (row, col + 1) in stacks
    ):
        return False
    # (row, col) pairs compare by row first: the first and last of them hold the extreme rows.
    return max(max(stacks)[0], row) - min(min(stacks)[0], row) <= MAX_ROW_SPAN


def stacking_cells(shelf: dict) -> list[Cell]:
    """X56: the cells a Mummy-driven shelving may stack onto (on top or underneath): those
    holding exactly one card, a formerly entombed card left alone included (X90.3)."""
    stacks = _in_reading_order(_cells(shelf), shelf)
    return [cell for cell, stack in stacks if stack["under"] is None]


def shelve(shelf: dict, card: str, cell, stack: str | None = None) -> dict:
    """The bookshelf with `card` shelved at `cell` (X14).

    `stack` None: into an empty shelving cell, face up. Mummy-driven only (X56; the engine
    checks who drives the shelving): "on" puts the card face up on a single card, which goes
    under, face down and entombed; "under" slides it face down beneath a single card, whose
    face does not change. A cell never holds more than 2 cards."""
    cell = as_cell(cell)
    if not isinstance(card, str):
        raise IllegalAction(f"X14: {card!r} is not a card")
    if _holds(shelf, card):
        raise IllegalAction(f"X3: card {card} is already in the bookshelf")
    stacks = _stacks(shelf)
    if stack is None:
        if not _is_shelving_cell(stacks, cell):
            raise IllegalAction(
                f"X14: {card} must go into an empty cell next to a card, within 3 rows "
                f"((0, 0) in an empty bookshelf), not {cell}"
            )
        stacks[cell] = {"top": card, "up": True, "under": None}
    elif stack in ("on", "under"):
        old = stacks.get(cell)
        if old is None or old["under"] is not None:
            raise IllegalAction(f"X56: the Mummy stacks only onto a cell holding one card: {cell}")
        if stack == "on":
            stacks[cell] = {"top": card, "up": True, "under": old["top"]}
        else:
            stacks[cell] = {"top": old["top"], "up": old["up"], "under": card}
    else:
        raise IllegalAction(f"X56: a stacking is 'on' or 'under', not {stack!r}")
    return _build(stacks)


# ---------------------------------------------------------------------------- removal, flips


def removable_cells(shelf: dict) -> list[Cell]:
    """X15: cells whose top card may leave, in reading order: any 2-stack (its under card stays),
    and a single card when the rest of the bookshelf stays connected."""
    cells = _cells(shelf)
    if not cells:
        return []
    taken = set(cells)
    stacks = _in_reading_order(cells, shelf)
    cut = _cut_cells(taken)  # on a connected bookshelf, the cells whose card would split it
    if cut is None:  # never a bookshelf in play (X13): each cell is tried
        return [
            cell
            for cell, stack in stacks
            if stack["under"] is not None or _connected(taken - {cell})
        ]
    return [cell for cell, stack in stacks if stack["under"] is not None or cell not in cut]


def _cut_cells(cells: set[Cell]) -> set[Cell] | None:
    """The cells whose removal splits the non-empty `cells` (the articulation points of the grid
    graph), or None when `cells` are not connected: one depth-first search with Tarjan's low
    links, instead of a connectivity test per cell."""
    start = min(cells)
    depth = {start: 0}
    low = {start: 0}
    cut = set()
    root_children = 0
    path = [(start, None, _around(start))]
    while path:
        cell, parent, todo = path[-1]
        for nxt in todo:
            if nxt not in cells:
                continue
            if nxt not in depth:
                depth[nxt] = low[nxt] = len(depth)
                path.append((nxt, cell, _around(nxt)))
                break
            if nxt != parent and depth[nxt] < low[cell]:
                low[cell] = depth[nxt]
        else:
            path.pop()
            if parent is None:
                continue
            if low[cell] < low[parent]:
                low[parent] = low[cell]
            if parent == start:
                root_children += 1
            elif low[cell] >= depth[parent]:
                cut.add(parent)
    if len(depth) < len(cells):
        return None
    if root_children > 1:
        cut.add(start)
    return cut


def _around(cell: Cell):
    """An iterator over a cell's 4 neighbours (X13: orthogonal contact)."""
    row, col = cell
    return iter(((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)))


def remove(shelf: dict, cell) -> tuple[dict, str]:
    """(the bookshelf without the top card at `cell`, that card). X15: only a top card leaves;
    an under card left alone stays in its cell face down and is no longer entombed (X90.3)."""
    cell = as_cell(cell)
    stacks = _stacks(shelf)
    old = stacks.pop(cell, None)
    if old is None:
        raise IllegalAction(f"X15: no card at {cell}")
    # X15 for this cell alone (`removable_cells`): a 2-stack, or the rest still in one piece.
    if old["under"] is None and not _connected(set(stacks)):
        raise IllegalAction(f"X15: removing the card at {cell} would split the bookshelf")
    if old["under"] is not None:
        stacks[cell] = {"top": old["under"], "up": False, "under": None}
    return _build(stacks), old["top"]


def face_up_cells(shelf: dict) -> list[Cell]:
    """X68: the cells whose top card is face up (a pre-flip may name them), in reading order."""
    stacks = _in_reading_order(_cells(shelf), shelf)
    return [cell for cell, stack in stacks if stack["up"]]


def flip_down(shelf: dict, cell) -> dict:
    """X68, X90.2: the bookshelf with the top card at `cell` turned face down (a pre-flip, or
    A1's flip). The card under a 2-stack's top stays entombed. A card already face down cannot
    be named."""
    return turn_down(shelf, [cell])


def turn_down(shelf: dict, cells: Iterable) -> dict:
    """`flip_down` for several cells at once, one after the other (A1 turns many, X69)."""
    stacks = _stacks(shelf)
    for cell in cells:
        cell = as_cell(cell)
        old = stacks.get(cell)
        if old is None:
            raise IllegalAction(f"X68: no card at {cell}")
        if not old["up"]:
            raise IllegalAction(f"X90: the top card at {cell} is already face down")
        stacks[cell] = {**old, "up": False}
    return _build(stacks)


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
