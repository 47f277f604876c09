"""Moderation services: banning and muting users, aborting a game, and checking a game's move log.

Every change a moderator makes goes through here and leaves a `ModerationAction` saying who did
what, when and why.
"""

import datetime
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from biblios_site import errors
from biblios_site.errors import (
    Conflict,
    NotAllowed,
    ServiceError,
)
from games.kinds import registry
from games.models import Game, ModerationAction, Seat
from games.play import broadcast, seat_notes
from games.play import services as play_services
from games.play.services import after_commit, locked_game, mark_turn
from games.tables import services as tables_services
from notifications.models import Notification
from notifications.services import notify

MUTE_PERIODS = {
    "1h": ("1 hour", datetime.timedelta(hours=1)),
    "24h": ("24 hours", datetime.timedelta(hours=24)),
    "7d": ("7 days", datetime.timedelta(days=7)),
    "30d": ("30 days", datetime.timedelta(days=30)),
}


def _checked(moderator, reason: str) -> str:
    if not getattr(moderator, "is_staff", False):
        raise errors.NotAllowed("only moderators can do this")
    reason = (reason or "").strip()
    if not reason:
        raise errors.ServiceError("give a reason")
    return reason


def _target(user_id: int, moderator):
    user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
    if user is None:
        raise errors.NotFound(f"there is no user {user_id}")
    if user.pk == moderator.pk:
        raise errors.ServiceError("moderators cannot act on their own account")
    return user


def _record(moderator, kind, reason, *, user=None, game=None, **detail) -> ModerationAction:
    return ModerationAction.objects.create(
        moderator=moderator, kind=kind, user=user, game=game, reason=reason, detail=detail
    )


def ban_user(user_id: int, moderator, reason: str):
    """Deactivate an account: no log in (the log-in page tells them why, `accounts.backends`),
    no API, and its open sockets close. Their tables go on without them, as if they had left
    each one: the kind's stand-in bot takes each of their seats in running games (whose logs
    say so, `seat_notes`), and the tables waiting to start that they host close (those they
    merely joined lose their seat). Unbanned, they may take a seat back while its game runs."""
    reason = _checked(moderator, reason)
    with transaction.atomic():
        user = _target(user_id, moderator)
        if not user.is_active:
            raise errors.Conflict(f"{user} is banned already")
        _record(moderator, ModerationAction.Kind.BAN, reason, user=user)
        # Their sockets close before their tables' news goes out: no board reaches them after.
        transaction.on_commit(lambda: broadcast.user_banned(user_id))
        _leave_every_table(user, moderator, reason)
        user.is_active = False
        user.ban_reason = reason
        user.save(update_fields=["is_active", "ban_reason"])
    return user


def _leave_every_table(user, moderator, reason: str) -> None:
    """Leave each of `user`'s tables as they would (`play_services.leave_game`, `leave_table`),
    while they may still act; a game whose seat the bot takes gets a BAN record naming the seat
    and the move it happened after, which its log shows."""
    seats = Seat.objects.filter(
        user=user, game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE]
    ).values_list("game_id", "game__status", "position", "bot_level")
    for game_id, status, position, bot_level in list(seats):
        if status == Game.Status.OPEN:
            tables_services.leave_table(game_id, user)
        elif not bot_level:  # a seat they left already is the bot's
            game = play_services.leave_game(game_id, user)
            _record(
                moderator,
                ModerationAction.Kind.BAN,
                reason,
                user=user,
                game=game,
                **seat_notes.suspended(position, game.version),
            )


def unban_user(user_id: int, moderator, reason: str):
    reason = _checked(moderator, reason)
    with transaction.atomic():
        user = _target(user_id, moderator)
        if user.is_active:
            raise errors.Conflict(f"{user} is not banned")
        user.is_active = True
        user.ban_reason = ""
        user.save(update_fields=["is_active", "ban_reason"])
        _record(moderator, ModerationAction.Kind.UNBAN, reason, user=user)
    return user


def mute_user(user_id: int, moderator, period: str, reason: str):
    """No table chat for one of MUTE_PERIODS from now; the user is told why and until when (a
    notice, in the site and as they chose by e-mail and push)."""
    reason = _checked(moderator, reason)
    if period not in MUTE_PERIODS:
        raise errors.ServiceError(f"choose a mute period: {', '.join(MUTE_PERIODS)}")
    with transaction.atomic():
        user = _target(user_id, moderator)
        user.muted_until = timezone.now() + MUTE_PERIODS[period][1]
        user.save(update_fields=["muted_until"])
        action = _record(
            moderator,
            ModerationAction.Kind.MUTE,
            reason,
            user=user,
            until=user.muted_until.isoformat(),
        )
        notify(
            user,
            Notification.Event.MUTED,
            actor=moderator,
            text=reason,
            until=user.muted_until,
            cause=f"m{action.pk}",
        )
    return user


