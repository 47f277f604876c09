"""What the review page of a finished game shows one reader: whether it was asked for and how
far it is, each seat's accuracy and grades, and the reader's own costly decisions
(inaccuracies, mistakes, blunders) in the game log's words.

A decision is told with the same log lines as the game: the move made is its step's events as
the reader's seat saw them, and the best move found is the first event the engine gives that
seat after playing it instead (`events_for`, the engine's per-seat door). Only the first: it
says the move itself, from what the seat saw when deciding, while the events after it would
tell what the move then revealed (the next card drawn, say), which in the game as played may
never have been seen (tests/kinds/test_review.py checks this of every kind). Other seats'
decisions are only counted here.
"""

import math
from dataclasses import dataclass

from django.utils.translation import gettext, pgettext_lazy

from biblios_site import errors
from games import access
from games.analysis import selectors
from games.analysis.review import GRADES
from games.history import folded
from games.kinds import registry
from games.models import Analysis, Game
from games.play import selectors as play_selectors

GRADE_LABELS = {
    "best": pgettext_lazy("review grade", "Best"),
    "good": pgettext_lazy("review grade", "Good"),
    "inaccuracy": pgettext_lazy("review grade", "Inaccuracy"),
    "mistake": pgettext_lazy("review grade", "Mistake"),
    "blunder": pgettext_lazy("review grade", "Blunder"),
}


# The grades the page tells one by one: where the reader lost something worth saying.
LOST_POINTS = ("inaccuracy", "mistake", "blunder")
# The grades "learn from your mistakes" (`learning`) takes the player back to.
PRACTISED = ("mistake", "blunder")


@dataclass(frozen=True)
class ChartLine:
    name: str
    mine: bool
    dash: str  # the line's stroke-dasharray: seats told apart without colour
    points: str  # the polyline's "x,y x,y …"
    marks: list  # (x, y, grade, grade label, move) of its costly decisions


@dataclass(frozen=True)
class ResultChart:
    """Each seat's expected result after each of its decisions, over the game: an SVG line
    chart in a fixed viewBox the page scales to fit, better upwards."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    lines: list
    y_ticks: list  # (y, value)
    moves: int


DASHES = ("", "6 3", "2 3", "8 3 2 3")


@dataclass(frozen=True)
class Told:
    """One of the reader's graded decisions, in words."""

    move: int
    grade: str
    grade_label: str
    made: list  # the events of the move made, as the reader's log shows them
    best: list | None  # the best move found as its first event; None: it was the move made
    loss: float


def review_context(game: Game, visitor: access.Visitor) -> dict:
    """The page's context; raises NotAllowed for a reader who may not read the game's record."""
    refusal = access.record_refusal(game, visitor)
    if refusal is not None:
        raise errors.NotAllowed(refusal)
    kind = registry.of(game)
    analysis = Analysis.objects.filter(game=game).first()
    names = play_selectors.seat_names(game)
    context = {
        "game": game,
        "analysis": analysis,
        "reviewable": kind.review is not None and game.status == Game.Status.FINISHED,
        "may_ask": visitor.person is not None,
        "names": names,
        "me": visitor.seat,
        "board_template": kind.board_template,
        "grade_labels": [GRADE_LABELS[grade] for grade in GRADES],
    }
    if analysis is None:
        return context
    context["status_line"] = status_line(analysis, selectors.queue_position(analysis))
    if analysis.status != Analysis.Status.DONE:
        return context
    data = analysis.result  # every seat's figures are public; no action is shown from it here
    context["measure"] = kind.review.measure  # in the reader's language
    context["lower_is_better"] = kind.review.lower_is_better
    context["seats"] = [
        {
            "name": names[summary["seat"]],
            "mine": summary["seat"] == visitor.seat,
            "accuracy": summary["accuracy"],
            "counts": [summary["grades"][grade] for grade in GRADES],
            "choices": summary["choices"],
            "luck": summary["luck"],
        }
        for summary in data["seats"]
    ]
    context["chart"] = result_chart(
        data["decisions"], names, visitor.seat, kind.review.lower_is_better, game.version
    )
    if visitor.seat is not None:
        mine = [
            d
            for d in analysis.result["decisions"]
            if d["seat"] == visitor.seat and d["grade"] in LOST_POINTS
        ]
        context["decisions"] = told(game, visitor.seat, mine)
        context["practice"] = sum(d["grade"] in PRACTISED for d in mine)
    return context


