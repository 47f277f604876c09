"""The review of a finished game: every decision of every seat graded by the game's strongest
bot, from what that seat knew when it decided.

Why this shape (docs/review.md): with hidden cards, a decision is judged over
worlds sampled from the mover's own view and memory, never over the true deal, or luck would
be graded as skill. At each decision the kind's `Reviewer` names the moves worth comparing and
estimates, in the same sampled worlds for all of them, the seat's final result after each; the
best found is the one with the best mean, the loss is how far the move made fell short of it,
and the kind's thresholds turn the loss into a grade. A loss within the noise of a grade
boundary draws more worlds (up to the kind's `Reviewer.more_worlds` times as many), so that two
reviews agree on it. A decision's sampling seed is drawn from the review's seed and the
decision's place in the log, so any one decision can be reviewed again alone and gives the same
answer; the moves it compares are drawn from its place alone, so two reviews weigh the same
moves and only their worlds differ.

Pure: a game's setup and move log in, plain data out; the job queue and pages build on it.
"""

import copy
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

GRADES = ("best", "good", "inaccuracy", "mistake", "blunder")
# Lichess' move accuracy from the drop in winning chances (AccuracyPercent.scala), its blunder
# threshold (a drop of 15 points in winning percentage) lined up with each game's own.
BLUNDER_DROP = 15.0
# A move is graded by its loss less this many standard errors (never below 0): a verdict the
# sampled worlds support, not their noise (GTO Wizard's "no solution" rather than a guess). A
# move whose loss is within the noise of the best found is graded the best.
CONFIDENCE_Z = 1.0
AS_GOOD_AS_BEST = 0.5  # of the inaccuracy threshold: a smaller loss is graded the best
# Sequential sampling: a graded loss (less CONFIDENCE_Z errors) within NEAR standard errors of a
# grade boundary is graded one way or the other by the luck of the worlds drawn, so two reviews
# with different seeds disagree on it; only a smaller error makes them agree. Such a decision
# draws `rounds` more worlds, and again, until it is clear of every boundary or has drawn its
# kind's `more_worlds` times `rounds` (four times the worlds halve the error, eight take it to a
# third), at up to that many times the cost of the decisions in doubt, less for the moves the
# more worlds no longer weigh (PRUNE_Z), while the clear ones cost no more than before
# (docs/review.md's figures). NEAR is 1.5 rather than 1 because the graded loss rises as the
# error shrinks (less of it is taken off): a decision that stops early must stay clear of the
# boundary as another review's more worlds would see it.
NEAR = 1.5
# The more worlds weigh only the move made and the moves that may still be found the best
# (within PRUNE_Z paired errors of it): a move clearly worse changes neither the loss nor the
# grade, and each move weighed costs a playout a world.
PRUNE_Z = 3.0


@dataclass(frozen=True)
class Decision:
    """One graded decision: the move numbered `move` (1 the first of the log), made by `seat`."""

    move: int
    seat: int
    action: dict
    best: dict
    made_result: float  # the expected result of the move made, in the kind's measure
    best_result: float
    loss: float  # how far the move made fell short of the best found (0 or more)
    error: float | None  # the loss's standard error over the worlds (None from one world)
    grade: str  # of the loss less CONFIDENCE_Z errors
    # Every move compared, the one made first: {"action", "result"} (its expected result).
    alternatives: list


@dataclass(frozen=True)
class SeatSummary:
    """A seat's play in figures, and luck told apart from skill (in the kind's measure).

    From the expected result at its first graded decision (`start`, the best move's) to what it
    came to (`final`), the seat's result moved by `choices` (what its own moves lost: the sum of
    their losses) and by `luck`, the rest: the cards, deals and dice, and the other players'
    moves. `luck` is positive when they helped it, in the measure's better direction."""

    seat: int
    accuracy: float  # 0 to 100: the mean of its decisions' accuracies
    grades: dict  # grade -> count, every grade named
    start: float | None  # None: the seat had no graded decision
    final: float
    choices: float
    luck: float | None


@dataclass(frozen=True)
class Review:
    measure: str
    decisions: list[Decision]
    seats: list[SeatSummary]

    def as_data(self) -> dict:
        return {
            "measure": self.measure,
            "decisions": [asdict(decision) for decision in self.decisions],
            "seats": [asdict(seat) for seat in self.seats],
        }


