"""The one service layer: views, consumers, the API, the admin and bots all change games here.

Each service locks the game row, validates, writes, and broadcasts after commit; the channel
layer only carries hints ("game N is at version V"), never game data, so every receiver renders
its own view from the database (`view(state, seat)`).
"""

import hashlib
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import broadcast
from games.engine import biblios
from games.models import Game, ModerationAction, Move, Seat
from ratings.services import rate_game


class ServiceError(Exception):
    """A refused request; `status` is the HTTP status an edge should answer with."""

    status = 400


class NotAllowed(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class StaleVersion(Conflict):
    """The move was made against an old board; `current_version` says what is current now."""

    def __init__(self, current_version: int):
        super().__init__(
            f"the board has changed (now at version {current_version}); reload and try again"
        )
        self.current_version = current_version


class IllegalMove(ServiceError):
    """The engine refused the action; the message names the rule."""


@dataclass(frozen=True)
class TableSettings:
    num_players: int
    edition: str = Game.Edition.BIBLIOS
    medieval_bluff: bool = False
    forbid_uncoverable_bids: bool = False
    private: bool = False
    spectators_allowed: bool = True

    def engine_options(self) -> dict:
        return {
            "medieval_bluff": self.medieval_bluff,
            "forbid_uncoverable_bids": self.forbid_uncoverable_bids,
        }


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(f"there is no game {game_id}") from None


def seat_of(game: Game, user) -> int | None:
    """The engine seat of `user` at `game`, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user=user).values_list("position", flat=True).first()


# ----------------------------------------------------------------------------- tables


def create_table(host, table: TableSettings) -> Game:
    """Open a table and seat its host (R1's 2–4 players, §8's options per edition)."""
    if table.num_players not in (2, 3, 4):
        raise ServiceError("a table seats 2, 3 or 4 players")
    if table.edition not in Game.Edition.values:
        raise ServiceError(f"unknown edition {table.edition!r}")
    if table.medieval_bluff and table.edition != Game.Edition.BIBLIOS:
        raise ServiceError("Medieval bluff is a Biblios option, not in Scripts & Scribes (R15)")
    with transaction.atomic():
        game = Game.objects.create(
            host=host,
            num_players=table.num_players,
            edition=table.edition,
            options=table.engine_options(),
            private=table.private,
            spectators_allowed=table.spectators_allowed,
        )
        Seat.objects.create(game=game, user=host, position=0)
        transaction.on_commit(lambda: broadcast.lobby_changed())
    return game


def join_table(game_id: int, user) -> Game:
    """Take the first free seat of an open table."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.OPEN:
            raise Conflict("this game has already started")
        taken = list(game.seats.values_list("position", "user_id"))
        if any(user_id == user.pk for _, user_id in taken):
            raise Conflict("you are already seated at this table")
        free = sorted(set(range(game.num_players)) - {position for position, _ in taken})
        if not free:
            raise Conflict("this table is full")
        Seat.objects.create(game=game, user=user, position=free[0])
        _after_commit(game, lobby=True)
    return game


def join_by_invite(invite_code: str, user) -> Game:
    game = Game.objects.filter(invite_code=invite_code).only("pk").first()
    if game is None:
        raise NotFound("this invite link is not valid")
    return join_table(game.pk, user)


def leave_table(game_id: int, user) -> Game:
    """Leave a table before it starts; a leaving host closes the table for everyone."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.status != Game.Status.OPEN:
            raise Conflict("a game in progress cannot be left from the lobby")
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise Conflict("you are not seated at this table")
        if game.host_id == user.pk:
            game.status = Game.Status.ABORTED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at"])
        else:
            seat.delete()
        _after_commit(game, lobby=True)
    return game


def remove_player(game_id: int, host, user_id: int) -> Game:
    """The host removes a player before the start."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.host_id != host.pk:
            raise NotAllowed("only the host can remove players")
        if game.status != Game.Status.OPEN:
            raise Conflict("players can only be removed before the start")
        if user_id == host.pk:
            raise ServiceError("the host cannot remove themself; leave the table instead")
        deleted, _ = game.seats.filter(user_id=user_id).delete()
        if not deleted:
            raise NotFound("that player is not at this table")
        _after_commit(game, lobby=True)
    return game


def start_game(game_id: int, user, *, first_player: int | None = None) -> Game:
    """The host starts a full table; the first player is drawn from the seed (R2)."""
    with transaction.atomic():
        game = _locked(game_id)
        if game.host_id != user.pk:
            raise NotAllowed("only the host can start the game")
        if game.status != Game.Status.OPEN:
            raise Conflict("this game has already started")
        if game.seats.count() != game.num_players:
            raise Conflict(f"the table needs {game.num_players} players to start")
        _compact_seats(game)
        try:
            state = biblios.new_game(
                game.num_players,
                seed=game.seed,
                edition=game.edition,
                options=game.options,
                first_player=first_player,
            )
        except biblios.IllegalAction as refusal:
            raise ServiceError(str(refusal)) from None
        game.setup = biblios.setup_of(state)
        game.state = biblios.dumps(state)
        game.version = state.version
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        game.save(update_fields=["setup", "state", "version", "status", "started_at"])
        _after_commit(game, lobby=True)
    return game


def _compact_seats(game: Game) -> None:
    """Positions become 0…N-1 in joining order (players may have left and rejoined)."""
    for position, seat in enumerate(game.seats.order_by("position", "joined_at")):
        if seat.position != position:
            Seat.objects.filter(pk=seat.pk).update(position=position)


# ------------------------------------------------------------------------------ moves


def submit_action(game_id: int, user, action, expected_version) -> Game:
    """Apply one action for `user` if it is legal and made against the current version.

    Exactly one of two racing submissions applies: the row lock serialises them where the
    database has locks, and the version check plus the unique (game, seq) move make the loser
    fail everywhere else.
    """
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise ServiceError("the board version must be a whole number")
    try:
        with transaction.atomic():
            game = _locked(game_id)
            position = seat_of(game, user)
            if position is None:
                raise NotAllowed("you are not playing in this game")
            if game.status != Game.Status.ACTIVE:
                raise Conflict(f"this game is {game.get_status_display().lower()}")
            if expected_version != game.version:
                raise StaleVersion(game.version)
            state = game.engine_state()
            try:
                new_state = biblios.apply_action(state, position, action)
            except biblios.IllegalAction as refusal:
                raise IllegalMove(str(refusal)) from None
            Move.objects.create(
                game=game,
                seq=new_state.version,
                seat=position,
                action=action,
                state_hash=state_hash(new_state),
            )
            updated = _save_state(game, new_state, previous_version=state.version)
            if not updated:
                raise StaleVersion(Game.objects.get(pk=game_id).version)
            if game.status == Game.Status.FINISHED:
                record_places(game)
            _after_commit(game, lobby=game.status == Game.Status.FINISHED)
    except IntegrityError:
        raise StaleVersion(Game.objects.get(pk=game_id).version) from None
    return game


def _save_state(game: Game, state: biblios.State, *, previous_version: int) -> bool:
    """Write the new cached state only if nobody else moved first (optimistic check)."""
    game.state = biblios.dumps(state)
    game.version = state.version
    fields = {"state": game.state, "version": game.version}
    if state.phase == "over":
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.result = biblios.result(state)
        fields.update(status=game.status, finished_at=game.finished_at, result=game.result)
    return bool(Game.objects.filter(pk=game.pk, version=previous_version).update(**fields))


def state_hash(state: biblios.State) -> str:
    """A fingerprint of an engine state, kept with each move for the integrity check."""
    return hashlib.sha256(biblios.dumps(state).encode()).hexdigest()


def abort_game(game_id: int, moderator, reason: str) -> Game:
    """A moderator ends a game in progress (or an open table); its players see why it ended."""
    reason = (reason or "").strip()
    if not getattr(moderator, "is_staff", False):
        raise NotAllowed("only moderators can abort games")
    if not reason:
        raise ServiceError("give a reason for aborting the game")
    with transaction.atomic():
        game = _locked(game_id)
        if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
            raise Conflict(f"game {game_id} is {game.get_status_display().lower()} already")
        game.status = Game.Status.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
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

    Every finish passes here inside its transaction, so a rated game is rated here too.
    """
    players = game.result["players"]
    winners = set(game.result["winners"])
    seats = list(game.seats.all())
    for seat in seats:
        seat.place = players[seat.position]["place"]
        seat.won = seat.position in winners
    Seat.objects.bulk_update(seats, ["place", "won"])
    rate_game(game)


def _after_commit(game: Game, *, lobby: bool) -> None:
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: broadcast.game_changed(game_id, version))
    if lobby:
        transaction.on_commit(broadcast.lobby_changed)


# ---------------------------------------------------------------------------- reading


def rebuild_state(game: Game) -> biblios.State:
    """The state the move log gives: the truth the cached `Game.state` must agree with."""
    moves = game.moves.order_by("seq").values_list("seat", "action")
    return biblios.replay(game.setup, list(moves))


def board_for(game: Game, user) -> dict:
    """What `user` may see of `game` now: their seat's view, or a spectator's (R22)."""
    position = seat_of(game, user)
    if position is None and not game.spectators_allowed:
        raise NotAllowed("this table does not allow spectators")
    return biblios.view(game.engine_state(), position)
