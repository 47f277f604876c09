"""Bot players for Biblios: pure Python like the engine (no Django), honest by construction.

Biblios' own package holds them: the platform reaches them only as `registry.of(game).bots`
(the turn worker), so another kind brings its own bots with the same three functions.

    from games.kinds.biblios import bots
    memory = bots.new_memory(seat, num_players)
    bots.observe(memory, view)              # after every action, the seat's view (or its
                                            # {"version", "events"}): the bot's game log
    action = bots.choose("scholar", view, memory, random.Random(seed), budget_s=None)

A bot sees only `biblios.view(state, its_seat)` and the memory it built from earlier views; it
never receives the state. Levels: "novice" (random legal moves, no absurd bids), "scholar"
(greedy heuristics), "abbot" (Monte-Carlo search over sampled worlds; `budget_s` CPU seconds
per decision, `ABBOT_BUDGET_S` by default).
"""

import random

from . import abbot, novice, scholar
from .memory import new_memory, observe

LEVELS = ("novice", "scholar", "abbot")
ABBOT_BUDGET_S = abbot.DEFAULT_BUDGET_S

__all__ = ["ABBOT_BUDGET_S", "LEVELS", "choose", "new_memory", "observe"]


def choose(
    level: str,
    view: dict,
    memory: dict | None,
    rng: random.Random,
    budget_s: float | None = None,
    rounds: int | None = None,
) -> dict:
    """The action of a bot of `level` for the seat of `view` (which must be the seat to act).

    `memory` (from `new_memory`) learns this view's events first; None plays from the view alone.
    The Abbot searches `rounds` sampled worlds when given, else for `budget_s` CPU seconds.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(LEVELS)})")
    if not view["legal_actions"]:
        raise ValueError("choose: this seat has nothing to do now")
    if memory is not None:
        observe(memory, view)
    if level == "abbot":
        return abbot.decide(view, memory, rng, budget_s=budget_s, rounds=rounds)
    return (novice if level == "novice" else scholar).decide(view, memory, rng)
