"""Play: the moves of a running game, the turn clock, leaving a game and coming back.

Each service locks the game row, validates, writes, and broadcasts after commit; the channel
layer only carries hints ("game N is at version V"), never game data, so every receiver renders
its own view from the database (`view(state, seat)`).
"""

import hashlib
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from biblios_site import background, ratelimit
from biblios_site.errors import (
    BadRequest,
    Conflict,
    IllegalMove,
    NotAllowed,
    NotFound,
    ServiceError,
    StaleVersion,
    TimeUp,
)
from games import access, signals
from games.kinds import registry
from games.models import Game, Move, Seat, StandingOrder
from games.play import broadcast, orders, presence
from notifications import live
from notifications.models import Notification
from notifications.services import SEEN_GRACE, notify

# Rung after a commit that makes a move due: this process's turn worker (games/play/turns.py)
# sleeps until the next due time it read, and a sooner one wakes it.
turn_alarm = background.Alarm()

# A person who lets their time run out this many turns in a row is replaced by a bot (the
# kind's `stand_in`, which also moves for them when their time runs out).
TIMEOUTS_BEFORE_TAKEOVER = 3


def locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(f"there is no game {game_id}") from None


def seat_row(game: Game, user) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user=user).first()


def submit_action(game_id: int, user, action, *, version, now: datetime | None = None) -> Game:
    """Apply one action for `user` if it is legal, in time and made against board `version`.

    Exactly one of two racing submissions applies: the row lock serialises them where the
    database has locks, and the version check plus the unique (game, seq) move make the loser
    fail everywhere else. `now` is the time of arrival (tests pass it instead of sleeping).

    Counted against the user's action rate (settings.RATE_LIMITS["action"]; RateLimited, a
    429, beyond it) whichever door the move comes through.
    """
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError(gettext("the board version must be a whole number"))
    if getattr(user, "is_authenticated", False):  # anyone else is refused below, uncounted
        ratelimit.hit("action", user.pk)
    now = now or timezone.now()
    try:
        with transaction.atomic():
            game, seat = _running_seat(game_id, user)
            if version != game.version:
                raise StaleVersion(game.version)
            if seat.bot_level:
                raise Conflict(
                    "a bot is playing your seat since you left: take your seat back first"
                )
            state = game.engine_state()
            _check_in_time(game, state, seat, now)
            if seat.consecutive_timeouts:
                Seat.objects.filter(pk=seat.pk).update(consecutive_timeouts=0)
            _apply(game, state, seat.position, action, Move.PlayedBy.PLAYER, now)
    except IntegrityError:
        raise StaleVersion(Game.objects.get(pk=game_id).version) from None
    return game


def _check_in_time(game: Game, state, seat: Seat, now: datetime) -> None:
    """TimeUp when the game waits on `seat` and its time ran out: the turn worker moves."""
    if (
        game.due_at is not None
        and now >= game.due_at
        and seat.position in registry.of(game).engine.to_act(state)
    ):
        raise TimeUp("your time for this move ran out; a bot moves for you this turn")


def play_due_turn(game_id: int, action, *, version: int, now: datetime | None = None) -> Game:
    """Apply the move the turn worker chose for the seat to act, if it is still due.

    The seat is a bot's own, a person's seat a bot took over, or a person whose time ran out:
    that automatic move is logged as such and counted, and the third in a row hands the seat
    to the kind's stand-in bot for the rest of the game. Version check and row lock as in
    `submit_action`, so several workers racing on one due game apply one move.
    """
    now = now or timezone.now()
    try:
        with transaction.atomic():
            game = locked_game(game_id)
            if game.status != Game.Status.ACTIVE:
                raise _not_running(game)
            if version != game.version:
                raise StaleVersion(game.version)
            if game.due_at is None or now < game.due_at:
                raise Conflict(gettext("no move is due in this game yet"))
            state = game.engine_state()
            kind = registry.of(game)
            seat = game.seats.get(position=kind.engine.to_act(state)[0])
            if seat.user_id is None:
                played_by = Move.PlayedBy.BOT
            elif seat.bot_level:
                played_by = Move.PlayedBy.TAKEOVER
            else:
                played_by = Move.PlayedBy.TIMEOUT
                seat.consecutive_timeouts += 1
                if seat.consecutive_timeouts >= TIMEOUTS_BEFORE_TAKEOVER:
                    seat.bot_level, seat.abandoned = kind.stand_in, True
                seat.save(update_fields=["consecutive_timeouts", "bot_level", "abandoned"])
                if seat.abandoned:
                    signals.seat_abandoned.send(sender=Seat, seat=seat)
            _apply(game, state, seat.position, action, played_by, now)
    except IntegrityError:
        raise StaleVersion(Game.objects.get(pk=game_id).version) from None
    return game


