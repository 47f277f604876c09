"""The one service layer: views, consumers, the API, the admin and bots all change games here.

Each service locks the game row, validates, writes, and broadcasts after commit; the channel
layer only carries hints ("game N is at version V"), never game data, so every receiver renders
its own view from the database (`view(state, seat)`).
"""

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from biblios_site.errors import (
    Conflict,
    IllegalMove,
    NotAllowed,
    NotFound,
    ServiceError,
    StaleVersion,
    TimeUp,
)
from friends import selectors as friendships
from games import access, broadcast, presence, selectors, signals
from games.kinds import registry
from games.models import TURN_SECONDS, Game, ModerationAction, Move, RematchOffer, Seat
from notifications import live
from notifications.models import Notification
from notifications.services import SEEN_GRACE, notify

# A person who lets their time run out this many turns in a row is replaced by a bot (the
# kind's `stand_in`, which also moves for them when their time runs out).
TIMEOUTS_BEFORE_TAKEOVER = 3


@dataclass(frozen=True)
class TableSettings:
    num_players: int
    # A slug of the game registry; None: the first installed kind.
    kind: str | None = None
    # One of the kind's variants; None: its default.
    variant: str | None = None
    # The kind's table options, as its options form takes them (missing ones: their default).
    options: dict = field(default_factory=dict)
    private: bool = False
    spectators_allowed: bool = True
    # Only the host's friends may join (and find it in the lobby).
    friends_only: bool = False
    turn_seconds: int | None = None
    # Bot levels for the seats after the host's, in order; None or "" leaves a seat for people.
    bots: tuple = ()
    # None: rated when only people sit down, unrated as soon as a bot does.
    rated: bool | None = None


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(f"there is no game {game_id}") from None


def _seat_row(game: Game, user) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user=user).first()


# ----------------------------------------------------------------------------- tables


def create_table(host, table: TableSettings) -> Game:
    """Open a table of a live game kind and seat its host: a variant, player count, options and
    bot levels of that kind (Biblios: R1's 2–4 players, §8's options per edition). A table of one
    (a kind whose `player_counts` has 1: a solo game against the game itself) starts at once and
    is never rated."""
    kind = _checked_kind(table.kind)
    variant = _checked_variant(kind, table.variant)
    if table.num_players not in kind.player_counts:
        raise ServiceError(
            gettext("%(kind)s is played by %(counts)s players")
            % {"kind": kind.name, "counts": _either(kind.player_counts)}
        )
    options = _checked_options(kind, variant, table.num_players, table.options)
    _check_the_engine_plays(kind, table.num_players, variant, options)
    if table.turn_seconds is not None and table.turn_seconds not in TURN_SECONDS:
        raise ServiceError(
            gettext(
                "the turn time must be 30, 60 or 180 seconds (live), 43200, 86400 or 259200 "
                "seconds (turn-based: 12, 24 or 72 hours), or none"
            )
        )
    bots = _checked_bots(kind, table)
    if table.num_players == 1 and table.rated:
        raise ServiceError(gettext("a solo game is never rated: nobody plays against you"))
    with transaction.atomic():
        _refuse_too_many_open_tables(host)
        game = Game.objects.create(
            host=host,
            num_players=table.num_players,
            kind=kind.slug,
            variant=variant,
            options=options,
            private=table.private,
            spectators_allowed=table.spectators_allowed,
            friends_only=table.friends_only,
            turn_seconds=table.turn_seconds,
            rated=_rated(table, bots),
        )
        Seat.objects.create(game=game, user=host, position=0)
        Seat.objects.bulk_create(
            Seat(game=game, user=None, bot_level=level, position=position)
            for position, level in enumerate(bots, start=1)
            if level
        )
        transaction.on_commit(lambda: broadcast.lobby_changed())
    return game


