"""Bot players for Ex Libris: pure Python like the engine (no Django), honest by construction.

The same three functions as every kind's bots (`games.kinds.registry`):

    from games.kinds.exlibris import bots
    memory = bots.new_memory(seat, players)
    bots.observe(memory, view)              # after every action, the seat's view (or its
                                            # {"version", "events"}): the bot's game log
    action = bots.choose("greedy", view, memory, random.Random(seed))

A bot sees only `engine.view(state, its_seat)` and the memory it built from earlier views; it
never receives the state. Levels: "random" (any legal action) and "greedy" (each decision scored
one step ahead on the inspection form, `greedy`), which is also the stand-in (`STAND_IN`) that
plays a turn whose time ran out or a seat its player left.
"""

import random

from . import greedy, uniform
from .memory import new_memory, observe

LEVELS = ("random", "greedy")
STAND_IN = "greedy"

__all__ = ["LEVELS", "STAND_IN", "choose", "new_memory", "observe"]


def choose(
    level: str,
    view: dict,
    memory: dict | None,
    rng: random.Random,
    budget_s: float | None = None,
    rounds: int | None = None,
) -> dict:
    """The action of a bot of `level` for the seat of `view` (which must be asked something).

    `memory` (from `new_memory`) learns this view's events first; None plays from the view alone.
    `budget_s` and `rounds` are accepted for the common signature; neither level searches."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    if not view["legal_actions"]:
        raise ValueError("choose: this seat has nothing to do now")
    if memory is not None:
        observe(memory, view)
    return (greedy if level == "greedy" else uniform).decide(view, memory, rng)
