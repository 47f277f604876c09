"""The Shelfmasons (X52): a run of your bookshelf moved."""

from .. import shelf_moves
from ..decisions import decision, effect
from ..state import _event, _push, _seat


@effect("shelfmasons")
def _shelfmasons(state: dict, seat: int) -> None:
    """X52: you may move a run of your bookshelf (first cell or pass, last cell, destination,
    X87); a bookshelf with no movable run offers nothing (X34)."""
    starts = shelf_moves.run_starts(state["seats"][seat]["bookshelf"])
    if starts:  # each step's options are kept with it: the bookshelf cannot change meanwhile
        _push(state, "run_start", seat=seat, options=[list(c) for c in starts], rule="X52")


def _run_start_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X52: the options computed when the step was pushed, or pass."""
    return [{"type": "run", "cell": cell} for cell in top["options"]] + [{"type": "pass"}]


@decision("run_start", rule="X52", choices=_run_start_choices)
def _do_run_start(state: dict, seat: int, action: dict) -> None:
    """X52: the run's first cell, or pass (the move may be declined)."""
    top = state["pending"].pop()
    if action["type"] == "run":
        start = action["cell"]
        ends = [list(c) for c in shelf_moves.run_ends(state["seats"][seat]["bookshelf"], start)]
        _push(state, "run_end", seat=seat, start=start, options=ends, rule=top["rule"])


def _run_end_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "run_end", "cell": cell} for cell in top["options"]]


@decision("run_end", rule="X52", choices=_run_end_choices, shown=("start",))
def _do_run_end(state: dict, seat: int, action: dict) -> None:
    """X52: the run's last cell; then where it goes."""
    top = state["pending"].pop()
    start, end = top["start"], action["cell"]
    spots = shelf_moves.run_destinations(state["seats"][seat]["bookshelf"], start, end)
    options = [list(c) for c in spots]
    _push(state, "run_dest", seat=seat, start=start, end=end, options=options, rule=top["rule"])


def _run_dest_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "move", "cell": cell} for cell in top["options"]]


@decision("run_dest", rule="X52", choices=_run_dest_choices, shown=("start", "end"))
def _do_run_dest(state: dict, seat: int, action: dict) -> None:
    """X52, X90.4: the run lands on the destination's consecutive cells, stacks and order kept."""
    top = state["pending"].pop()
    record = _seat(state, seat)
    record["bookshelf"] = shelf_moves.move_run(
        record["bookshelf"], top["start"], top["end"], action["cell"]
    )
    _event(
        state,
        "run_moved",
        seat=seat,
        start=top["start"],
        end=top["end"],
        to=action["cell"],
        rule=top["rule"],
    )