def _refuse_too_many_open_tables(host) -> None:
    """Conflict if `host` already has settings.MAX_OPEN_TABLES_PER_USER tables waiting to start
    (one user once filled the lobby). Locking the host's row keeps the count exact when one
    user opens tables at once."""
    get_user_model().objects.select_for_update().filter(pk=host.pk).first()
    cap = settings.MAX_OPEN_TABLES_PER_USER
    if Game.objects.filter(host=host, status=Game.Status.OPEN).count() >= cap:
        raise Conflict(
            ngettext(
                "you already have %(count)s open table; start or close it first",
                "you already have %(count)s open tables; start or close one first",
                cap,
            )
            % {"count": cap}
        )


def _checked_kind(slug: str | None) -> registry.GameKind:
    """The live kind named `slug` (None: the first installed); alpha kinds are not offered."""
    if slug is None:
        return registry.kinds()[0]
    try:
        return registry.get(slug)
    except registry.UnknownKind:
        known = ", ".join(kind.slug for kind in registry.kinds())
        raise ServiceError(f"unknown game kind {str(slug)[:40]!r}; choose one of {known}") from None


def _checked_variant(kind: registry.GameKind, slug: str | None) -> str:
    variants = [variant.slug for variant in kind.variants]
    if slug is None:
        return kind.default_variant
    if slug not in variants:
        known = ", ".join(variants)
        raise ServiceError(
            f"unknown variant {str(slug)[:40]!r} of {kind.name}; choose one of {known}"
        )
    return slug


def _checked_options(kind: registry.GameKind, variant: str, players: int, options) -> dict:
    """The engine options of a new table: only the kind's own, each a JSON value of the type the
    kind's options form reads it as (a switch true or false, a level a whole number…), valid
    together for this variant and table size by that form, which the lobby's form binds too; its
    cleaned data (every option the table takes, defaults filled in) are what is stored. An option
    the form drops at this size (Ex Libris' solo difficulty at a table of 3) is refused here,
    where it was asked for by name; the lobby, which posts every field, ignores it."""
    if not isinstance(options, dict):
        raise ServiceError(gettext("options must be an object of the game's options"))
    form = kind.options_form(variant, data=options, players=players)
    unknown = sorted(set(options) - set(form.fields))
    if unknown:
        raise ServiceError(
            f"unknown option(s) {', '.join(map(str, unknown))[:200]}; {kind.name} has "
            f"{', '.join(form.fields) or 'none'}"
        )
    if not form.is_valid():
        raise ServiceError(
            " ".join(message for errors in form.errors.values() for message in errors)
        )
    for name, value in options.items():
        if name not in form.cleaned_data:
            raise ServiceError(f"option {name} does not apply at a table of {players}")
        read = form.cleaned_data[name]
        if type(read) is not type(value) or read != value:  # "3" for 3, 1 for true: not JSON's
            wanted = _JSON_TYPES.get(type(read), f"a {type(read).__name__}")
            raise ServiceError(f"option {name} must be {wanted}")
    return form.cleaned_data


_JSON_TYPES = {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}


def _check_the_engine_plays(kind: registry.GameKind, players: int, variant: str, options) -> None:
    """Ask the engine whether it deals this game, so that a table it would refuse is refused when
    it is opened, with the engine's reason, and not when its host starts it."""
    engine = kind.engine
    try:
        engine.new_game(players, seed=0, variant=variant, options=options)
    except engine.IllegalAction as refusal:
        raise ServiceError(str(refusal)) from None


def _rated(table: TableSettings, bots: list[str]) -> bool:
    """People only: rated unless the host says not; a bot at the table: unrated unless the host
    says so. A solo game never is (it has no opponent to be rated against)."""
    if table.num_players == 1:
        return False
    return not any(bots) if table.rated is None else table.rated


def _either(counts) -> str:
    """2, 3 or 4."""
    words = [str(count) for count in counts]
    if len(words) == 1:
        return words[0]
    return gettext("%(some)s or %(last)s") % {"some": ", ".join(words[:-1]), "last": words[-1]}


