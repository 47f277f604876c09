"""A player's bookshelf (spec §3, X12–X17, X56, X90.2–3): plain data and pure functions on it.

A bookshelf is a dict from a cell's key "row,col" to its stack
`{"top": card id, "up": bool, "under": card id | None}`, with its cells in reading order (X17).
`up` says whether the top card is face up; an under card is always face down and entombed (X56).
Plain JSON data so that a game state holding bookshelves survives `loads(dumps(state))` unchanged;
every function here returns a new bookshelf and never changes the one it is given. Cells passed
in and returned are `(row, col)` pairs: rows grow downward, columns rightward, and coordinates
are never renumbered (X12), so they may be negative.

The rearrangements some effects make (runs moved, pushes, the Lodge's swaps) are
`shelf_moves.py`, built on these functions.
"""

from collections.abc import Iterable, Sequence
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