def _apply(game: Game, state, position: int, action, played_by: str, now: datetime) -> None:
    """Apply, log and save one move of the locked `game`, the moves of the standing orders it
    sets off (`orders.follow`), and schedule the next due time."""
    _settle(game, state, _play(game, state, position, action, played_by), now)


def _play(game: Game, state, position: int, action, played_by: str):
    """Apply and log one move of the locked `game`; the new engine state (not saved yet)."""
    engine = registry.of(game).engine
    try:
        new_state = engine.apply_action(state, position, action)
    except engine.IllegalAction as refusal:
        raise IllegalMove(str(refusal)) from None
    Move.objects.create(
        game=game,
        seq=new_state.version,
        seat=position,
        action=action,
        state_hash=state_hash(game, new_state),
        played_by=played_by,
    )
    return new_state


def _settle(game: Game, state, new_state, now: datetime) -> None:
    """Run the standing orders on `new_state`, then save it over `state`."""
    _store(game, state, _follow_orders(game, new_state, now), now)


def _follow_orders(game: Game, state, now: datetime):
    """`state` after the moves of the standing orders it sets off, each logged as the order's."""

    def by_order(current, position: int, action):
        return _play(game, current, position, action, Move.PlayedBy.ORDER)

    return orders.follow(game, state, by_order, now)


def _store(game: Game, state, new_state, now: datetime) -> None:
    """Save `new_state` over `state` (refused if another move came first), schedule the next
    due time and broadcast after the commit."""
    due_at = schedule_turn(game, new_state, now)
    if not _save_state(game, new_state, previous_version=state.version, due_at=due_at):
        raise StaleVersion(Game.objects.get(pk=game.pk).version)
    if game.status == Game.Status.FINISHED:
        record_places(game)
    after_commit(game, lobby=game.status == Game.Status.FINISHED)


def give_order(game_id: int, user, slug: str, data, *, version, now: datetime | None = None):
    """Store `user`'s standing order of kind `slug` (its parameters alone in `data`) made against
    board `version`, in place of their active one; it fires at once if it is its seat's turn.

    Only at a running turn-based table, for a seat its player plays, in time (it may play a
    move); the kind's `start` refuses an order that cannot be given now (its words say why).
    Counted against the user's action rate like a move. The new StandingOrder.
    """
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError(gettext("the board version must be a whole number"))
    if getattr(user, "is_authenticated", False):
        ratelimit.hit("action", user.pk)
    now = now or timezone.now()
    try:
        with transaction.atomic():
            game, seat = _running_seat(game_id, user)
            if not orders.offered(game):
                raise Conflict(gettext("standing orders are for turn-based tables"))
            if version != game.version:
                raise StaleVersion(game.version)
            if seat.bot_level:
                raise Conflict(gettext("a bot is playing your seat: take your seat back first"))
            kind = registry.of(game)
            order_kind = kind.order_kind(slug) if isinstance(slug, str) else None
            if order_kind is None:
                raise BadRequest(gettext("there is no such standing order in this game"))
            params = orders.read_params(order_kind, data)
            state = game.engine_state()
            _check_in_time(game, state, seat, now)
            try:
                anchor = order_kind.start(kind.engine.view(state, seat.position), params)
            except registry.OrderRefused as refusal:
                raise Conflict(str(refusal)) from None
            orders.end_active(game, seat.position, "replaced", now)
            order = StandingOrder.objects.create(
                game=game,
                seat=seat.position,
                user=seat.user,
                kind=slug,
                params=params,
                anchor=anchor,
                created_version=game.version,
            )
            played = _follow_orders(game, state, now)  # its seat's turn already: it fires now
            if played is not state:
                _store(game, state, played, now)
    except IntegrityError:
        raise StaleVersion(Game.objects.get(pk=game_id).version) from None
    order.refresh_from_db()
    return order


