"""The review of a game (`games.analysis.review`), for every kind that has one: every graded
decision names a legal best move and the grade its loss earns, a grade never changes when the
cards its mover could not know are dealt anew, and one decision reviewed alone gives the answer
the whole review gave it. Its "what if" branches (`games.analysis.what_if`) play on to the end
by the rules, from what their mover knew alone."""

import copy
import json
import random
from types import SimpleNamespace

import pytest

from games.analysis import review, what_if
from games.analysis.selectors import strings_in

from .conftest import KINDS, play

REVIEWED = {slug: kind for slug, kind in KINDS.items() if kind.review is not None}
ROUNDS = 2  # sampled worlds per decision: enough to exercise every path, not to judge well
SAMPLED = 3  # graded decisions checked per game


def tables():
    return [
        pytest.param(kind, players, id=f"{slug}-{players}p")
        for slug, kind in REVIEWED.items()
        for players in kind.engine.PLAYER_COUNTS
    ]


def random_game(kind, players: int):
    engine = kind.engine
    state = engine.new_game(players, seed=players, variant=kind.default_variant, options={})
    return play(engine, state, random.Random(f"review/{players}"))


def graded_decisions(kind, players: int, states, moves) -> list[tuple[dict, dict, dict]]:
    """(view, memory, action made) at each decision the kind grades, each seat's memory built
    from the events it saw, as the review builds it."""
    engine, bots = kind.engine, kind.bots
    memories = [bots.new_memory(seat, players) for seat in range(players)]
    found = []
    for index, (seat, action) in enumerate(moves):
        for reader, memory in enumerate(memories):
            bots.observe(
                memory, {"version": index, "events": engine.events_for(states[index], reader)}
            )
        view = engine.view(states[index], seat)
        memory = copy.deepcopy(memories[seat])
        if kind.review.moves(view, copy.deepcopy(memory), random.Random(0)):
            found.append((view, memory, action))
    return found


@pytest.mark.parametrize("kind, players", tables())
def test_a_review_knows_its_worlds_at_every_table(kind, players):
    """Every player count a kind seats has its worlds (`Reviewer.worlds_for`): a review asked
    for a table the kind's `worlds` forgot would fail in the queue, not here."""
    worlds = kind.review.worlds_for(players)
    assert isinstance(worlds, int) and worlds >= 1


@pytest.mark.parametrize("kind, players", tables())
def test_a_graded_decision_names_a_legal_best_move_and_the_grade_its_loss_earns(kind, players):
    states, moves = random_game(kind, players)
    decisions = graded_decisions(kind, players, states, moves)
    assert decisions, "a whole game without one decision the review grades"
    for view, memory, action in random.Random(1).sample(decisions, min(SAMPLED, len(decisions))):
        found = review.review_decision(kind, view, memory, action, ROUNDS, seed=5)
        legal = view["legal_actions"]
        assert found.action == action and found.seat == view["seat"]
        assert found.best in legal, (found.best, legal)
        assert found.move == view["version"] + 1
        assert found.loss >= 0
        if found.best == action:
            assert found.loss == 0 and found.grade == "best"
        else:
            confident = found.loss - review.CONFIDENCE_Z * found.error
            assert found.grade == review.grade(confident, kind.review.thresholds)
        sign = -1 if kind.review.lower_is_better else 1
        assert sign * (found.best_result - found.made_result) == pytest.approx(found.loss)


