"""Bot players for Ex Libris: pure Python like the engine (no Django), honest by construction.

The same three functions as every kind's bots (`games.kinds.registry`):

    from games.kinds.exlibris import bots
    memory = bots.new_memory(seat, players)
    bots.observe(memory, view)              # after every action, the seat's view (or its
                                            # {"version", "events"}): the bot's game log
    action = bots.choose("greedy", view, memory, random.Random(seed))

A bot sees only `engine.view(state, its_seat)` and the memory it built from earlier views; it
never receives the state. Levels: "random" (any legal action), "greedy" (each decision scored
one step ahead on the inspection form, `greedy`), which is also the stand-in (`STAND_IN`) that
plays a turn whose time ran out or a seat its player left, and "archivist" (the Greedy's best
moves compared by playing them out in worlds sampled from the view, `archivist`; `budget_s`
CPU seconds per decision).
"""

import random

from . import archivist, greedy, uniform
from .memory import new_memory, observe

LEVELS = ("random", "greedy", "archivist")
ARCHIVIST_BUDGET_S = archivist.DEFAULT_BUDGET_S
STAND_IN = "greedy"

__all__ = ["ARCHIVIST_BUDGET_S", "LEVELS", "STAND_IN", "choose", "new_memory", "observe"]


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
    The Archivist searches `rounds` sampled worlds when given, else for `budget_s` CPU seconds
    (`ARCHIVIST_BUDGET_S` by default); the other levels do not search."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    if not view["legal_actions"]:
        raise ValueError("choose: this seat has nothing to do now")
    if memory is not None:
        observe(memory, view)
    if level == "archivist":
        return archivist.decide(view, memory, rng, budget_s=budget_s, rounds=rounds)
    return (greedy if level == "greedy" else uniform).decide(view, memory, rng)