def cancel_order(game_id: int, user, *, now: datetime | None = None) -> StandingOrder:
    """End `user`'s active standing order in the game; Conflict when they have none."""
    with transaction.atomic():
        game, seat = _running_seat(game_id, user)
        order = orders.end_active(game, seat.position, "cancelled", now or timezone.now())
        if order is None:
            raise Conflict(gettext("you have no standing order in this game"))
    return order


def schedule_turn(game: Game, state, now: datetime) -> datetime | None:
    """`due_time`, to be written in this transaction: after the commit this process's turn
    worker is woken if it would sleep past it, so a bot moves on time without a fast poll."""
    due_at = due_time(game, state, now)
    if due_at is not None:
        transaction.on_commit(lambda: turn_alarm.ring(due_at))
    return due_at


def due_time(game: Game, state, now: datetime) -> datetime | None:
    """When the turn worker must act on `game`: a bot's move after the readable delay, or the
    end of a timed person's turn; None while a person has all the time they want, or at the end.
    """
    to_act = registry.of(game).engine.to_act(state)
    if not to_act:
        return None
    if game.seats.filter(position=to_act[0]).exclude(bot_level="").exists():
        return now + timedelta(seconds=settings.BOT_MOVE_DELAY_S)
    if game.turn_seconds:
        return now + timedelta(seconds=game.turn_seconds)
    return None


def leave_game(game_id: int, user, *, now: datetime | None = None) -> Game:
    """A player leaves a game in progress on purpose: the kind's stand-in bot (Biblios: the
    Scholar) plays their seat to the end.

    It counts as a game left on their profile unless they come back (`take_seat_back`).
    """
    with transaction.atomic():
        game, seat = _running_seat(game_id, user)
        if seat.bot_level:
            raise Conflict(gettext("a bot already plays your seat"))
        stand_in = registry.of(game).stand_in
        seat.bot_level, seat.abandoned, seat.consecutive_timeouts = stand_in, True, 0
        seat.save(update_fields=["bot_level", "abandoned", "consecutive_timeouts"])
        signals.seat_abandoned.send(sender=Seat, seat=seat)
        now = now or timezone.now()
        orders.end_active(game, seat.position, "left", now)  # the bot plays its own way
        _reschedule(game, seat, now)
    return game


def take_seat_back(game_id: int, user, *, now: datetime | None = None) -> Game:
    """A player who left (or was replaced after three timeouts) plays their seat again.

    Coming back before the end means the game no longer counts as left.
    """
    with transaction.atomic():
        game, seat = _running_seat(game_id, user)
        if not seat.bot_level:
            raise Conflict(gettext("you are already playing your seat"))
        seat.bot_level, seat.abandoned, seat.consecutive_timeouts = "", False, 0
        seat.save(update_fields=["bot_level", "abandoned", "consecutive_timeouts"])
        _reschedule(game, seat, now or timezone.now())
    return game


def _not_running(game: Game) -> Conflict:
    status = game.get_status_display().lower()
    return Conflict(gettext("this game is %(status)s") % {"status": status})


def _running_seat(game_id: int, user) -> tuple[Game, Seat]:
    game = locked_game(game_id)
    seat = seat_row(game, user)
    if seat is None or not access.may_play(game, access.Visitor.of(game, user, seat=seat.position)):
        raise NotAllowed(gettext("you are not playing in this game"))
    if game.status != Game.Status.ACTIVE:
        raise _not_running(game)
    return game, seat


def _reschedule(game: Game, seat: Seat, now: datetime) -> None:
    """After `seat` changed hands: a new due time if it is that seat's turn, and a push.

    The board's version does not change, so the push is forced (the players list and banner
    show who plays each seat).
    """
    if seat.position in registry.of(game).engine.to_act(game.engine_state()):
        game.due_at = schedule_turn(game, game.engine_state(), now)
        game.save(update_fields=["due_at"])
    game_id, version, user_id = game.pk, game.version, seat.user_id
    transaction.on_commit(lambda: broadcast.game_changed(game_id, version, seats_changed=True))
    if seat.on_turn:  # their "Your turn" count counts only the seats they play themselves
        transaction.on_commit(lambda: live.counts_changed([user_id]))