@pytest.mark.parametrize("kind, players", tables())
def test_a_grade_does_not_change_when_the_cards_its_mover_could_not_know_are_redrawn(kind, players):
    """Fairness: a decision is judged from its mover's knowledge, so the review of it is the same
    in any deal its mover could not tell from the real one (`redraw_hidden`), and from the plain
    JSON of its view and memory (nothing else rides along with them)."""
    engine = kind.engine
    states, moves = random_game(kind, players)
    by_version = {engine.view(state, None)["version"]: state for state in states}
    decisions = graded_decisions(kind, players, states, moves)
    rng = random.Random(2)
    for view, memory, action in rng.sample(decisions, min(SAMPLED, len(decisions))):
        state, seat = by_version[view["version"]], view["seat"]
        redrawn = engine.view(engine.redraw_hidden(state, seat, rng), seat)
        plain = json.loads(json.dumps(view))
        found = [
            review.review_decision(kind, seen, copy.deepcopy(memory), action, ROUNDS, seed=9)
            for seen in (view, redrawn, plain)
        ]
        assert found[0] == found[1] == found[2], view["version"]


@pytest.mark.parametrize("kind, players", tables())
def test_two_reviews_compare_the_same_moves_and_differ_only_in_their_worlds(kind, players):
    """Which moves a decision's review compares is drawn from the decision's place alone, not
    from the review's seed: two reviews of a game, as two requests for it get, weigh the same
    moves, so only the noise of their sampled worlds can part their grades."""
    states, moves = random_game(kind, players)
    decisions = graded_decisions(kind, players, states, moves)
    many = [found for found in decisions if len(found[0]["legal_actions"]) > 6] or decisions
    for view, memory, action in random.Random(3).sample(many, min(SAMPLED, len(many))):
        compared = [
            [other["action"] for other in found.alternatives]
            for found in (
                review.review_decision(kind, view, copy.deepcopy(memory), action, 1, seed=seed)
                for seed in ("first", "second")
            )
        ]
        assert compared[0] == compared[1], view["version"]


