"""Learn to play: a kind's guided first game (`registry.Lesson`), with no Game row and no account.

Why this shape: a lesson is a fixed deal (the lesson's `setup`) plus the learner's moves, kept in
the visitor's session; every request rebuilds the game from them through the kind's own engine,
the bot's answers drawn from a generator seeded by the move number, so the same moves always give
the same game and nothing else needs storing. The same fold checks each stored move again (the
engine's rules and the guided step it answered), so a session holding anything else is refused
as a whole, never half played. Boards are drawn by the kind's own presenter and partials from
`view(state, learner)`, like every board of the site; `LessonTable` stands in for the Game row
those templates read (its kind, variant and status; no number, no log page).
"""

import json
import random
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext, pgettext

from games.kinds import registry

# A whole game of any kind is far shorter; a longer list in a session is not a lesson's.
MAX_MOVES = 600
LOG_LENGTH = 12


class LessonRefused(Exception):
    """A move the lesson does not take: the engine's refusal, or a legal move this step does
    not teach (`nudge`). `index` is the move's place among the learner's moves."""

    def __init__(self, message: str, index: int, *, nudge: bool = False):
        super().__init__(message)
        self.index, self.nudge = index, nudge


@dataclass(frozen=True)
class LessonTable:
    """What a board's templates read of a Game, for a lesson that has none."""

    kind: str
    variant: str
    variant_name: str
    status: str
    pk: None = None


@dataclass
class Run:
    """A lesson replayed up to the learner's next decision (or the end)."""

    kind: registry.GameKind
    moves: list[dict]
    state: Any
    done: set[int] = field(default_factory=set)  # the guided steps answered, by index
    log: list[list[dict]] = field(default_factory=list)  # each step's events, as the learner saw
    history: list[tuple[int, dict]] = field(default_factory=list)  # every (seat, action) played

    @property
    def lesson(self) -> registry.Lesson:
        return self.kind.lesson

    def view(self) -> dict:
        return self.kind.engine.view(self.state, self.lesson.seat)

    @property
    def over(self) -> bool:
        return not self.kind.engine.to_act(self.state)

    def step(self, view: dict | None = None) -> registry.LessonStep | None:
        """The guided step the learner's decision now answers, if any."""
        index = current_step(self.lesson, self.done, view or self.view())
        return None if index is None else self.lesson.steps[index]


def lesson_kinds() -> list[registry.GameKind]:
    """The live kinds that bring a lesson."""
    return [kind for kind in registry.kinds() if kind.lesson is not None]


def kind_with_lesson(slug: str) -> registry.GameKind:
    """The kind `slug` if it has a lesson; UnknownKind otherwise."""
    kind = registry.get(slug)
    if kind.lesson is None:
        raise registry.UnknownKind(slug)
    return kind


def current_step(lesson: registry.Lesson, done: set[int], view: dict) -> int | None:
    """The index of the guided step the learner's decision in `view` answers, if any.

    Steps without `when` come in order: the first not yet answered is the next decision's, and
    no later step comes before it. A step with `when` waits for its moment without holding up
    the steps after it. A step whose move the rules do not allow now (a payment the learner
    cannot make) waits too.
    """
    if not view["legal_actions"]:
        return None
    for index, step in enumerate(lesson.steps):
        if index in done or (step.when is not None and not step.when(view)):
            continue
        if any(teaches(step, action) for action in view["legal_actions"]):
            return index
        if step.when is None:
            return None
    return None


def teaches(step: registry.LessonStep, action: dict) -> bool:
    """Whether `action` is one of the moves `step` teaches."""
    if not step.expect:
        return True
    return any(all(action.get(k) == v for k, v in pattern.items()) for pattern in step.expect)


def valid_moves(moves) -> bool:
    """A session's move list has the shape the lesson stores: a list of small action dicts."""
    return (
        isinstance(moves, list)
        and len(moves) <= MAX_MOVES
        and all(isinstance(move, dict) and isinstance(move.get("type"), str) for move in moves)
    )


