"""The Archivist: flat Monte-Carlo search over sampled worlds, with Greedy playouts.

Searched decisions are those asked with nothing below them on the engine's stack
(`determinise.SEARCHED_KINDS`): every placement of an assistant, the library draft and the solo
keep, the solo clean-up and the pre-scoring flip. Every other decision (the parts of a
location's effect) is the Greedy's. For a searched decision:
1. candidates: the Greedy's move first, then the few it ranks best after it (distinct targets
   first; for the draft, which the Greedy plays at random, every library offered);
2. until the CPU budget is spent, rounds of: draw one world consistent with the seat's view and
   memory (`determinise`), apply each candidate there and play on with every seat on the Greedy
   to the end of the round (of round 1 from the draft, of the next round from the solo
   clean-up; the game's end from the final round), the same world and the same playout seed
   for every candidate (common random numbers): whole games are too long to play out more than
   once or twice within a second;
3. a playout scores the seat's worth against its best rival, worth as the Greedy reckons it
   (its bookshelf's form with the shaping, plus its hand): in solo the rival is the Public
   Library's inspection; once the game is over, the real totals and a bonus for a win.
   Another move replaces the Greedy's only when its mean paired difference is more than
   `CONFIDENCE_Z` standard errors above zero (so a small budget plays the Greedy's move, not
   noise); moves clearly worse are dropped early.
"""

import math
import random
import time

from games.kinds.exlibris import engine
from games.kinds.exlibris.engine import scoring

from . import greedy
from .determinise import determinise, searchable
from .valuation import Outlook

DEFAULT_BUDGET_S = 1.0
ALTERNATIVES = 3  # moves tried beside the Greedy's
WIN_BONUS = 10.0  # points a won game is worth beyond its margin
PRUNE_EVERY = 6  # rounds between prunings
PRUNE_Z = 2.0  # a move is dropped once its mean + PRUNE_Z SEs is below the Greedy's
CONFIDENCE_Z = 1.0  # a move replaces the Greedy's once its mean is this many SEs above it
ROUND_CAP = 10_000  # worlds per decision whatever the budget
PLAYOUT_DRAW_SAMPLES = 2  # unseen cards pricing a blind draw in playouts (the Greedy's: 6)


class QuickOutlook(Outlook):
    """The Greedy's valuation with a blind draw priced from fewer cards: playouts run the
    Greedy thousands of times a decision, and the draw's price is most of its cost."""

    draw_samples = PLAYOUT_DRAW_SAMPLES


def decide(
    view: dict,
    memory: dict | None,
    rng: random.Random,
    budget_s: float | None = None,
    rounds: int | None = None,
) -> dict:
    """The Archivist's action. `rounds` (sampled worlds) replaces the CPU budget when given."""
    return search(view, memory, rng, budget_s, rounds)[0]


def search(
    view: dict,
    memory: dict | None,
    rng: random.Random,
    budget_s: float | None = None,
    rounds: int | None = None,
) -> tuple[dict, int]:
    """(the action, the number of worlds searched)."""
    legal = view["legal_actions"]
    if len(legal) == 1:
        return legal[0], 0
    if not searchable(view):
        return greedy.decide(view, memory, rng), 0
    candidates = candidate_moves(view, memory, rng)
    if len(candidates) == 1:
        return candidates[0], 0
    budget = DEFAULT_BUDGET_S if budget_s is None else budget_s
    deadline = time.process_time() + budget
    limit = ROUND_CAP if rounds is None else rounds
    timed = rounds is None
    me = view["seat"]
    horizon = horizon_of(view)

    count = len(candidates)
    sums, squares = [0.0] * count, [0.0] * count
    alive = list(range(1, count))
    done = 0
    while alive and done < limit and not (timed and time.process_time() >= deadline):
        world = sampled_world(view, memory, rng)
        if world is None:
            break  # plays the Greedy's move, or what the worlds so far said
        seed = rng.getrandbits(64)
        base = playout(engine.apply_action(world, me, candidates[0]), me, horizon, seed)
        diffs = {}
        for i in alive:
            if timed and time.process_time() >= deadline:
                break
            state = engine.apply_action(world, me, candidates[i])
            diffs[i] = playout(state, me, horizon, seed) - base
        if len(diffs) < len(alive):
            break  # the budget ran out mid-round: that round is not counted
        for i, diff in diffs.items():
            sums[i] += diff
            squares[i] += diff * diff
        done += 1
        if done % PRUNE_EVERY == 0:
            alive = [i for i in alive if _bound(sums[i], squares[i], done, PRUNE_Z) > 0]
    return candidates[confident_best(sums, squares, done, range(1, count))], done


def horizon_of(view: dict) -> int:
    """The last round a playout from this decision sees: the round being played (the draft's,
    round 1); the solo clean-up's, the round after it, whose tiles it chooses (X83: the round
    it ends is over)."""
    return max(view["round"], 1) + (view["pending"]["kind"] == "solo_remove")


def sampled_world(view: dict, memory: dict | None, rng: random.Random):
    """A world for the search, or None should the view and memory disagree on the cards
    (the tests find no such view; a seat at a live table must still get a move)."""
    try:
        return determinise(view, memory, rng)
    except (AssertionError, IndexError, KeyError, ValueError):
        return None


