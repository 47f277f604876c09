"""Learn from your mistakes: the review takes a player back to each of their mistakes and
blunders and asks for a better move, which the bot's own figures judge.

The choices are the moves the review compared at that decision (the move made among them), each
told by the first event its player would have seen, in an order fixed per decision so the bot's
choice is not always first. A choice is accepted when its expected result is within
`ACCEPTED_WITHIN` of an inaccuracy of the best found, as Lichess accepts a retry within 0.035 of
the engine's move (a third of its inaccuracy). Which decisions a player solved is kept in their
session: practice, not a record.
"""

import random
from dataclasses import dataclass

from django.utils.translation import gettext

from biblios_site import errors
from games import access
from games.analysis import review_page
from games.analysis.review import AS_GOOD_AS_BEST
from games.history import folded
from games.kinds import registry
from games.models import Analysis, Game

PRACTISED = review_page.PRACTISED
ACCEPTED_WITHIN = AS_GOOD_AS_BEST  # of the kind's inaccuracy threshold


@dataclass(frozen=True)
class Exercise:
    number: int  # 1 for the first of the player's exercises
    move: int
    grade_label: str
    made: list  # the events of the move played
    choices: list  # (index into the decision's alternatives, its first event)


def exercises_of(game: Game, visitor: access.Visitor) -> list[dict]:
    """The visitor's mistakes and blunders in the game's order; NotAllowed unless they played
    this game and its review is done."""
    if visitor.seat is None or visitor.person is None:
        raise errors.NotAllowed(gettext("only the game's players learn from its review"))
    analysis = Analysis.objects.filter(game=game, status=Analysis.Status.DONE).first()
    if analysis is None:
        raise errors.NotFound(gettext("this game's review is not done yet"))
    return [
        decision
        for decision in analysis.result["decisions"]
        if decision["seat"] == visitor.seat and decision["grade"] in PRACTISED
    ]


def exercise(game: Game, visitor: access.Visitor, decision: dict, number: int) -> Exercise:
    engine = registry.of(game).engine
    seat = visitor.seat
    state = folded.game_states(game)[decision["move"] - 1]
    order = list(range(len(decision["alternatives"])))
    random.Random(f"{game.pk}/{decision['move']}").shuffle(order)
    steps = folded.game_steps(game, seat)
    return Exercise(
        number=number,
        move=decision["move"],
        grade_label=str(review_page.GRADE_LABELS[decision["grade"]]),
        made=steps[decision["move"]],
        choices=[
            (i, review_page.first_event(engine, state, seat, decision["alternatives"][i]["action"]))
            for i in order
        ],
    )


def judge(game: Game, decision: dict, choice: int) -> tuple[bool, str]:
    """Whether `choice` (an index into the decision's alternatives) is a better move, and what
    to say."""
    reviewer = registry.of(game).review
    alternatives = decision["alternatives"]
    if not 0 <= choice < len(alternatives):
        raise errors.BadRequest(gettext("choose one of the moves shown"))
    if choice == 0:
        return False, gettext("That is the move you played. Try another.")
    sign = -1.0 if reviewer.lower_is_better else 1.0
    best = max(sign * alternative["result"] for alternative in alternatives)
    loss = best - sign * alternatives[choice]["result"]
    if loss <= reviewer.thresholds[0] * ACCEPTED_WITHIN:
        return True, gettext("Well found: that move is as good as the best the bot found.")
    return False, gettext(
        "Not quite: by the bot's reckoning that move is %(loss)s worse than the best (%(measure)s)."
        " Try another."
    ) % {"loss": f"{loss:.2f}", "measure": reviewer.measure}