def play(kind: registry.GameKind, moves: list[dict]) -> Run:
    """The lesson of `kind` after the learner's `moves`, the bots having answered each.

    Raises LessonRefused at the first move the engine refuses or the guided step it answers
    does not teach; the moves before it were legal and taught.
    """
    lesson, engine, bots = kind.lesson, kind.engine, kind.bots
    state = next(iter(engine.steps(lesson.setup, [])))
    run = Run(kind=kind, moves=list(moves), state=state)
    memories = {
        seat: bots.new_memory(seat, lesson.players)
        for seat in range(lesson.players)
        if seat != lesson.seat
    }
    run.log.append(engine.events_for(state, lesson.seat))
    played = 0
    while True:
        _observe(run, memories)
        to_act = engine.to_act(run.state)
        if not to_act:
            break
        bot_seats = [seat for seat in to_act if seat != lesson.seat]
        if bot_seats:
            seat = bot_seats[0]
            view = engine.view(run.state, seat)
            rng = random.Random(f"lesson/{kind.slug}/{view['version']}")
            action, index = bots.choose(lesson.bot, view, memories[seat], rng), None
        else:
            if played == len(moves):
                break
            seat, action = lesson.seat, moves[played]
            index = current_step(lesson, run.done, run.view())
        try:
            after = next(iter(engine.steps(lesson.setup, [(seat, action)], resume=run.state)))
        except engine.IllegalAction as refusal:
            if seat != lesson.seat:
                raise  # the bot only plays legal moves: a broken lesson, not a refusal
            raise LessonRefused(str(refusal), played) from None
        if index is not None and not teaches(lesson.steps[index], action):
            raise LessonRefused(nudge_text(), played, nudge=True)
        run.state = after
        run.history.append((seat, action))
        if seat == lesson.seat:
            played += 1
        if index is not None:
            run.done.add(index)
        run.log.append(engine.events_for(run.state, lesson.seat))
    return run


def _observe(run: Run, memories: dict) -> None:
    """Each bot learns the newest step from its own seat's events, as at a real table."""
    version = len(run.log) - 1
    for seat, memory in memories.items():
        events = run.kind.engine.events_for(run.state, seat)
        run.kind.bots.observe(memory, {"version": version, "events": events})


def nudge_text() -> str:
    """What a legal move the step does not teach is answered with: what was wrong and that
    nothing moved. Not the step's own words: the page shows them just below."""
    return gettext(
        "Not quite: that move is allowed, but it is not the one this step teaches. Nothing "
        "moved: try again with the move described below."
    )


def step_words(lesson: registry.Lesson, text, view: dict) -> str:
    """A step's lazy text in the reader's language, its %(names)s filled by `words(view)`."""
    text = str(text)
    return text % lesson.words(view) if "%(" in text else text


def learner_names(kind: registry.GameKind, user) -> list[str]:
    """The seats' names: the learner's own (a visitor is the apprentice), the bot's level."""
    lesson = kind.lesson
    me = user.get_username() if user.is_authenticated else pgettext("lesson", "Apprentice")
    bot = kind.bot_label(lesson.bot)
    return [me if seat == lesson.seat else bot for seat in range(lesson.players)]


def board_context(run: Run, names: list[str], *, message: str = "", act_url: str = "") -> dict:
    """Everything the lesson page draws: the kind's board context for the learner's view, the
    coach's words (the step, or a hint, or the score explained) and the log."""
    kind, lesson = run.kind, run.lesson
    view = run.view()
    variant = lesson.variant or kind.default_variant
    table = LessonTable(
        kind=kind.slug,
        variant=variant,
        variant_name=kind.variant_name(variant),
        status="finished" if run.over else "active",
    )
    context = kind.presenter.view_context(table, view, names)
    for player in context.get("players", []):
        player["bot"] = "" if player.get("seat") == lesson.seat else kind.bot_label(lesson.bot)
    step = run.step(view)
    coach = {
        "intro": str(lesson.intro) if not run.moves else "",
        "step": None,
        "hint": "",
        "ending": [],
        "number": len(run.done) + (step is not None),
        "count": len(lesson.steps),
    }
    if step is not None:
        coach["step"] = {
            "say": step_words(lesson, step.say, view),
            "why": step_words(lesson, step.why, view),
            "anchor": step.anchor,
            # The moves taught, for scripts that follow the lesson (the browser test).
            "expect": json.dumps(list(step.expect), separators=(",", ":")),
        }
    elif run.over:
        coach["ending"] = lesson.ending(view)
    elif view["legal_actions"]:
        coach["hint"] = lesson.hint(view)
    events = [event for step_events in run.log for event in step_events][::-1]
    context.update(
        {
            "board_template": kind.board_template,
            "kind": kind,
            "coach": coach,
            "message": message,
            "act_url": act_url,
            "log": events[:LOG_LENGTH],
            "lesson_over": run.over,
        }
    )
    return context
