"""What a game's log tells besides its moves: the platform's own lines, not the engine's.

One so far: a player's account was suspended, and the kind's stand-in bot took their seat
(`moderation.ban_user`). The ban's record on the game (a `ModerationAction` naming the seat and
the move after which it happened) is the fact; `by_step` reads it for `selectors.game_log`,
which puts it among the engine's events, and each kind's `log_line` tag hands the event to
`line`, so it reads alike in every game. The moderator's reason is theirs: no line shows it.
"""

from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games.models import Game, ModerationAction

SUSPENDED = "seat_suspended"


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


def line(event: dict, names: list[str]) -> str | None:
    """The log line of a platform event in the active language; None for an engine event."""
    if event.get("type") != SUSPENDED:
        return None
    seat = event.get("seat")
    name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    text = gettext("%(player)s's account was suspended: a bot plays their seat.")
    return mark_safe(conditional_escape(text) % {"player": conditional_escape(name)})