def unmute_user(user_id: int, moderator, reason: str):
    reason = _checked(moderator, reason)
    with transaction.atomic():
        user = _target(user_id, moderator)
        if not user.muted():
            raise errors.Conflict(f"{user} is not muted")
        user.muted_until = None
        user.save(update_fields=["muted_until"])
        _record(moderator, ModerationAction.Kind.UNMUTE, reason, user=user)
    return user


def message_user(user_id: int, moderator, message: str, reason: str):
    """Send a user a message from the moderators: a notification, in the site and
    as they chose by e-mail and push, with the moderator's own words; the reason is logged."""
    reason = _checked(moderator, reason)
    message = (message or "").strip()
    if not message:
        raise errors.ServiceError("write the message")
    with transaction.atomic():
        user = _target(user_id, moderator)
        if not user.is_active:
            raise errors.Conflict(f"{user} is banned: they would never read it")
        action = _record(
            moderator, ModerationAction.Kind.MESSAGE, reason, user=user, message=message
        )
        notify(
            user,
            Notification.Event.MODERATOR,
            actor=moderator,
            text=message,
            cause=f"m{action.pk}",
        )
    return user


# ----------------------------------------------------------------------------- integrity


@dataclass(frozen=True)
class Integrity:
    """The outcome of replaying a game's move log against what was stored."""

    states: list  # the replayed states, from the deal up to the last move that replays
    moves: int
    problem: str = ""
    first_divergence: int | None = None  # the first move (seq) that disagrees; 0: the deal

    @property
    def ok(self) -> bool:
        return not self.problem


def check_integrity(game: Game) -> Integrity:
    """Replay the move log from the setup; compare each step with the hash recorded when it was
    played, and the end with the stored state and result."""
    if not game.setup:
        return Integrity(states=[], moves=0)
    moves = list(game.moves.order_by("seq").values_list("seq", "seat", "action", "state_hash"))
    gap = next((n for n, (seq, *_) in enumerate(moves, start=1) if seq != n), None)
    logged = moves if gap is None else moves[: gap - 1]
    engine = registry.of(game).engine
    fold = engine.steps(game.setup, [(seat, action) for _, seat, action, _ in logged])
    try:
        states = [next(fold)]
    except (engine.IllegalAction, KeyError, TypeError, ValueError) as problem:
        return Integrity([], 0, f"the setup does not start a game: {problem}", 0)
    try:
        for (seq, _, _, recorded), state in zip(logged, fold, strict=False):
            if recorded and recorded != play_services.state_hash(game, state):
                problem = "the state after it differs from the one recorded when it was played"
                return Integrity(states, len(moves), problem, seq)
            states.append(state)
    except engine.IllegalAction as refusal:  # the move after the states folded so far
        return Integrity(states, len(moves), f"the engine refuses it: {refusal}", len(states))
    if gap is not None:
        return Integrity(states, len(moves), f"move {gap} is missing", gap)
    state = states[-1]
    last = len(moves)
    if game.version != last:
        problem = f"the game says version {game.version} but the log has {last} moves"
        return Integrity(states, last, problem, min(game.version, last) + 1)
    if game.state != engine.dumps(state):
        return Integrity(states, last, "the stored state differs from the replayed log", last)
    if game.status == Game.Status.FINISHED and (
        engine.to_act(state) or game.result != engine.result(state)
    ):
        return Integrity(states, last, "the stored result differs from the replayed game", last)
    return Integrity(states, last)


def abort_game(game_id: int, moderator, reason: str) -> Game:
    """A moderator ends a game in progress (or an open table); its players see why it ended."""
    reason = (reason or "").strip()
    if not getattr(moderator, "is_staff", False):
        raise NotAllowed(gettext("only moderators can abort games"))
    if not reason:
        raise ServiceError(gettext("give a reason for aborting the game"))
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
            raise Conflict(f"game {game_id} is {game.get_status_display().lower()} already")
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
        mark_turn(game, [])
        ModerationAction.objects.create(
            moderator=moderator,
            kind=ModerationAction.Kind.ABORT_GAME,
            game=game,
            reason=reason,
            detail={"version": game.version},
        )
        after_commit(game, lobby=True)
    return game