def result_chart(
    decisions: list[dict], names: list[str], me, lower_is_better: bool, moves: int
) -> ResultChart:
    """Where to draw each seat's expected result after its decisions (the move made's), its
    inaccuracies, mistakes and blunders marked."""
    width, height = 400, 180
    left, right, top, bottom = 40, 392, 8, 172
    values = [d["made_result"] for d in decisions] or [0.0]
    if lower_is_better:  # places: 1 (the best) at the top, the last place at the bottom
        low, high = 1.0, float(max(len(names), 2))
    else:
        low, high = math.floor(min(values)), math.ceil(max(values))
        high = max(high, low + 1)

    def x(move: int) -> float:
        return round(left + (move - 1) / max(moves - 1, 1) * (right - left), 1)

    def y(value: float) -> float:
        share = (value - low) / (high - low)
        if lower_is_better:
            share = 1 - share
        return round(bottom - share * (bottom - top), 1)

    lines = []
    for seat, name in enumerate(names):
        mine = [d for d in decisions if d["seat"] == seat]
        lines.append(
            ChartLine(
                name=name,
                mine=seat == me,
                dash=DASHES[seat % len(DASHES)],
                points=" ".join(f"{x(d['move'])},{y(d['made_result'])}" for d in mine),
                marks=[
                    (
                        x(d["move"]),
                        y(d["made_result"]),
                        d["grade"],
                        GRADE_LABELS[d["grade"]],
                        d["move"],
                    )
                    for d in mine
                    if d["grade"] in LOST_POINTS
                ],
            )
        )
    ticks = [low + (high - low) * k / 4 for k in range(5)]
    y_ticks = [(y(value), round(value, 1)) for value in ticks]
    return ResultChart(width, height, left, right, top, bottom, lines, y_ticks, moves)


def told(game: Game, seat: int, decisions: list[dict]) -> list[Told]:
    """The seat's decisions in the log's words, worst first."""
    engine = registry.of(game).engine
    steps = folded.game_steps(game, seat)
    states = folded.game_states(game)
    found = []
    for decision in sorted(decisions, key=lambda d: (-d["loss"], d["move"])):
        best = None
        if decision["best"] != decision["action"]:
            best = first_event(engine, states[decision["move"] - 1], seat, decision["best"])
        found.append(
            Told(
                move=decision["move"],
                grade=decision["grade"],
                grade_label=str(GRADE_LABELS[decision["grade"]]),
                made=steps[decision["move"]],
                best=best,
                loss=decision["loss"],
            )
        )
    return found


def first_event(engine, state, seat: int, action: dict) -> list:
    """A move the seat could have made, told by the first event it would have seen: the move
    itself, never what it would then have uncovered (see the module's docstring)."""
    return engine.events_for(engine.apply_action(state, seat, action), seat)[:1]


def status_line(analysis: Analysis, queue_position: int | None) -> str:
    """Where the analysis stands, in a sentence."""
    if analysis.status == Analysis.Status.QUEUED:
        return gettext("Waiting its turn: number %(place)d in the queue.") % {
            "place": queue_position or 1
        }
    if analysis.status == Analysis.Status.RUNNING:
        if not analysis.total:
            return gettext("Analysing…")
        return gettext("Analysing: %(done)d of %(total)d decisions.") % {
            "done": analysis.done,
            "total": analysis.total,
        }
    if analysis.status == Analysis.Status.FAILED:
        return gettext("The review could not be finished. You may ask for it again.")
    return ""


def graded_moves(game: Game) -> dict:
    """The grade of each graded move of the game's finished review, by move number, for the
    admin's inspector: {move: (grade label, loss)}; {} before the review is done."""
    analysis = Analysis.objects.filter(game=game, status=Analysis.Status.DONE).first()
    if analysis is None:
        return {}
    return {
        d["move"]: (str(GRADE_LABELS[d["grade"]]), d["loss"]) for d in analysis.result["decisions"]
    }
