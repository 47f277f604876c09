"""The Abbot: flat Monte-Carlo search over sampled worlds, with fast greedy playouts.

Placements in the gift phase (R3) are its greedy choice (see SEARCHED_STEPS). For every other
decision with a real choice:
1. candidates: its greedy move first (the Scholar's code with the Abbot's weights, `ABBOT_STYLES`),
   then the others worth comparing (every pick or minimal payment; not using a
   church card and the uses rated highest; pass, or raise by one if it could be paid; the
   cards it would most readily discard);
2. until the CPU budget is spent, rounds of: draw one world consistent with the seat's view and
   memory (`determinise`: other seats' unseen cards are each their favourite of a few unknown
   cards, since players keep their best cards), apply each candidate in that world and play the
   game out with every seat on the fast greedy policy (`playout.Playout`), its own seat with its
   weights and the others the Scholar's. All candidates share the world (common random
   numbers), so their differences are far less noisy than their scores;
3. a playout scores the seat's share of the win (1, or 1/k for a k-way shared win) plus a
   little for its VP margin over the best other seat. Another move replaces the greedy one only
   when its mean paired difference is more than `CONFIDENCE_Z` standard errors above zero (so a
   small budget plays greedily, not like noise); moves clearly worse are dropped early.

A forced move (a single legal action, or a single candidate) is returned at once.
"""

import math
import random
import time

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CATEGORIES

from . import scholar
from .determinise import determinise
from .memory import Knowledge
from .novice import means
from .playout import Playout
from .valuation import SCHOLAR, Style, outlook_from_view

DEFAULT_BUDGET_S = 1.0
MARGIN_WEIGHT = 0.05  # score per VP of margin over the best other seat, next to 1 for a win
CHURCH_CANDIDATES = 3
GIVE_CANDIDATES = 3
# Another seat's unseen cards: each its favourite of this many unknown cards, by number of
# players. At four, best-of-8 hands match the true hands' category totals on average (best-of-3
# left them short by 0.4 in their strongest category); at two and three even best-of-8 leaves
# them short, and best-of-3 is what the heads-up figures were measured with.
KEEP_CHOICE = {2: 3, 3: 3, 4: 8}
PRUNE_EVERY = 8  # rounds between prunings
PRUNE_Z = 2.0  # a move is dropped once its mean + PRUNE_Z SEs is below the greedy one's
CONFIDENCE_Z = 1.0  # a move replaces the greedy one once its mean is this many SEs above it
# Placements (R3) are left to the greedy choice: the slots of one card differ by little next
# to a whole playout's noise, and searching them lost games (heads-up at 1 s, the same 40
# games: 65.0% won with placements searched, 82.5% without).
SEARCHED_STEPS = ("pick", "church", "bid", "pay", "give")
# The Abbot's own greedy weights by number of players (its first idea, and its own moves in
# playouts), tuned against Scholars with `python -m games.kinds.biblios.bench.style` and then
# checked with the search in the arena (docs/engine.md). The other seats are played the Scholar's
# way.
ABBOT_STYLES = {
    2: Style(spread_scale=1.1),  # trusts a category lead less while much is still to be dealt
    3: Style(average_card_vp=0.4),  # prices Gold a third higher: bids less, keeps Gold
    4: Style(average_card_vp=0.4, best_weight=0.0),  # and weighs the three rivals alike
}


