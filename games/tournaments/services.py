"""Swiss tournaments: scheduling, registration, check-in, the start, each round's tables, the
results, withdrawals and the end (docs/tournaments.md). Every door (the page, the API, the
admin, the clock, the signals) changes a tournament here.

Each change locks the tournament's row, so two tables ending at once open one round, and two
tabs registering at once make one entry. A round's tables are opened by `advance`, after the
commit of the game that ended the round (`on_game_finished` asks for it) and, should that
process die first, by the clock's next poll (`clock.py`): opening is idempotent, the round's
number is unique. The seating is `swiss.pair_round`'s; a table is dealt at once through
`tables.services.seat_players`, and its game's own timers (the stand-in bot at a time-out)
decide every game, so a round always ends.
"""

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext

from biblios_site import errors
from games import signals
from games.kinds import registry
from games.models import (
    TURN_SECONDS,
    Game,
    Seat,
    Tournament,
    TournamentPlayer,
    TournamentRound,
    TournamentTable,
)
from games.tables.services import TableSettings, seat_players
from games.tournaments import swiss
from notifications.models import Notification
from notifications.services import notify

logger = logging.getLogger(__name__)
Event = Notification.Event
Status = Tournament.Status
# A registered player shows up by checking in during this window before the start; whoever has
# not by the start is withdrawn (registering inside the window checks in at once).
CHECK_IN_WINDOW = timedelta(minutes=30)
MAX_ROUNDS = 12
NAME_LENGTH = 80


@dataclass(frozen=True)
class TournamentSettings:
    name: str
    starts_at: datetime
    rounds: int
    table_size: int
    turn_seconds: int
    kind: str | None = None  # a slug of the registry; None: the first installed kind
    variant: str | None = None  # None: the kind's default
    bots_allowed: bool = False
    bot_level: str | None = None  # None: the kind's default bot


def create_tournament(staff, settings: TournamentSettings, *, now=None) -> Tournament:
    """Schedule a tournament (staff only), each setting checked against the registry."""
    return Tournament.objects.create(**checked_settings(staff, settings, now=now), created_by=staff)


def checked_settings(staff, settings: TournamentSettings, *, now=None) -> dict:
    """The fields of a tournament `staff` may schedule with `settings`; a ServiceError names
    the first setting refused (the admin's form asks it before saving)."""
    if not getattr(staff, "is_staff", False):
        raise errors.NotAllowed(gettext("only the staff can create a tournament"))
    now = now or timezone.now()
    name = (settings.name or "").strip()
    if not name or len(name) > NAME_LENGTH:
        raise errors.ServiceError(gettext("a tournament needs a name of 1 to 80 characters"))
    try:
        kind = registry.kinds()[0] if settings.kind is None else registry.get(settings.kind)
    except registry.UnknownKind:
        raise errors.ServiceError(gettext("there is no such game")) from None
    variant = settings.variant or kind.default_variant
    if variant not in {v.slug for v in kind.variants}:
        raise errors.ServiceError(gettext("there is no such variant of this game"))
    if settings.table_size not in (2, 3, 4) or settings.table_size not in kind.player_counts:
        raise errors.ServiceError(gettext("tables must seat 2, 3 or 4 players of this game"))
    if not 1 <= settings.rounds <= MAX_ROUNDS:
        raise errors.ServiceError(gettext("a tournament has 1 to 12 rounds"))
    if settings.turn_seconds not in TURN_SECONDS:
        raise errors.ServiceError(
            gettext("the time per move must be 30, 60 or 180 seconds, or 12, 24 or 72 hours")
        )
    bot_level = settings.bot_level or kind.default_bot
    if bot_level not in kind.bot_level_slugs:
        raise errors.ServiceError(gettext("there is no such bot level"))
    if settings.starts_at <= now:
        raise errors.ServiceError(gettext("a tournament starts in the future"))
    return {
        "name": name,
        "kind": kind.slug,
        "variant": variant,
        "table_size": settings.table_size,
        "rounds": settings.rounds,
        "starts_at": settings.starts_at,
        "turn_seconds": settings.turn_seconds,
        "bots_allowed": settings.bots_allowed,
        "bot_level": bot_level,
    }


def locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise errors.NotFound(gettext("there is no such tournament"))
    return tournament


def check_in_opens(tournament: Tournament) -> datetime:
    return tournament.starts_at - CHECK_IN_WINDOW


def _person(user):
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise errors.Unauthorized(gettext("log in to take part in a tournament"))
    return user


def _before_start(tournament: Tournament, now: datetime) -> None:
    if tournament.status != Status.SCHEDULED or now >= tournament.starts_at:
        raise errors.Conflict(gettext("this tournament has started: registration is closed"))


