"""A player's bookshelf (spec §3, X12–X17, X56, X90.2–3): plain data and pure functions on it.

A bookshelf is a dict from a cell's key "row,col" to its stack
`{"top": card id, "up": bool, "under": card id | None}`, with its cells in reading order (X17).
`up` says whether the top card is face up; an under card is always face down and entombed (X56).
Plain JSON data so that a game state holding bookshelves survives `loads(dumps(state))` unchanged;
every function here returns a new bookshelf and never changes the one it is given. Cells passed
in and returned are `(row, col)` pairs: rows grow downward, columns rightward, and coordinates
are never renumbered (X12), so they may be negative.

Left for the next step (they need the engine's decisions): the Wizard's push (X63), the
Librarians Lodge's swaps and re-shelving (X42) and the Shelfmasons' run moves (X52); `runs` and
the validity check are what they will build on.
"""

from collections.abc import Iterable, Sequence

Cell = tuple[int, int]
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # X13: orthogonal contact only
MAX_ROW_SPAN = 2  # X13: at most 3 rows, max(row) - min(row) <= 2


class IllegalAction(ValueError):
    """An operation the rules do not allow on this bookshelf; the message names the rule."""


# ---------------------------------------------------------------------------- cells and keys


def cell_key(cell: Sequence[int]) -> str:
    """The dict key of a cell: "row,col"."""
    row, col = as_cell(cell)
    return f"{row},{col}"


def parse_key(key: str) -> Cell:
    """The cell a key names; IllegalAction for anything but "row,col" with two integers."""
    try:
        row, col = key.split(",")
        return int(row), int(col)
    except (AttributeError, ValueError):
        raise IllegalAction(f"X12: {key!r} does not name a cell (row,col)") from None


def as_cell(cell) -> Cell:
    """A cell given as a (row, col) pair of integers (tuple or JSON list), as a tuple."""
    if (
        not isinstance(cell, (tuple, list))
        or len(cell) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)
    ):
        raise IllegalAction(f"X12: {cell!r} is not a cell (row, col)")
    return cell[0], cell[1]


def _build(stacks: dict[Cell, dict]) -> dict:
    """A bookshelf from cell -> stack, its keys in reading order (so its JSON is canonical)."""
    return {cell_key(cell): stacks[cell] for cell in sorted(stacks)}


def _stacks(shelf: dict) -> dict[Cell, dict]:
    return {parse_key(key): stack for key, stack in shelf.items()}


# ---------------------------------------------------------------------------- reading


def empty() -> dict:
    """An empty bookshelf (valid, X13)."""
    return {}


def occupied(shelf: dict) -> set[Cell]:
    """The occupied cells."""
    return {parse_key(key) for key in shelf}


def reading_order(shelf: dict) -> list[Cell]:
    """X17: occupied cells by ascending row (top row first), then ascending column."""
    return sorted(occupied(shelf))  # (row, col) tuples sort in exactly that order


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
    for cell in reading_order(shelf):
        stack = stack_at(shelf, cell)
        found.append(stack["top"])
        if stack["under"] is not None:
            found.append(stack["under"])
    return found


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
        for d_row, d_col in NEIGHBOURS:
            nxt = (row + d_row, col + d_col)
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


def check(shelf: dict) -> None:
    """Raise IllegalAction unless `shelf` is a well-formed, valid bookshelf: keys "row,col",
    stacks {"top", "up", "under"}, no card twice (X3: every card is unique), X13 geometry."""
    if not isinstance(shelf, dict):
        raise IllegalAction("X12: a bookshelf is a mapping of cells to stacks")
    seen = set()
    for key, stack in shelf.items():
        parse_key(key)
        if not isinstance(stack, dict) or set(stack) != {"top", "up", "under"}:
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
    rows = [row for row, _ in taken]
    low, high = min(rows), max(rows)
    found = set()
    for row, col in taken:
        for d_row, d_col in NEIGHBOURS:
            cell = (row + d_row, col + d_col)
            if cell not in taken and max(high, cell[0]) - min(low, cell[0]) <= MAX_ROW_SPAN:
                found.add(cell)
    return sorted(found)


def stacking_cells(shelf: dict) -> list[Cell]:
    """X56: the cells a Mummy-driven shelving may stack onto (on top or underneath): those
    holding exactly one card, a formerly entombed card left alone included (X90.3)."""
    return [cell for cell in reading_order(shelf) if stack_at(shelf, cell)["under"] is None]


def shelve(shelf: dict, card: str, cell, stack: str | None = None) -> dict:
    """The bookshelf with `card` shelved at `cell` (X14).

    `stack` None: into an empty shelving cell, face up. Mummy-driven only (X56; the engine
    checks who drives the shelving): "on" puts the card face up on a single card, which goes
    under, face down and entombed; "under" slides it face down beneath a single card, whose
    face does not change. A cell never holds more than 2 cards."""
    cell = as_cell(cell)
    if not isinstance(card, str):
        raise IllegalAction(f"X14: {card!r} is not a card")
    if card in cards(shelf):
        raise IllegalAction(f"X3: card {card} is already in the bookshelf")
    stacks = _stacks(shelf)
    if stack is None:
        if cell not in shelving_cells(shelf):
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
    taken = occupied(shelf)
    return [
        cell
        for cell in reading_order(shelf)
        if stack_at(shelf, cell)["under"] is not None or _connected(taken - {cell})
    ]


def remove(shelf: dict, cell) -> tuple[dict, str]:
    """(the bookshelf without the top card at `cell`, that card). X15: only a top card leaves;
    an under card left alone stays in its cell face down and is no longer entombed (X90.3)."""
    cell = as_cell(cell)
    if cell not in removable_cells(shelf):
        if stack_at(shelf, cell) is None:
            raise IllegalAction(f"X15: no card at {cell}")
        raise IllegalAction(f"X15: removing the card at {cell} would split the bookshelf")
    stacks = _stacks(shelf)
    old = stacks.pop(cell)
    if old["under"] is not None:
        stacks[cell] = {"top": old["under"], "up": False, "under": None}
    return _build(stacks), old["top"]


def flip_down(shelf: dict, cell) -> dict:
    """X68, X90.2: the bookshelf with the top card at `cell` turned face down (a pre-flip, or
    A1's flip). The card under a 2-stack's top stays entombed. A card already face down cannot
    be named."""
    cell = as_cell(cell)
    stacks = _stacks(shelf)
    old = stacks.get(cell)
    if old is None:
        raise IllegalAction(f"X68: no card at {cell}")
    if not old["up"]:
        raise IllegalAction(f"X90: the top card at {cell} is already face down")
    stacks[cell] = {**old, "up": False}
    return _build(stacks)