def decide(
    view: dict,
    memory: dict | None,
    rng: random.Random,
    budget_s: float | None = None,
    rounds: int | None = None,
) -> dict:
    """The Abbot's action. `rounds` (sampled worlds) replaces the CPU budget when given."""
    legal = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    mine = ABBOT_STYLES[view["num_players"]]
    if view["awaiting"]["step"] not in SEARCHED_STEPS:
        return greedy_move(view, memory, rng, mine)
    candidates = searched_moves(view, memory, rng, mine)
    if len(candidates) == 1:
        return candidates[0]
    budget = DEFAULT_BUDGET_S if budget_s is None else budget_s
    deadline = time.process_time() + budget
    me = view["seat"]
    outlook = outlook_from_view(view, Knowledge(view, memory), mine)
    styles = [mine if seat == me else SCHOLAR for seat in range(view["num_players"])]

    # Paired differences of each candidate's score from the greedy move (candidate 0).
    count = len(candidates)
    sums, squares = [0.0] * count, [0.0] * count
    alive = list(range(1, count))
    done = 0
    while alive and (rounds is None or done < rounds):
        world, public = sampled_world(view, memory, rng, outlook)
        base = playout_score(biblios.apply_action(world, me, candidates[0]), me, public, styles)
        diffs = {}
        for i in alive:
            state = biblios.apply_action(world, me, candidates[i])
            diffs[i] = playout_score(state, me, public, styles) - base
            if rounds is None and time.process_time() > deadline:
                break
        if len(diffs) < len(alive):
            break  # the budget ran out mid-round: that round is not counted
        for i, diff in diffs.items():
            sums[i] += diff
            squares[i] += diff * diff
        done += 1
        if done % PRUNE_EVERY == 0:  # drop the moves that are clearly no better
            alive = [i for i in alive if _bound(sums[i], squares[i], done, PRUNE_Z) > 0]
        if rounds is None and time.process_time() > deadline:
            break
    return candidates[confident_best(sums, squares, done, alive)]


def confident_best(sums: list, squares: list, rounds: int, moves) -> int:
    """Among `moves`, the one with the best mean paired difference from the greedy move (0) that
    is more than CONFIDENCE_Z standard errors above zero; else 0, the greedy move."""
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


def sampled_world(view: dict, memory: dict | None, rng: random.Random, outlook) -> tuple:
    """A world consistent with the view and memory, and the cards of each of its hands the
    whole table saw go in (picks, purchases), which its players judge each other by."""
    world = determinise(view, memory, rng, outlook.want, KEEP_CHOICE[view["num_players"]])
    if memory is None:
        return world, [[] for _ in world.hands]
    public = [
        [card for card in known if card in hand]
        for known, hand in zip(memory["known"], world.hands, strict=True)
    ]
    return world, public


def playout_outcome(state: biblios.State, me: int, public: list, styles=None) -> tuple:
    """Play to the end the greedy way: the seat's win share, and its VP margin over the best
    other seat."""
    outcome = Playout(state, public=public, styles=styles).run()
    winners = outcome["winners"]
    vp = [player["vp"] for player in outcome["players"]]
    margin = vp[me] - max(v for seat, v in enumerate(vp) if seat != me)
    return (1 / len(winners) if me in winners else 0.0), margin


def playout_score(state: biblios.State, me: int, public: list, styles=None) -> float:
    """What the search maximises: the win share plus a little for the margin."""
    share, margin = playout_outcome(state, me, public, styles)
    return share + MARGIN_WEIGHT * margin


def greedy_move(view: dict, memory: dict | None, rng: random.Random, mine: Style) -> dict:
    """The Scholar's choice with the Abbot's weights."""
    return scholar.decide(view, memory, random.Random(rng.getrandbits(64)), mine)


def searched_moves(view: dict, memory: dict | None, rng: random.Random, mine: Style) -> list[dict]:
    """The moves worth searching, the greedy choice first."""
    legal = view["legal_actions"]
    first = greedy_move(view, memory, rng, mine)
    step = view["awaiting"]["step"]
    if step in ("pick", "pay"):
        others = [a for a in legal if a["type"] != "refuse"]
    elif step == "bid":  # stay in at the lowest raise, if it could be paid, or pass
        raised = view["auction"]["high_bid"] + 1
        others = [{"type": "pass"}] + (
            [{"type": "bid", "amount": raised}] if raised <= means(view) else []
        )
    else:
        outlook = outlook_from_view(view, Knowledge(view, memory), mine)
        me = view["seat"]
        if step == "church":
            card = view["church"]["card"]
            uses = sorted(outlook.church_uses(card), key=lambda u: -outlook.dice_effect(me, u))
            others = [{"type": "discard_church"}] + [
                {"type": "use_church", "dice": [CATEGORIES[c] for c, _ in use], "delta": use[0][1]}
                for use in uses[:CHURCH_CANDIDATES]
            ]
        else:  # give
            hand = sorted(view["hand"], key=lambda card: outlook.keep_value(me, card))
            others = [{"type": "give", "card": card} for card in hand[:GIVE_CANDIDATES]]
            if not any(a["type"] == "give" for a in legal):
                others = legal
    ordered = [first] + [a for a in others if a != first and a in legal]
    return [a for a in ordered if a in legal] or [first]
