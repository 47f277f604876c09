"""The replay viewer: any step of a game, drawn by the live board's partials, from a perspective.

Perspectives (who may use which is decided in `perspectives`):
- a seat ("as I saw it" for a player): `view(state_at_step, seat)`, exactly what that seat knew;
- "open", once the game is over: the public board with every hand open. A hand is open only as
  far as the whole table learnt its cards by the end (public cards, cards auctioned, the final
  hands): a card later discarded face down stays hidden, and the removed cards and the draw
  pile's order never appear (R1, R22).
"""

from dataclasses import dataclass

from django.utils.translation import gettext

from biblios_site.inputs import whole_number
from games import rendering, selectors, services
from games.engine import biblios
from games.models import Game

OPEN = "open"
MINE = "mine"


@dataclass(frozen=True)
class Perspective:
    key: str  # "open", "mine" or "seat-<n>" (staff only)
    label: str
    seat: int | None  # the seat whose view is replayed; None for the open-hands view


def perspectives(game: Game, user) -> list[Perspective]:
    """The perspectives `user` may replay `game` from; raises NotAllowed if none.

    Players replay their own seat; everyone sees the open replay once the game is finished;
    an ongoing (or aborted) game is replayed only by staff, who may take any seat, except a
    moderator seated at that game while it runs (`selectors.sees_other_seats`).
    """
    if not game.setup:
        raise services.NotFound(gettext("this game has not started, so there is nothing to replay"))
    staff = selectors.sees_other_seats(game, user)
    finished = game.status == Game.Status.FINISHED
    if not finished and not staff:
        raise services.NotAllowed(gettext("only finished games can be replayed"))
    mine = services.seat_of(game, user)
    names = selectors.seat_names(game)
    choices = []
    if mine is not None:
        choices.append(Perspective(MINE, gettext("As I saw it"), mine))
    choices.append(Perspective(OPEN, gettext("All hands open"), None))
    if staff:
        choices += [
            Perspective(f"seat-{seat}", gettext("As %(player)s saw it") % {"player": name}, seat)
            for seat, name in enumerate(names)
            if seat != mine
        ]
    return choices


def choose(game: Game, user, key: str | None) -> tuple[Perspective, list[Perspective]]:
    """The perspective named by `key` (a player's own seat by default) and all the choices."""
    choices = perspectives(game, user)
    if not key:
        return choices[0], choices
    for choice in choices:
        if choice.key == key:
            return choice, choices
    raise services.ServiceError(
        f"unknown perspective {key[:20]!r}: choose one of {', '.join(c.key for c in choices)}"
    )


def parse_step(raw: str | None, last: int) -> int:
    """The step asked for by `?move=` (0 is the deal); the last step when absent."""
    if raw is None or raw == "":
        return last
    step = whole_number(raw, maximum=last)
    if step is None:
        raise services.ServiceError(f"move must be a whole number from 0 to {last}")
    return step


def states_of(game: Game) -> list[biblios.State]:
    """The engine state after each step: the deal, then every move of the log."""
    state = biblios.replay(game.setup, [])
    states = [state]
    for seat, action in game.moves.order_by("seq").values_list("seat", "action"):
        state = biblios.apply_action(state, seat, action)
        states.append(state)
    return states


def revealed_cards(states: list[biblios.State]) -> set[str]:
    """Every card the whole table saw face up at some point, plus the final hands if over."""
    shown = set()
    for state in states:
        shown |= set(state.public_space) | set(state.discard)
        shown |= {card for card in (state.auction_card,) if card}
        if state.church:
            shown.add(state.church[0])
    if states[-1].phase == "over":
        for hand in states[-1].hands:
            shown |= set(hand)
    return shown


def step_view(states, step: int, perspective: Perspective) -> dict:
    """The view of one step from `perspective`; never with action forms (it is history)."""
    state = states[step]
    view = biblios.view(state, perspective.seat)
    view["legal_actions"] = []
    if perspective.seat is None:
        shown = revealed_cards(states)
        view["open_hands"] = [
            {
                "cards": [card for card in view_hand if card in shown],
                "hidden": sum(card not in shown for card in view_hand),
            }
            for view_hand in biblios.view(state, "all")["hands"]
        ]
    return view


def step_log(states, perspective: Perspective) -> list[dict]:
    """Every step's events as the perspective's seat (or a spectator) saw them."""
    return [
        {"step": step, "events": biblios.events_for(state, perspective.seat)}
        for step, state in enumerate(states)
    ]


def replay_context(game: Game, step: int, perspective: Perspective, choices) -> dict:
    """Everything the replay page shows at `step` from `perspective`."""
    states = states_of(game)
    view = step_view(states, step, perspective)
    names = selectors.seat_names(game)
    context = rendering.view_context(game, view, names)
    last = len(states) - 1
    context.update(
        step=step,
        last=last,
        steps=step_log(states, perspective),
        perspective=perspective,
        choices=choices,
        open_hands=[
            {"name": names[seat], **hand} for seat, hand in enumerate(view.get("open_hands", []))
        ],
        message="",
        oob=False,
        skeleton=False,
    )
    return context