def _checked_bots(kind: registry.GameKind, table: TableSettings) -> list[str]:
    """The bot level of each seat after the host's ("" for a seat left to people). Only None
    leaves a seat to people: `{}`, `0`, `false` or `""` from a client are mistakes, not seats."""
    if isinstance(table.bots, str | bytes) or not isinstance(table.bots, list | tuple):
        raise ServiceError(gettext("bots must be a list of bot levels (or nulls for open seats)"))
    if len(table.bots) > table.num_players - 1:
        raise ServiceError(
            f"a table of {table.num_players} has {table.num_players - 1} seats besides the host's"
        )
    for index, level in enumerate(table.bots):
        if level is not None and not (isinstance(level, str) and level in kind.bot_level_slugs):
            raise ServiceError(
                f"bots[{index}]: unknown bot level {str(level)[:20]!r}; use "
                f"{', '.join(kind.bot_level_slugs)}, or null for a seat left to people"
            )
    return ["" if level is None else level for level in table.bots]


def join_table(game_id: int, user, *, invited: bool = False) -> Game:
    """Take the first free seat of an open table, if the join rule (`access.join_refusal`: an
    active account, the invite of a private table, a friend of a friends-only table's host)
    lets `user` sit there: asked here, so every door and every caller obeys it. `invited`: the
    visitor holds the table's invite (the link, its code, a rematch offer)."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.OPEN:
            raise Conflict(gettext("this game has already started"))
        if refusal := access.join_refusal(game, user, invited=invited):
            raise NotAllowed(refusal)
        taken = list(game.seats.values_list("position", "user_id"))
        if any(user_id == user.pk for _, user_id in taken):
            raise Conflict(gettext("you are already seated at this table"))
        free = sorted(set(range(game.num_players)) - {position for position, _ in taken})
        if not free:
            raise Conflict(gettext("this table is full"))
        Seat.objects.create(game=game, user=user, position=free[0])
        _after_commit(game, lobby=True)
    return game


def join_by_invite(invite_code: str, user) -> Game:
    game = Game.objects.filter(invite_code=invite_code).only("pk").first()
    if game is None:
        raise NotFound(gettext("this invite link is not valid"))
    return join_table(game.pk, user, invited=True)


def leave_table(game_id: int, user) -> Game:
    """Leave a table before it starts; a leaving host closes the table for everyone."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.OPEN:
            raise Conflict(gettext("a game in progress cannot be left from the lobby"))
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise Conflict(gettext("you are not seated at this table"))
        if game.host_id == user.pk:
            game.status = Game.Status.ABORTED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at"])
        else:
            seat.delete()
        _after_commit(game, lobby=True)
    return game