@pytest.mark.parametrize("slug", ["biblios"])
def test_the_whole_review_grades_every_decision_in_order_and_sums_each_seat(slug):
    """A whole heads-up game: the decisions come in the log's order, progress counts up to the
    decisions with a choice, each seat's counts add up to its graded decisions, and any decision
    reviewed again alone gives the grade the whole review gave it."""
    kind = REVIEWED[slug]
    states, moves = random_game(kind, 2)
    seen = []
    found = review.review_game(
        kind,
        kind.engine.setup_of(states[0]),
        moves,
        2,
        rounds=1,
        seed=3,
        progress=lambda done, total: seen.append((done, total)),
    )
    numbers = [decision.move for decision in found.decisions]
    assert numbers == sorted(set(numbers)) and numbers
    asked = zip(states, moves, strict=False)  # the last state, the end, asks nothing
    chosen = sum(len(kind.engine.legal_actions(s, seat)) > 1 for s, (seat, _) in asked)
    assert seen == [(done, chosen) for done in range(1, chosen + 1)]
    for decision in found.decisions:
        assert moves[decision.move - 1] == (decision.seat, decision.action)
    result = kind.engine.result(states[-1])
    for summary in found.seats:
        mine = [d for d in found.decisions if d.seat == summary.seat]
        assert sum(summary.grades.values()) == len(mine)
        assert 0 <= summary.accuracy <= 100
        # Luck apart from skill: from the first decision's expectation to the final place, the
        # seat's own losses and the rest (the cards, the other player) add up.
        place = next(row["place"] for row in result["players"] if row["seat"] == summary.seat)
        assert summary.final == place and summary.start == mine[0].best_result
        assert summary.choices == pytest.approx(sum(d.loss for d in mine))
        assert -(summary.final - summary.start) == pytest.approx(summary.luck - summary.choices)
    json.dumps(found.as_data())
    alone = graded_decisions(kind, 2, states, moves)[len(found.decisions) // 2]
    again = review.review_decision(kind, *alone[:2], alone[2], 1, seed=3)
    assert again in found.decisions


def test_grades_follow_the_thresholds_and_accuracy_falls_with_the_loss():
    thresholds = (0.1, 0.2, 0.3)
    losses = (-1, 0, 0.04, 0.05, 0.09, 0.1, 0.2, 0.3, 2)
    assert [review.grade(loss, thresholds) for loss in losses] == [
        *["best"] * 3,  # within half an inaccuracy of the best found
        *["good"] * 2,
        "inaccuracy",
        "mistake",
        *["blunder"] * 2,
    ]
    accuracies = [review.move_accuracy(loss, 0.3) for loss in (0, 0.1, 0.3, 1, 10)]
    assert accuracies == sorted(accuracies, reverse=True)
    assert accuracies[0] == 100 and accuracies[-1] == 0
    assert 45 < review.move_accuracy(0.3, 0.3) < 55  # a blunder-sized loss, as Lichess rates one


def fixed_kind(gains: tuple[float, float]):
    """A kind whose other move gains, over the move made, `gains[0]` and `gains[1]` in turn, world
    after world (no noise of its own: the loss is their mean, its error shrinks with the worlds),
    and which counts the worlds each call draws and the rngs it is handed."""
    calls = []

    def results(view, memory, actions, rng, rounds):
        calls.append((rounds, rng))
        drawn = sum(count for count, _ in calls) - rounds
        other = [gains[(drawn + world) % 2] for world in range(rounds)]
        return [[0.0] * rounds, other]

    reviewer = SimpleNamespace(
        lower_is_better=False,
        thresholds=(1.0, 2.0, 4.0),
        more_worlds=6,
        moves=lambda view, memory, rng: [{"other": True}],
        results=results,
    )
    return SimpleNamespace(review=reviewer), calls


def test_a_loss_near_a_grade_boundary_draws_more_worlds_and_a_clear_one_does_not():
    """Sequential sampling: a loss whose grade the worlds' noise could turn (a mean gain of 1,
    the inaccuracy threshold) draws `rounds` more worlds, from the same rng, up to `more_worlds`
    times `rounds`, and is graded from all of them; a loss far from every boundary (10, beyond
    the blunder's 4) costs `rounds` worlds only."""
    view, rounds = {"version": 7, "seat": 0}, 10
    near, calls = fixed_kind((0.0, 2.0))
    found = review.review_decision(near, view, {}, {"made": True}, rounds, seed=1)
    assert [count for count, _ in calls] == [rounds] * near.review.more_worlds
    assert len({id(rng) for _, rng in calls}) == 1
    worlds = rounds * near.review.more_worlds
    assert found.loss == 1.0 and found.error == pytest.approx(1 / (worlds - 1) ** 0.5)
    assert found.grade == "good"  # 1 less its error, just short of the inaccuracy threshold
    far, calls = fixed_kind((9.0, 11.0))
    found = review.review_decision(far, view, {}, {"made": True}, rounds, seed=1)
    assert [count for count, _ in calls] == [rounds]
    assert found.loss == 10.0 and found.grade == "blunder"


def test_more_worlds_weigh_only_the_moves_that_may_still_be_found_the_best():
    """A move far below the best found (10 points under the move made, world after world) is
    not weighed in the more worlds a decision near a boundary draws: each world costs a playout
    per move weighed, and it could change neither the loss nor the grade. The move made and the
    best found are weighed in every world."""
    weighed = []

    def results(view, memory, actions, rng, rounds):
        weighed.append([next(iter(action)) for action in actions])
        drawn = rounds * (len(weighed) - 1)
        gains = {"made": 0.0, "near": None, "poor": -10.0}
        return [
            [
                (world % 2) * 2.0 if gains[name] is None else gains[name]
                for world in range(drawn, drawn + rounds)
            ]
            for name in weighed[-1]
        ]

    reviewer = SimpleNamespace(
        lower_is_better=False,
        thresholds=(1.0, 2.0, 4.0),
        more_worlds=6,
        moves=lambda view, memory, rng: [{"near": True}, {"poor": True}],
        results=results,
    )
    view, rounds = {"version": 7, "seat": 0}, 10
    found = review.review_decision(
        SimpleNamespace(review=reviewer), view, {}, {"made": True}, rounds, seed=1
    )
    assert weighed == [["made", "near", "poor"]] + [["made", "near"]] * (reviewer.more_worlds - 1)
    assert found.best == {"near": True} and found.loss == 1.0 and found.grade == "good"
    assert [alt["result"] for alt in found.alternatives] == [0.0, 1.0, -10.0]


@pytest.mark.parametrize("kind, players", tables())
def test_the_first_event_of_a_graded_move_names_nothing_its_mover_could_not_see(kind, players):
    """The review page tells the best move found by the first event the engine gives its mover
    after it: at every decision the review grades, that event must say the move from what the
    mover saw, never a name hidden from them (any in the whole state that their view lacks)."""
    engine = kind.engine
    states, moves = random_game(kind, players)
    checked = 0
    for index, (seat, _) in enumerate(moves):
        state = states[index]
        view = engine.view(state, seat)
        if not kind.review.moves(view, None, random.Random(0)):
            continue
        seen = strings_in(json.loads(json.dumps(view)))
        hidden = strings_in(json.loads(engine.dumps(state))) - seen
        for action in view["legal_actions"]:
            first = engine.events_for(engine.apply_action(state, seat, action), seat)[:1]
            assert not strings_in(first) & hidden, (
                index,
                action,
                first,
                strings_in(first) & hidden,
            )
            checked += 1
    assert checked


@pytest.mark.parametrize("kind, players", tables())
def test_a_what_if_branch_plays_the_move_asked_then_legal_moves_to_the_end(kind, players):
    """From the log as it was, with another move at a graded decision: the branch begins with
    that move, every later move passes the engine's checks (`apply_action` refuses an illegal
    one), it ends with every seat placed, and a move that was not legal there is refused."""
    engine = kind.engine
    states, moves = random_game(kind, players)
    decisions = graded_decisions(kind, players, states, moves)
    setup = engine.setup_of(states[0])
    for view, _, action in random.Random(3).sample(decisions, min(SAMPLED, len(decisions))):
        other = next((a for a in view["legal_actions"] if a != action), action)
        move = view["version"] + 1
        branch = what_if.play_on(kind, setup, moves, players, move, other, seed=4)
        assert branch.move == move and branch.action == other and branch.seat == view["seat"]
        assert branch.steps[0][0] == view["seat"]
        assert sorted(row["seat"] for row in branch.result["players"]) == list(range(players))
        again = what_if.play_on(kind, setup, moves, players, move, other, seed=4)
        assert again == branch  # one seed, one world: the page can show it again
    view, _, action = decisions[0]
    with pytest.raises(ValueError, match="not legal"):
        what_if.play_on(kind, setup, moves, players, view["version"] + 1, {"type": "nonsense"}, 4)
    with pytest.raises(ValueError, match="no such move"):
        what_if.play_on(kind, setup, moves, players, len(moves) + 1, action, 4)


@pytest.mark.parametrize("kind, players", tables())
def test_a_what_if_branch_does_not_change_when_the_cards_its_mover_could_not_know_are_redrawn(
    kind, players
):
    """Fairness and secrecy: a branch is played in a world sampled from its mover's view and
    memory, so it is the same in any deal its mover could not tell from the real one: it can
    show nothing of the true hidden cards."""
    engine = kind.engine
    states, moves = random_game(kind, players)
    by_version = {engine.view(state, None)["version"]: state for state in states}
    decisions = graded_decisions(kind, players, states, moves)
    rng = random.Random(6)
    for view, memory, action in rng.sample(decisions, min(SAMPLED, len(decisions))):
        state, seat = by_version[view["version"]], view["seat"]
        redrawn = engine.view(engine.redraw_hidden(state, seat, rng), seat)
        branches = [
            what_if.branch_from(kind, seen, copy.deepcopy(memory), action, players, seed=7)
            for seen in (view, redrawn, json.loads(json.dumps(view)))
        ]
        assert branches[0] == branches[1] == branches[2], view["version"]