def register(tournament_id: int, user, *, now=None) -> TournamentPlayer:
    """Register `user` until the start; inside the check-in window it counts as checking in."""
    now = now or timezone.now()
    _person(user)
    with transaction.atomic():
        tournament = locked(tournament_id)
        _before_start(tournament, now)
        if tournament.players.filter(user=user).exists():
            raise errors.Conflict(gettext("you are registered for this tournament already"))
        checked_in = now if now >= check_in_opens(tournament) else None
        entry = TournamentPlayer.objects.create(
            tournament=tournament, user=user, checked_in_at=checked_in
        )
        notify(
            user,
            Event.TOURNEY_REGISTERED,
            tournament=tournament,
            cause=f"t{tournament.pk}e{entry.pk}",
        )
    return entry


def unregister(tournament_id: int, user, *, now=None) -> None:
    """Take `user`'s registration back, until the start."""
    now = now or timezone.now()
    _person(user)
    with transaction.atomic():
        tournament = locked(tournament_id)
        _before_start(tournament, now)
        deleted, _ = tournament.players.filter(user=user).delete()
        if not deleted:
            raise errors.Conflict(gettext("you are not registered for this tournament"))


def check_in(tournament_id: int, user, *, now=None) -> TournamentPlayer:
    """Say "I'm here" in the window before the start; who has not by then is withdrawn."""
    now = now or timezone.now()
    _person(user)
    with transaction.atomic():
        tournament = locked(tournament_id)
        _before_start(tournament, now)
        entry = tournament.players.filter(user=user).first()
        if entry is None:
            raise errors.Conflict(gettext("register for this tournament first"))
        if now < check_in_opens(tournament):
            raise errors.Conflict(
                gettext("check-in opens %(minutes)s minutes before the start")
                % {"minutes": int(CHECK_IN_WINDOW.total_seconds() // 60)}
            )
        if entry.checked_in_at is None:
            entry.checked_in_at = now
            entry.save(update_fields=["checked_in_at"])
    return entry


def withdraw(tournament: Tournament, entry: TournamentPlayer, why: str, now: datetime) -> None:
    """Leave `entry` out of every round still to be paired, and tell them (in the caller's
    transaction, the tournament's row locked or the entry being written by its only door)."""
    if entry.withdrawn:
        return
    entry.withdrawn, entry.withdrawn_at = why, now
    entry.save(update_fields=["withdrawn", "withdrawn_at"])
    notify(
        entry.user,
        Event.TOURNEY_WITHDRAWN,
        tournament=tournament,
        cause=f"t{tournament.pk}w",
    )


def remove_player(tournament_id: int, user_id: int, *, now=None) -> None:
    """The staff withdraw a player from the rounds still to come (their past results stay)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise errors.Conflict(gettext("this tournament is over"))
        entry = tournament.players.filter(user_id=user_id).first()
        if entry is None:
            raise errors.NotFound(gettext("that player is not in this tournament"))
        withdraw(tournament, entry, TournamentPlayer.Withdrawal.REMOVED, now)
    transaction.on_commit(lambda: advance_or_log(tournament_id))


def cancel(tournament_id: int, *, now=None) -> Tournament:
    """The staff call a tournament off: no round is paired any more and its players are told;
    the games in progress play to their end (their players' results are theirs)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.status in (Status.FINISHED, Status.CANCELLED):
            raise errors.Conflict(gettext("this tournament is over"))
        _close(tournament, Status.CANCELLED, Event.TOURNEY_CANCELLED, now)
    return tournament


def _close(tournament: Tournament, status: str, event: str, now: datetime) -> None:
    tournament.status, tournament.finished_at = status, now
    tournament.save(update_fields=["status", "finished_at"])
    people = [entry.user for entry in tournament.players.select_related("user")]
    notify(people, event, tournament=tournament, cause=f"t{tournament.pk}end")


def start_due(*, now=None) -> int:
    """Start each tournament whose time has come, and open any round a lost process left
    unopened; how many tournaments moved."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=Status.SCHEDULED, starts_at__lte=now)
    moved = sum(start(pk, now=now) for pk in due.values_list("pk", flat=True))
    running = Tournament.objects.filter(status=Status.RUNNING).values_list("pk", flat=True)
    return moved + sum(advance(pk, now=now) for pk in running)


def start(tournament_id: int, *, now=None) -> bool:
    """At the start: withdraw who did not check in, then pair and open round 1 (or cancel a
    tournament left without a table's worth of players)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.status != Status.SCHEDULED or now < tournament.starts_at:
            return False
        for entry in tournament.players.filter(checked_in_at=None, withdrawn=""):
            withdraw(tournament, entry, TournamentPlayer.Withdrawal.NO_SHOW, now)
        tournament.status = Status.RUNNING
        tournament.save(update_fields=["status"])
        _open_round(tournament, 1, now)
    return True


def advance(tournament_id: int, *, now=None) -> bool:
    """If the running round's tables are all over, close it, then open the next round or end
    the tournament. Idempotent: asked after each table's end and by the clock."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.status != Status.RUNNING:
            return False
        current = tournament.round_set.order_by("-number").first()
        if current is None:
            _open_round(tournament, 1, now)
            return True
        if current.finished_at is None:
            games = Game.objects.filter(tournament_table__round=current)
            if games.filter(status__in=(Game.Status.OPEN, Game.Status.ACTIVE)).exists():
                return False
            current.finished_at = now
            current.save(update_fields=["finished_at"])
        if current.number >= tournament.rounds:
            _close(tournament, Status.FINISHED, Event.TOURNEY_OVER, now)
            return True
        _open_round(tournament, current.number + 1, now)
    return True


def advance_or_log(tournament_id: int) -> None:
    """`advance` after a commit (the move that ended a table is saved, whatever happens here):
    a failure is logged, and the clock's next poll tries again."""
    try:
        advance(tournament_id)
    except Exception:
        logger.exception("opening the next round of tournament %s failed", tournament_id)


def results(tournament: Tournament) -> list[dict]:
    """Every finished table and bye so far, as `swiss.standings` takes them."""
    found = []
    rounds = tournament.round_set.prefetch_related("tables")
    for played in rounds:
        found += [{"bye": user_id, "size": tournament.table_size} for user_id in played.byes]
        found += [
            {"places": {int(user): place for user, place in table.places.items()}, "size": size}
            for table in played.tables.all()
            if table.places
            for size in [tournament.table_size]
        ]
    return found


def _open_round(tournament: Tournament, number: int, now: datetime) -> None:
    """Pair round `number` from the standings and deal its tables; too few players left ends
    the tournament (cancelled before any table was played, else finished)."""
    entries = list(tournament.players.select_related("user"))
    for entry in entries:  # a banned account takes no seat (the join rule would refuse it)
        if not entry.user.is_active:
            withdraw(tournament, entry, TournamentPlayer.Withdrawal.REMOVED, now)
    played = results(tournament)
    standing = swiss.standings([entry.user_id for entry in entries], played)
    playing = {entry.user_id: entry.user for entry in entries if not entry.withdrawn}
    ranked = [row.player for row in standing if row.player in playing]
    met = {
        frozenset((a, b))
        for result in played
        if "places" in result
        for a in result["places"]
        for b in result["places"]
        if a != b
    }
    byes = {row.player: row.byes for row in standing}
    try:
        pairing = swiss.pair_round(
            ranked,
            tournament.table_size,
            met,
            byes,
            bots_allowed=tournament.bots_allowed,
            seed=f"{tournament.seed}/{number}",
        )
    except ValueError:
        closing = Status.CANCELLED if number == 1 else Status.FINISHED
        event = Event.TOURNEY_CANCELLED if number == 1 else Event.TOURNEY_OVER
        _close(tournament, closing, event, now)
        return
    opened = TournamentRound.objects.create(
        tournament=tournament, number=number, byes=pairing.byes, started_at=now
    )
    for seated, bots in zip(pairing.tables, pairing.bots, strict=True):
        people = [playing[user_id] for user_id in seated]
        table = TableSettings(
            num_players=tournament.table_size,
            kind=tournament.kind,
            variant=tournament.variant,
            turn_seconds=tournament.turn_seconds,
            bots=(None,) * (len(people) - 1) + (tournament.bot_level,) * bots,
        )
        game = seat_players(people[0], table, people[1:], start=True)
        TournamentTable.objects.create(round=opened, game=game)
        notify(
            people,
            Event.TOURNEY_ROUND,
            game=game,
            tournament=tournament,
            cause=f"t{tournament.pk}r{number}",
        )
    resting = [playing[user_id] for user_id in pairing.byes]
    notify(resting, Event.TOURNEY_ROUND, tournament=tournament, cause=f"t{tournament.pk}r{number}")


# What a player may do before the start, by the name every door (page, API) gives it.
PLAYER_ACTIONS = {"register": register, "unregister": unregister, "check-in": check_in}


@receiver(signals.game_finished, dispatch_uid="tournament_table_finished")
def on_game_finished(sender, game: Game, **kwargs) -> None:
    """A tournament table's end (in the finishing transaction): its places recorded, then the
    round's progress asked after the commit, in a transaction of its own."""
    table = TournamentTable.objects.filter(game=game).select_related("round").first()
    if table is None:
        return
    seats = Seat.objects.filter(game=game).exclude(user=None)
    table.places = {str(seat.user_id): seat.place for seat in seats}
    table.save(update_fields=["places"])
    tournament_id = table.round.tournament_id
    transaction.on_commit(lambda: advance_or_log(tournament_id))


@receiver(signals.seat_abandoned, dispatch_uid="tournament_seat_abandoned")
def on_seat_abandoned(sender, seat: Seat, **kwargs) -> None:
    """A player who leaves a tournament game (or times out into a stand-in) is withdrawn from the
    later rounds; taking the seat back does not undo it: leaving and coming back wins nothing."""
    table = TournamentTable.objects.filter(game_id=seat.game_id).select_related("round").first()
    if table is None or seat.user_id is None:
        return
    tournament = locked(table.round.tournament_id)  # not while its next round is being paired
    entry = tournament.players.filter(user_id=seat.user_id).first()
    if entry is not None:
        withdraw(tournament, entry, TournamentPlayer.Withdrawal.LEFT, timezone.now())