def _save_state(game: Game, state, *, previous_version: int, due_at: datetime | None) -> bool:
    """Write the new cached state only if nobody else moved first (optimistic check)."""
    engine = registry.of(game).engine
    game.state = engine.dumps(state)
    game.version = state.version
    game.due_at = due_at
    fields = {"state": game.state, "version": game.version, "due_at": due_at}
    to_act = engine.to_act(state)
    if not to_act:  # nobody to act: the game is over (the engine contract)
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.result = engine.result(state)
        fields.update(status=game.status, finished_at=game.finished_at, result=game.result)
    if not Game.objects.filter(pk=game.pk, version=previous_version).update(**fields):
        return False
    mark_turn(game, to_act)
    return True


def mark_turn(game: Game, to_act, *, actor=None) -> None:
    """Mark the seats the engine waits on (`to_act`; none once the game ends), in the
    transaction that saves the state, so the "Your turn" list never needs a state replayed.

    A person the game now waits on who was not waited on already is told at a turn-based table
    (never after their own move: a turn of several moves is one notice; nor the `actor` who
    just started the game, on its page; nor one whose page of the game is open, which shows
    them the turn: `presence.watching`), and the navigations
    whose "Your turn" count changed are redrawn after the commit."""
    waiting = list(to_act)
    before = list(
        game.seats.exclude(user=None)
        .filter(Q(on_turn=True) | Q(position__in=waiting))
        .values_list("position", "user_id", "on_turn", "bot_level")
    )
    game.seats.update(on_turn=Q(position__in=waiting) if waiting else False)  # no empty IN ()
    newly = [
        user
        for position, user, on_turn, bot_level in before
        if position in waiting and not on_turn and not bot_level
    ]
    told = []
    if newly and game.turn_based:
        at_the_board = presence.watching(game, newly)  # their open page shows them the turn
        people = get_user_model().objects.filter(pk__in=set(newly) - at_the_board)
        told = [
            notice.recipient_id
            for notice in notify(people, Notification.Event.YOUR_TURN, game=game, actor=actor)
        ]
    changed = [
        user
        for position, user, on_turn, _ in before
        if on_turn != (position in waiting) and user not in told  # notify redraws theirs
    ]
    if changed:
        transaction.on_commit(lambda: live.counts_changed(changed))


def state_hash(game: Game, state) -> str:
    """A fingerprint of an engine state of `game`, kept with each move for the integrity check."""
    return hashlib.sha256(registry.of(game).engine.dumps(state).encode()).hexdigest()


def record_places(game: Game) -> None:
    """Copy each seat's place and win from the result onto its Seat row (for the histories).

    Every finish passes here inside its transaction, so `signals.game_finished` goes out here
    (a rated game is rated by its receiver in `ratings`).
    """
    players = game.result["players"]
    winners = set(game.result["winners"])
    seats = list(game.seats.all())
    for seat in seats:
        seat.place = players[seat.position]["place"]
        seat.won = seat.position in winners
    Seat.objects.bulk_update(seats, ["place", "won"])
    signals.game_finished.send(sender=Game, game=game)
    # Its players hear of the end at any table, but not from their own last move.
    last = game.moves.order_by("-seq").first()
    mover = None
    if last is not None and last.played_by == Move.PlayedBy.PLAYER:
        mover = next((seat.user for seat in seats if seat.position == last.seat), None)
    people = [seat.user for seat in seats if seat.user_id is not None]
    notify(people, Notification.Event.GAME_FINISHED, game=game, actor=mover, grace=seen_grace(game))


def seen_grace(game: Game) -> timedelta:
    """A live table's players are at its page, which reads its start and end as they come:
    their e-mail and push wait to see if it does. A turn-based table's go at once."""
    return timedelta(0) if game.turn_based else SEEN_GRACE


def after_commit(game: Game, *, lobby: bool) -> None:
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: broadcast.game_changed(game_id, version))
    if lobby:
        transaction.on_commit(broadcast.lobby_changed)
