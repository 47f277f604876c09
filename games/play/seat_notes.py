"""What a game's log tells besides its moves: the platform's own lines, not the engine's.

A player's account was suspended, and the kind's stand-in bot took their seat
(`moderation.ban_user`); and, in that player's own log only, one of their standing orders ended
by itself (`orders_by_step`: an order is its player's alone). The ban's record on the game (a
`ModerationAction` naming the seat and the move after which it happened) is the fact; `by_step`
reads it for `selectors.game_log`, which puts it among the engine's events, and each kind's
`log_line` tag hands the event to `line`, so it reads alike in every game. The moderator's
reason is theirs: no line shows it.
"""

from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games.models import Game, ModerationAction
from games.play import orders

SUSPENDED = "seat_suspended"
ORDER_ENDED = "order_ended"


def suspended(position: int, version: int) -> dict:
    """The detail a ban's record on a game keeps: whose seat, after which move."""
    return {"seat": position, "version": version}


def by_step(game: Game) -> dict[int, list[dict]]:
    """The platform's events of `game` by the step (move) after which they happened."""
    notes: dict[int, list[dict]] = {}
    records = ModerationAction.objects.filter(game=game, kind=ModerationAction.Kind.BAN)
    for detail in records.order_by("pk").values_list("detail", flat=True):
        if isinstance(detail, dict) and {"seat", "version"} <= set(detail):
            event = {"type": SUSPENDED, "seat": detail["seat"]}
            notes.setdefault(detail["version"], []).append(event)
    return notes


def orders_by_step(game: Game, seat, *, since: int = 0) -> dict[int, list[dict]]:
    """The endings of `seat`'s own standing orders by the step (from `since` on) after which
    they happened, in the active language, for that seat's log alone; not the ones its player
    cancelled or replaced."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not game.turn_based:
        return {}  # orders are given at turn-based tables only (`orders.offered`): no query
    notes: dict[int, list[dict]] = {}
    ended = game.standing_orders.filter(seat=seat, ended_version__gte=since).exclude(ended_at=None)
    for order in ended.exclude(end_reason__in=orders.CHOSEN).order_by("pk"):
        why = orders.described(game, order)["why_ended"]
        notes.setdefault(order.ended_version, []).append({"type": ORDER_ENDED, "why": why})
    return notes


def line(event: dict, names: list[str]) -> str | None:
    """The log line of a platform event in the active language; None for an engine event."""
    if event.get("type") == ORDER_ENDED:
        text = gettext("Your standing order ended: %(why)s.")
        return mark_safe(conditional_escape(text) % {"why": conditional_escape(event["why"])})
    if event.get("type") != SUSPENDED:
        return None
    seat = event.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    text = gettext("%(player)s's account was suspended: a bot plays their seat.")
    return mark_safe(conditional_escape(text) % {"player": conditional_escape(name)})