def remove_player(game_id: int, host, *, user_id: int) -> Game:
    """The host removes a player before the start."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.host_id != host.pk:
            raise NotAllowed(gettext("only the host can remove players"))
        if game.status != Game.Status.OPEN:
            raise Conflict(gettext("players can only be removed before the start"))
        if user_id == host.pk:
            raise ServiceError(gettext("the host cannot remove themself; leave the table instead"))
        deleted, _ = game.seats.filter(user_id=user_id).delete()
        if not deleted:
            raise NotFound(gettext("that player is not at this table"))
        _after_commit(game, lobby=True)
    return game


def invite_friend(game_id: int, inviter, friend) -> Game:
    """A seated player invites a friend to the open table: `friend` gets an in-site
    notification (and whatever deliveries they chose) with a join button.

    Refused for someone not seated, a friend who is not one (blocking ends a friendship: a
    blocked user is refused with the rest), a friend the table would not seat (friends of the
    host only), and a table started or full."""
    if not getattr(friend, "is_active", False):
        raise NotFound(gettext("there is no such player"))
    with transaction.atomic():
        game = _locked(game_id)
        if _seat_row(game, inviter) is None:
            raise NotAllowed(gettext("only the table's players can invite to it"))
        if game.status != Game.Status.OPEN:
            raise Conflict(gettext("this game has already started"))
        if friend.pk == inviter.pk or game.seats.filter(user=friend).exists():
            raise Conflict(gettext("this player is seated at this table already"))
        if not friendships.are_friends(inviter, friend):  # a block ended any friendship
            raise NotAllowed(gettext("you can only invite your friends"))
        if refusal := access.friends_only_refusal(game, friend):
            raise NotAllowed(refusal)
        if game.seats.count() >= game.num_players:
            raise Conflict(gettext("this table is full"))
        notify(friend, Notification.Event.INVITATION, game=game, actor=inviter)
    return game


def start_game(game_id: int, user, *, now: datetime | None = None) -> Game:
    """The host starts a full table; the first player is drawn from the seed (R2)."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.host_id != user.pk:
            raise NotAllowed(gettext("only the host can start the game"))
        if game.status != Game.Status.OPEN:
            raise Conflict(gettext("this game has already started"))
        if game.seats.count() != game.num_players:
            raise Conflict(f"the table needs {game.num_players} players to start")
        _compact_seats(game)
        engine = registry.of(game).engine
        try:
            state = engine.new_game(
                game.num_players,
                seed=game.seed,
                variant=game.variant,
                options=game.options,
            )
        except engine.IllegalAction as refusal:
            raise ServiceError(str(refusal)) from None
        game.setup = engine.setup_of(state)
        game.state = engine.dumps(state)
        game.version = state.version
        game.status = Game.Status.ACTIVE
        game.started_at = now or timezone.now()
        game.due_at = _due_at(game, state, game.started_at)
        game.save(update_fields=["setup", "state", "version", "status", "started_at", "due_at"])
        _mark_turn(game, engine.to_act(state), actor=user)
        # The seated players hear of the start at any table: one who joined and switched tabs
        # is not watching the waiting room. At a turn-based table the one to act is told it
        # is their turn instead (`_mark_turn`).
        others = game.seats.exclude(user=None).select_related("user")
        if game.turn_based:
            others = others.filter(on_turn=False)
        notify(
            [seat.user for seat in others],
            Notification.Event.GAME_STARTED,
            game=game,
            actor=user,
            grace=_seen_grace(game),
        )
        _after_commit(game, lobby=True)
    return game


def _compact_seats(game: Game) -> None:
    """Positions become 0…N-1 in joining order (players may have left and rejoined)."""
    for position, seat in enumerate(game.seats.order_by("position", "joined_at")):
        if seat.position != position:
            Seat.objects.filter(pk=seat.pk).update(position=position)


# ------------------------------------------------------------------------------ moves


def submit_action(game_id: int, user, action, *, version, now: datetime | None = None) -> Game:
    """Apply one action for `user` if it is legal, in time and made against board `version`.

    Exactly one of two racing submissions applies: the row lock serialises them where the
    database has locks, and the version check plus the unique (game, seq) move make the loser
    fail everywhere else. `now` is the time of arrival (tests pass it instead of sleeping).
    """
    if isinstance(version, bool) or not isinstance(version, int):
        raise ServiceError(gettext("the board version must be a whole number"))
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
            if (
                game.due_at is not None
                and now >= game.due_at
                and seat.position in registry.of(game).engine.to_act(state)
            ):
                raise TimeUp("your time for this move ran out; a bot moves for you this turn")
            if seat.consecutive_timeouts:
                Seat.objects.filter(pk=seat.pk).update(consecutive_timeouts=0)
            _apply(game, state, seat.position, action, Move.PlayedBy.PLAYER, now)
    except IntegrityError:
        raise StaleVersion(Game.objects.get(pk=game_id).version) from None
    return game


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
            game = _locked(game_id)
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
            _apply(game, state, seat.position, action, played_by, now)
    except IntegrityError:
        raise StaleVersion(Game.objects.get(pk=game_id).version) from None
    return game


def _apply(game: Game, state, position: int, action, played_by: str, now: datetime) -> None:
    """Apply, log and save one move of the locked `game`, and schedule the next due time."""
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
    due_at = _due_at(game, new_state, now)
    if not _save_state(game, new_state, previous_version=state.version, due_at=due_at):
        raise StaleVersion(Game.objects.get(pk=game.pk).version)
    if game.status == Game.Status.FINISHED:
        record_places(game)
    _after_commit(game, lobby=game.status == Game.Status.FINISHED)


def _due_at(game: Game, state, now: datetime) -> datetime | None:
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


