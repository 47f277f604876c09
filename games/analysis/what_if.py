"""What if: a finished game played on by the bots from one of its decisions, another move made.

The branch starts in one world sampled from the mover's own view and memory at that decision
(the kind's `Reviewer.world`, as the review samples its worlds), never from the true deal: the
cards the mover could not see are dealt anew. So a branch tells nothing its mover did not know
when deciding, and it reads as one way the game might have gone on, not as what would have
happened. The mover plays the move asked, then the kind's stand-in level plays every seat to the
end, each bot from its own view and from what it saw since the branch began.

Pure: a game's setup and move log in, plain data out; `what_if_page` shows it.
"""

import copy
import random
from dataclasses import dataclass

MAX_STEPS = 5000  # no game of ours comes near; a branch that does is a bug, not a long game


@dataclass(frozen=True)
class Branch:
    seat: int  # the mover, whose eyes the branch is told through
    move: int  # the decision replaced, 1 the first move of the log
    action: dict  # the move played instead
    steps: list  # (acting seat, events as `seat` saw them), the move played instead first
    result: dict  # the engine's result at the branch's end


def play_on(
    kind, setup: dict, moves: list, players: int, move: int, action: dict, seed: int | str
) -> Branch:
    """The game of `setup` and the log `moves` (seat, action), played as logged up to the move
    numbered `move`, then with `action` instead by the same seat, then by the bots; ValueError
    when `action` was not legal there."""
    engine, bots = kind.engine, kind.bots
    if not 1 <= move <= len(moves):
        raise ValueError("what if: no such move in this game")
    seat = moves[move - 1][0]
    memory = bots.new_memory(seat, players)
    for version, state in enumerate(engine.steps(setup, moves[: move - 1])):
        bots.observe(memory, {"version": version, "events": engine.events_for(state, seat)})
    return branch_from(kind, engine.view(state, seat), memory, action, players, seed)


def branch_from(
    kind, view: dict, memory: dict, action: dict, players: int, seed: int | str
) -> Branch:
    """The branch from the decision of `view`'s seat, from that view and its `memory` alone."""
    engine, bots = kind.engine, kind.bots
    seat = view["seat"]
    if action not in view["legal_actions"]:
        raise ValueError("what if: that move was not legal at this decision")
    rng = random.Random(f"{seed}/{view['version']}")
    memories = [
        copy.deepcopy(memory) if other == seat else bots.new_memory(other, players)
        for other in range(players)
    ]
    world = kind.review.world(view, copy.deepcopy(memory), rng)
    state = engine.apply_action(world, seat, action)
    steps = [(seat, engine.events_for(state, seat))]
    while acting := engine.to_act(state):
        if len(steps) >= MAX_STEPS:
            raise ValueError("what if: the branch does not end")
        version = view["version"] + len(steps)
        for reader, known in enumerate(memories):
            bots.observe(known, {"version": version, "events": engine.events_for(state, reader)})
        mover = acting[0]
        chosen = bots.choose(kind.stand_in, engine.view(state, mover), memories[mover], rng)
        state = engine.apply_action(state, mover, chosen)
        steps.append((mover, engine.events_for(state, seat)))
    return Branch(seat, view["version"] + 1, action, steps, engine.result(state))
