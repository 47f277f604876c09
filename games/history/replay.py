"""The replay viewer: any step of a game, drawn by the live board's partials, from a perspective.

Perspectives (who may use which is decided in `perspectives`):
- a seat ("as I saw it" for a player): `view(state_at_step, seat)`, exactly what that seat knew;
- "open", once the game is over: the public board with every hand open (the engine's
  `open_hands_view`). A hand is open only as far as the whole table learnt its cards by the end
  (public cards, cards auctioned, the final hands): a card later discarded face down stays
  hidden, and the removed cards and the draw pile's order never appear (R1, R22).
"""

from dataclasses import dataclass

from django.utils.translation import gettext

from biblios_site import errors
from biblios_site.inputs import whole_number
from games import access
from games.history import selectors as history_selectors
from games.kinds import registry
from games.models import Game
from games.play import selectors as play_selectors

OPEN = "open"
MINE = "mine"


@dataclass(frozen=True)
class Perspective:
    key: str  # "open", "mine" or "seat-<n>" (staff only)
    label: str
    seat: int | None  # the seat whose view is replayed; None for the open-hands view


def perspectives(game: Game, visitor: access.Visitor) -> list[Perspective]:
    """The perspectives the visitor may replay `game` from; raises NotAllowed if none.

    Who may replay which seat is `games.access.replay_seats`: players their own seat, everyone
    who may read the record the open replay once the game is finished, staff any seat (an
    ongoing or aborted game only staff).
    """
    if not game.setup:
        raise errors.NotFound(gettext("this game has not started, so there is nothing to replay"))
    seats = access.replay_seats(game, visitor)
    if seats is None:
        raise errors.NotAllowed(gettext("only finished games can be replayed"))
    names = play_selectors.seat_names(game)
    choices = []
    if seats.own is not None:
        choices.append(Perspective(MINE, gettext("As I saw it"), seats.own))
    choices.append(Perspective(OPEN, gettext("All hands open"), None))
    choices += [
        Perspective(f"seat-{seat}", gettext("As %(player)s saw it") % {"player": names[seat]}, seat)
        for seat in seats.others
    ]
    return choices


def choose(
    game: Game, visitor: access.Visitor, key: str | None
) -> tuple[Perspective, list[Perspective]]:
    """The perspective named by `key` (a player's own seat by default) and all the choices."""
    choices = perspectives(game, visitor)
    if not key:
        return choices[0], choices
    for choice in choices:
        if choice.key == key:
            return choice, choices
    raise errors.ServiceError(
        f"unknown perspective {key[:20]!r}: choose one of {', '.join(c.key for c in choices)}"
    )


def parse_step(raw: str | None, last: int) -> int:
    """The step asked for by `?move=` (0 is the deal); the deal when absent, so that a replay
    opens where the game began and the arrow keys step forward through it."""
    if raw is None or raw == "":
        return 0
    step = whole_number(raw, maximum=last)
    if step is None:
        raise errors.ServiceError(f"move must be a whole number from 0 to {last}")
    return step


def states_of(game: Game) -> list:
    """The engine state after each step: the deal, then every move of the log."""
    moves = game.moves.order_by("seq").values_list("seat", "action")
    return list(registry.of(game).engine.steps(game.setup, moves))


def step_view(engine, states, step: int, perspective: Perspective) -> dict:
    """The view of one step from `perspective`, by the game's `engine`; never with action forms
    (it is history)."""
    if perspective.seat is None:
        view = engine.open_hands_view(states, step)
    else:
        view = engine.view(states[step], perspective.seat)
    view["legal_actions"] = []
    return view


def step_log(engine, states, perspective: Perspective, timed_out: set[int]) -> list[dict]:
    """Every step's events as the perspective's seat (or a spectator) saw them, those of the
    `timed_out` steps marked as the clock's choice (`history_selectors.with_timeouts_marked`)."""
    return [
        {
            "step": step,
            "events": history_selectors.with_timeouts_marked(
                engine.events_for(state, perspective.seat), step in timed_out
            ),
        }
        for step, state in enumerate(states)
    ]


def replay_context(game: Game, step: int, perspective: Perspective, choices) -> dict:
    """Everything the replay page shows at `step` from `perspective`."""
    kind = registry.of(game)
    states = states_of(game)
    view = step_view(kind.engine, states, step, perspective)
    context = kind.presenter.view_context(game, view, play_selectors.seat_names(game))
    last = len(states) - 1
    context.update(
        board_template=kind.board_template,
        step=step,
        last=last,
        steps=step_log(kind.engine, states, perspective, history_selectors.timed_out_steps(game)),
        perspective=perspective,
        choices=choices,
        oob=False,
        skeleton=False,
    )
    return context