# ----------------------------------------------------------------------- leaving a game


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
        _reschedule(game, seat, now or timezone.now())
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
    game = _locked(game_id)
    seat = _seat_row(game, user)
    if seat is None or not access.may_play(game, user, seat=seat.position):
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
        game.due_at = _due_at(game, game.engine_state(), now)
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
    _mark_turn(game, to_act)
    return True


def _mark_turn(game: Game, to_act, *, actor=None) -> None:
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


def abort_game(game_id: int, moderator, reason: str) -> Game:
    """A moderator ends a game in progress (or an open table); its players see why it ended."""
    reason = (reason or "").strip()
    if not getattr(moderator, "is_staff", False):
        raise NotAllowed(gettext("only moderators can abort games"))
    if not reason:
        raise ServiceError(gettext("give a reason for aborting the game"))
    with transaction.atomic():
        game = _locked(game_id)
        if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
            raise Conflict(f"game {game_id} is {game.get_status_display().lower()} already")
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
        _mark_turn(game, [])
        ModerationAction.objects.create(
            moderator=moderator,
            kind=ModerationAction.Kind.ABORT_GAME,
            game=game,
            reason=reason,
            detail={"version": game.version},
        )
        _after_commit(game, lobby=True)
    return game


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
    notify(
        people, Notification.Event.GAME_FINISHED, game=game, actor=mover, grace=_seen_grace(game)
    )


def _seen_grace(game: Game) -> timedelta:
    """A live table's players are at its page, which reads its start and end as they come:
    their e-mail and push wait to see if it does. A turn-based table's go at once."""
    return timedelta(0) if game.turn_based else SEEN_GRACE


def _after_commit(game: Game, *, lobby: bool) -> None:
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: broadcast.game_changed(game_id, version))
    if lobby:
        transaction.on_commit(broadcast.lobby_changed)


# ---------------------------------------------------------------------------- rematch


def rematch(game_id: int, user) -> Game:
    """Play again with the same players: a new table like the finished one (kind, variant,
    options, seat count, turn time, privacy, friends only, bot seats), the requester seated.

    The first player to ask opens it and the others are told, except those who blocked the
    asker or whom the asker blocked (they are not offered that table either); every later
    request (the others' one-click join) seats the asker at that table instead of opening
    another. Each player offers a rematch of a game once, for good (`RematchOffer`): the
    offer's table closed (its host left) or gone, asking again is refused, so nobody is told
    twice by the same player. Another player of the game may still offer once.
    """
    with transaction.atomic():
        game = _locked(game_id)  # one rematch table per game, even when players ask at once
        if game.status != Game.Status.FINISHED:
            raise Conflict(gettext("only a finished game can be played again"))
        if _seat_row(game, user) is None:
            raise NotAllowed(gettext("only this game's players can ask for a rematch"))
        offer = selectors.rematch_offer(game, user)
        if offer is not None:
            if _seat_row(offer, user) is None:
                join_table(offer.pk, user, invited=True)  # offered to this game's players
            return offer
        if selectors.has_offered_rematch(game, user):
            raise Conflict(gettext("you have already offered a rematch of this game"))
        bots = game.seats.filter(user__isnull=True).order_by("position")
        table = TableSettings(
            num_players=game.num_players,
            kind=game.kind,
            variant=game.variant,
            options=dict(game.options),
            private=game.private,
            spectators_allowed=game.spectators_allowed,
            friends_only=game.friends_only,
            turn_seconds=game.turn_seconds,
            bots=tuple(bots.values_list("bot_level", flat=True)),
            rated=game.rated,
        )
        new_game = create_table(user, table)
        RematchOffer.objects.create(game=game, asker=user, table=new_game)
        shunned = friendships.blocked_either_way_ids(user)
        others = (
            game.seats.exclude(user=None)
            .exclude(user=user)
            .exclude(user__in=shunned)
            .select_related("user")
        )
        notify(
            [seat.user for seat in others], Notification.Event.REMATCH, game=new_game, actor=user
        )
        # News for the old page at the same version: its players now see the offer.
        transaction.on_commit(
            lambda: broadcast.game_changed(game.pk, game.version, seats_changed=True)
        )
    return new_game