def confident_best(sums: list, squares: list, rounds: int, moves) -> int:
    """Among `moves`, the one with the best mean paired difference from the Greedy's move (0)
    that is more than CONFIDENCE_Z standard errors above zero; else 0."""
    best, best_mean = 0, 0.0
    for i in moves:
        mean = sums[i] / rounds if rounds else 0.0
        if mean > best_mean and _bound(sums[i], squares[i], rounds, -CONFIDENCE_Z) > 0:
            best, best_mean = i, mean
    return best


def _bound(total: float, squares: float, rounds: int, z: float) -> float:
    """mean + z standard errors of a paired difference (z < 0: a lower bound)."""
    if rounds < 2:
        return math.inf if z > 0 else -math.inf
    mean = total / rounds
    variance = max(squares / rounds - mean * mean, 0.0) * rounds / (rounds - 1)
    return mean + z * math.sqrt(variance / rounds)


# ---------------------------------------------------------------------------- candidates


def candidate_moves(view: dict, memory: dict | None, rng: random.Random) -> list[dict]:
    """The Greedy's move first, then up to ALTERNATIVES others it ranks best (a target or a
    tile not yet among them first); every choice of the library draft (X8, X82), which the
    Greedy makes at random."""
    legal = view["legal_actions"]
    first = greedy.decide(view, memory, random.Random(rng.getrandbits(64)))
    kind = view["pending"]["kind"]
    if kind in greedy.RANDOM_KINDS:
        return [first] + [a for a in legal if a != first]
    outlook = Outlook(view, memory, random.Random(rng.getrandbits(64)))
    scores = greedy.SCORERS.get(kind, greedy.generic_scores)(outlook, legal)
    ranked = sorted(range(len(legal)), key=lambda i: -scores[i])
    chosen = [first]
    seen = {_aim(first)}
    for i in ranked:  # distinct aims first, then the rest by rank
        if len(chosen) > ALTERNATIVES:
            break
        if _aim(legal[i]) not in seen:
            chosen.append(legal[i])
            seen.add(_aim(legal[i]))
    for i in ranked:
        if len(chosen) > ALTERNATIVES:
            break
        if legal[i] not in chosen:
            chosen.append(legal[i])
    return chosen


def _aim(action: dict):
    """What an action is about: a placement's target, a flip's cell, a tile."""
    target = action.get("target", action.get("tile", action.get("cell")))
    return (action.get("type"), str(target))


# ---------------------------------------------------------------------------- playouts


def playout(state, me: int, horizon: float, seed: int, win_bonus: float = WIN_BONUS) -> float:
    """Play on with every seat on the Greedy until the round after `horizon` starts or the game
    ends; the seat's score there (`score`)."""
    rng = random.Random(seed)
    while True:
        seats = engine.to_act(state)
        if not seats or state["round"] > horizon:
            return score(state, me, rng, win_bonus)
        seat = seats[0]
        view = engine.view(state, seat)
        action = greedy.decide(view, world_memory(state, seat), rng, QuickOutlook)
        state = engine.apply_action(state, seat, action)


def world_memory(state, seat: int) -> dict | None:
    """In solo, the Public Library the seat would remember (X83): the world's discard pile."""
    if state["players"] > 1:
        return None
    return {"seat": seat, "players": 1, "version": state["version"], "discarded": state["discard"]}


def score(state, me: int, rng: random.Random, win_bonus: float = WIN_BONUS) -> float:
    """The seat's worth less its best rival's: the totals and a win bonus once the game is
    over; before that, each bookshelf and hand as the Greedy values them, and in solo the
    Public Library's inspection as it stands."""
    if state["phase"] == "over":
        result = engine.result(state)
        share = 1 / len(result["winners"]) if me in result["winners"] else 0.0
        return final_margin(result, me) + win_bonus * share
    mine = worth(state, me, rng)
    if state["players"] == 1:
        return mine - library_total(state)
    return mine - max(worth(state, seat, rng) for seat in range(state["players"]) if seat != me)


def final_margin(result: dict, me: int) -> float:
    """The seat's final total less its best rival's (in solo, the Public Library's)."""
    if result["solo"]:
        return result["players"][0]["total"] - result["inspection"]["public_library"]["total"]
    totals = {row["seat"]: row["total"] for row in result["players"]}
    mine = totals.pop(me)
    return mine - max(totals.values())


def worth(state, seat: int, rng: random.Random) -> float:
    """A seat's bookshelf and hand as the Greedy values them, from its own view."""
    outlook = Outlook(engine.view(state, seat), world_memory(state, seat), rng)
    return outlook.base + sum(outlook.hand_value(card) for card in outlook.hand)


def library_total(state) -> int:
    """X84: the Public Library's inspection if the game ended now, its Prominent contest (B2)
    against the player's bookshelf as it stands (the player's hand is still its own)."""
    solo, player = state["solo"], state["seats"][0]
    entry = {"bookshelf": player["bookshelf"], "focus": player["focus"], "hand": []}
    working = scoring.solo_inspection(
        entry, state["discard"], solo["public_library_focus"], state["prominent"], state["banned"]
    )
    return working["public_library"]["total"]
