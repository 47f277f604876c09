"""What a game review asks of Ex Libris' bots: the moves worth comparing at a decision, and the
points margin each would bring its seat, judged from that seat's view and memory only.

The measure is the seat's expected margin in points over its best rival (the Public Library in
solo), as the Archivist reckons it: each action is applied in the same worlds sampled from the
seat's view and memory (`archivist.sampled_world`) and played on by Greedies, with the same
playout seed for every action, to the end of the round (`archivist.horizon_of`), where the
bookshelves and hands are valued the Greedy's way; from the last round's decisions, to the final
totals. Whole games played out from every decision would cost a review minutes per decision.

Only the decisions the Archivist can rebuild from a view are compared (`searchable`: every
placement, the library draft, the solo keep and clean-up, the pre-scoring flip); the parts of a
location's effect leave the rest of the effect on the engine's stack, which no view shows, and
are not graded.
"""

import random

from games.kinds.exlibris import engine

from . import archivist, greedy
from .determinise import searchable

ALL_OF = 6  # a decision with at most this many legal moves compares every one of them


def review_moves(view: dict, memory: dict | None, rng: random.Random) -> list[dict]:
    """The moves a review compares at this decision, the Greedy's first: every legal move when
    there are few, else the Archivist's candidates; none for a decision it cannot rebuild."""
    legal = view["legal_actions"]
    if len(legal) < 2 or not searchable(view):
        return []
    if len(legal) <= ALL_OF:
        first = greedy.decide(view, memory, random.Random(rng.getrandbits(64)))
        return [first] + [action for action in legal if action != first]
    return archivist.candidate_moves(view, memory, rng)


def sampled_world(view: dict, memory: dict | None, rng: random.Random) -> dict:
    """One world the seat's view and memory allow, sampled as the Archivist samples them."""
    world = archivist.sampled_world(view, memory, rng)
    if world is None:
        raise ValueError("review: no world agrees with this seat's view and memory")
    return world


def expected_margins(
    view: dict, memory: dict | None, actions: list[dict], rng: random.Random, rounds: int
) -> list[list[float]]:
    """For each of `actions`, the seat's margin over its best rival in each of `rounds` sampled
    worlds (the same worlds and playout seeds for every action)."""
    me, horizon = view["seat"], archivist.horizon_of(view)
    margins = [[] for _ in actions]
    while len(margins[0]) < rounds:
        world = sampled_world(view, memory, rng)
        seed = rng.getrandbits(64)
        for found, action in zip(margins, actions, strict=True):
            state = engine.apply_action(world, me, action)
            found.append(archivist.playout(state, me, horizon, seed, win_bonus=0.0))
    return margins


def final_margin(result: dict, seat: int) -> float:
    """What the measure came to: the seat's final margin over its best rival."""
    return float(archivist.final_margin(result, seat))