def review_game(
    kind,
    setup: dict,
    moves: Iterable[tuple[int, dict]],
    players: int,
    *,
    rounds: int,
    seed: int | str,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Grade every decision of the log `moves` (seat, action) dealt from `setup` for `players`
    seats, each estimated over `rounds` sampled worlds; `progress(done, total)` after each
    decision that had a choice."""
    engine, reviewer = kind.engine, kind.review
    moves = list(moves)
    states = list(engine.steps(setup, moves))
    memories = [kind.bots.new_memory(seat, players) for seat in range(players)]
    chosen = [
        index
        for index, (seat, _) in enumerate(moves)
        if len(engine.legal_actions(states[index], seat)) > 1
    ]
    decisions, done = [], 0
    for index, (seat, action) in enumerate(moves):
        for reader, memory in enumerate(memories):
            events = engine.events_for(states[index], reader)
            kind.bots.observe(memory, {"version": index, "events": events})
        if index not in chosen:
            continue
        view = engine.view(states[index], seat)
        found = review_decision(kind, view, memories[seat], action, rounds, seed)
        if found is not None:
            decisions.append(found)
        done += 1
        if progress:
            progress(done, len(chosen))
    result = engine.result(states[-1])
    return Review(str(reviewer.measure), decisions, summaries(kind, decisions, players, result))


def review_decision(
    kind, view: dict, memory: dict, action: dict, rounds: int, seed: int | str
) -> Decision | None:
    """The grade of `view`'s seat playing `action`, from that view and its `memory` alone; None
    when the kind does not grade this decision."""
    reviewer = kind.review
    place = view["version"]
    candidates = reviewer.moves(view, copy.deepcopy(memory), random.Random(f"moves/{place}"))
    if not candidates:
        return None
    actions = [action] + [other for other in candidates if other != action]
    sign = -1.0 if reviewer.lower_is_better else 1.0
    results = [[] for _ in actions]
    contenders = range(len(actions))  # the moves still weighed: all of them in the first worlds
    rng = random.Random(f"{seed}/{place}")
    while True:  # the same rng goes on: more worlds, the same for every contender
        weighed = [actions[i] for i in contenders]
        more = reviewer.results(view, copy.deepcopy(memory), weighed, rng, rounds)
        for i, extra in zip(contenders, more, strict=True):
            results[i] += extra
        means = [sum(found) / len(found) for found in results]
        best = max(contenders, key=lambda i: (sign * means[i], -i))
        loss = sign * (means[best] - means[0]) if best else 0.0
        error = paired_error(results[best], results[0]) if best else 0.0
        confident = loss - CONFIDENCE_Z * (error or 0.0)
        enough = len(results[0]) >= reviewer.more_worlds * rounds
        if enough or not near_a_boundary(confident, error or 0.0, reviewer.thresholds):
            break
        contenders = [i for i in contenders if i in (0, best) or _contends(results, i, best, sign)]
    return Decision(
        move=view["version"] + 1,
        seat=view["seat"],
        action=action,
        best=actions[best],
        made_result=means[0],
        best_result=means[best],
        loss=loss,
        error=error,
        grade=grade(confident, reviewer.thresholds),
        alternatives=[
            {"action": other, "result": mean} for other, mean in zip(actions, means, strict=True)
        ],
    )


def _contends(results: list[list[float]], move: int, best: int, sign: float) -> bool:
    """Whether `move` may still be found the best: its mean within PRUNE_Z paired errors of
    the best's, over the worlds both were weighed in."""
    gap = sign * (sum(results[best]) - sum(results[move])) / len(results[best])
    error = paired_error(results[best], results[move])
    return error is None or gap < PRUNE_Z * error


def grade(loss: float, thresholds: tuple[float, float, float]) -> str:
    """The grade of a loss (its lower bound) against the kind's thresholds: "best" within
    half an inaccuracy of the best found (the sampled worlds cannot tell such moves apart
    from one review to the next; Lichess accepts a retry within a third of an inaccuracy)."""
    inaccuracy, mistake, blunder = thresholds
    if loss < inaccuracy * AS_GOOD_AS_BEST:
        return "best"
    if loss >= blunder:
        return "blunder"
    if loss >= mistake:
        return "mistake"
    return "inaccuracy" if loss >= inaccuracy else "good"


def near_a_boundary(loss: float, error: float, thresholds: tuple[float, float, float]) -> bool:
    """Whether a graded loss is within NEAR standard errors of a boundary between two grades,
    where the worlds drawn rather than the move decide its grade."""
    inaccuracy, mistake, blunder = thresholds
    bounds = (inaccuracy * AS_GOOD_AS_BEST, inaccuracy, mistake, blunder)
    return any(abs(loss - bound) < NEAR * error for bound in bounds)


def move_accuracy(loss: float, blunder: float) -> float:
    """0 to 100 for one decision: Lichess' curve, a loss of the kind's blunder threshold read
    as Lichess' blunder (15 points of winning percentage), which it rates about 51."""
    drop = BLUNDER_DROP * loss / blunder
    return min(max(103.1668 * math.exp(-0.04354 * drop) - 3.1669 + 1, 0.0), 100.0)


def summaries(kind, decisions: list[Decision], players: int, result: dict) -> list[SeatSummary]:
    """Each seat's accuracy (the mean of its decisions'), its count of each grade, and what its
    choices and its luck did to its result (`SeatSummary`)."""
    reviewer = kind.review
    sign = -1.0 if reviewer.lower_is_better else 1.0
    found = []
    for seat in range(players):
        mine = [decision for decision in decisions if decision.seat == seat]
        counts = Counter(decision.grade for decision in mine)
        blunder = reviewer.thresholds[2]
        accuracy = sum(move_accuracy(d.loss, blunder) for d in mine) / len(mine) if mine else 100.0
        final = reviewer.final(result, seat)
        choices = sum(decision.loss for decision in mine)
        start = mine[0].best_result if mine else None
        luck = None if start is None else sign * (final - start) + choices
        found.append(
            SeatSummary(
                seat,
                round(accuracy, 1),
                {g: counts[g] for g in GRADES},
                start=start,
                final=final,
                choices=round(choices, 3),
                luck=None if luck is None else round(luck, 3),
            )
        )
    return found


def paired_error(first: list[float], second: list[float]) -> float | None:
    """The standard error of the mean of first - second, sample by sample (None for one)."""
    count = len(first)
    if count < 2:
        return None
    diffs = [a - b for a, b in zip(first, second, strict=True)]
    mean = sum(diffs) / count
    variance = sum((d - mean) ** 2 for d in diffs) / (count - 1)
    return math.sqrt(variance / count)
