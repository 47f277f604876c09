"""Standing orders: what a player of a turn-based table says in advance, run for every game.

Why this shape: each game kind describes its orders (`registry.OrderKind`: words, parameters,
when one fires and what it plays, when it switches itself off, all from the seat's own view);
the platform stores them (`StandingOrder`) and runs them here, inside the transaction of the
move that may set them off (`services._settle` calls `follow` under the game's row lock), so an
order's move goes through the engine's checks and the move log like any other, exactly once,
on the version it read. An order is its player's alone: only their board, API answer and log
carry it (docs/orders.md).
"""

from collections.abc import Callable, Mapping
from datetime import datetime

from django.utils.translation import gettext, pgettext_lazy

from biblios_site.errors import BadRequest, IllegalMove
from games.kinds import registry
from games.kinds.registry import Play, Stop
from games.models import Game, StandingOrder
from notifications.models import Notification
from notifications.services import notify

# How an order ends besides its kind's own reasons.
ENDINGS = {
    "done": pgettext_lazy("standing order ended", "it played its last move"),
    "cancelled": pgettext_lazy("standing order ended", "you cancelled it"),
    "replaced": pgettext_lazy("standing order ended", "you gave another order"),
    "left": pgettext_lazy("standing order ended", "a bot plays your seat"),
    "game_over": pgettext_lazy("standing order ended", "the game is over"),
    "refused": pgettext_lazy("standing order ended", "its move was refused"),
}

# The endings its player chose, which their log does not repeat.
CHOSEN = ("cancelled", "replaced")

RECENT = 3  # ended orders a player still sees beside their active one


def offered(game: Game) -> bool:
    """Whether `game`'s players may give standing orders: a running turn-based table of a
    kind that has some."""
    return game.turn_based and game.status == Game.Status.ACTIVE and bool(registry.of(game).orders)


def read_params(order_kind: registry.OrderKind, data: Mapping) -> dict:
    """The order's parameters from `data`, a mapping of them alone (a form's fields as text,
    or JSON): whole numbers, each at least its minimum; BadRequest naming the field otherwise,
    or naming a field the order does not take."""
    unknown = sorted(set(data) - {param.name for param in order_kind.params})
    if unknown:
        raise BadRequest(
            gettext("this order takes no %(field)s") % {"field": ", ".join(unknown)[:100]}
        )
    params = {}
    for param in order_kind.params:
        raw = data.get(param.name)
        if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
            raw = int(raw.strip())
        if isinstance(raw, bool) or not isinstance(raw, int) or raw < param.minimum:
            raise BadRequest(
                gettext("%(field)s must be a whole number of at least %(minimum)s")
                % {"field": param.label, "minimum": param.minimum}
            )
        params[param.name] = raw
    return params


def follow(game: Game, state, play: Callable[[object, int, dict], object], now: datetime) -> object:
    """Run the active orders of the locked `game` on `state`, the state after a move; the state
    once no order fires any more.

    Each order reads its seat's view: one that stops is ended (its player told when it did not
    end as planned), one that fires has `play(state, seat, action)` apply and log its action,
    after which every order reads the new state again. A seat a bot plays keeps no order.
    """
    if not game.turn_based:
        return state
    active = list(game.standing_orders.filter(ended_at=None).select_related("user"))
    if not active:
        return state
    kind = registry.of(game)
    bots = set(game.seats.exclude(bot_level="").values_list("position", flat=True))
    while active:
        for order in active:
            if order.seat in bots:
                _end(game, order, "left", state.version, now, tell=False)
                break
            order_kind = kind.order_kind(order.kind)
            view = kind.engine.view(state, order.seat)
            decision = order_kind.decide(view, order.params, order.anchor)
            if isinstance(decision, Stop):
                _end(game, order, decision.reason, state.version, now, tell=decision.tell)
                break
            if isinstance(decision, Play):
                try:
                    state = play(state, order.seat, decision.action)
                except IllegalMove:
                    _end(game, order, "refused", state.version, now, tell=True)
                    break
                order.plays += 1
                if decision.last:
                    _end(game, order, "done", state.version, now, tell=False)
                else:
                    order.save(update_fields=["plays"])
                break
        else:
            break  # every order waits
        active = [order for order in active if order.ended_at is None]
    if not kind.engine.to_act(state):
        for order in active:
            _end(game, order, "game_over", state.version, now, tell=False)
    return state


def _end(game: Game, order: StandingOrder, reason: str, version: int, now, *, tell: bool):
    order.ended_at, order.ended_version, order.end_reason = now, version, reason
    order.save(update_fields=["plays", "ended_at", "ended_version", "end_reason"])
    if tell:
        cause = f"g{game.pk}o{order.pk}"
        notify(order.user, Notification.Event.ORDER_STOPPED, game=game, cause=cause)


def end_active(game: Game, seat: int, reason: str, now) -> StandingOrder | None:
    """End the seat's active order, if any (the player cancelled or replaced it, or left the
    game to a bot)."""
    order = game.standing_orders.filter(seat=seat, ended_at=None).first()
    if order is not None:
        _end(game, order, reason, game.version, now, tell=False)
    return order


# ------------------------------------------------------------------------------ reading


def described(game: Game, order: StandingOrder) -> dict:
    """An order as its player reads it (board, API, log), in the active language."""
    order_kind = registry.of(game).order_kind(order.kind)
    why = ""
    if order.end_reason:
        reason = ENDINGS.get(order.end_reason) or order_kind.reasons.get(order.end_reason, "")
        why = str(reason) % order.params if "%(" in str(reason) else str(reason)
    return {
        "id": order.pk,
        "kind": order.kind,
        "params": dict(order.params),
        "words": order_kind.words(order.params),
        "active": order.ended_at is None,
        "plays": order.plays,
        "given_at_version": order.created_version,
        "ended_at_version": order.ended_version,
        "end_reason": order.end_reason or None,
        "why_ended": why or None,
    }


def kinds_offered(game: Game) -> list[dict]:
    """The order kinds of `game` as a form or an API client offers them."""
    return [
        {
            "kind": order_kind.slug,
            "label": str(order_kind.label),
            "params": [
                {"name": p.name, "label": str(p.label), "minimum": p.minimum}
                for p in order_kind.params
            ],
        }
        for order_kind in registry.of(game).orders
    ]


def seat_orders(game: Game, seat: int) -> list[dict]:
    """The seat's active order (first, if any) and its latest ended ones: its player's only."""
    orders = game.standing_orders.filter(seat=seat)
    active = list(orders.filter(ended_at=None))
    ended = list(orders.exclude(ended_at=None).order_by("-ended_at", "-pk")[:RECENT])
    return [described(game, order) for order in active + ended]
