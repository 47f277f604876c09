"""Read-only queries for a running game's pages: each seat's board, names, turn and deadline.

Everything here is built from `board_for` (the seat's `view`), never from the raw state, so a
page cannot show what its seat may not know.
"""

from datetime import datetime

from django.db.models import F, Prefetch
from django.utils.translation import gettext

from biblios_site import errors
from games import access
from games.kinds import registry
from games.models import Game, Seat


def seat_names(game: Game, seats=None) -> list[str]:
    """Display names by seat position; a free seat is "(free seat)". `seats`: the game's seats
    with their users, when the caller has read them already (one query less per board)."""
    names = [gettext("(free seat)")] * game.num_players
    for seat in game.seats.select_related("user") if seats is None else seats:
        if seat.position < game.num_players:
            names[seat.position] = seat.display_name
    return names


def turn_deadline(game: Game, seats, to_act: list[int]) -> datetime | None:
    """When the person to act (`to_act`, from any view) runs out of time; None when untimed,
    on a bot's turn, or with nobody to act.

    `Game.due_at` is that deadline on a person's turn; on a bot's it is the bot's move time.
    """
    if not (game.turn_seconds and game.due_at and game.status == Game.Status.ACTIVE):
        return None
    acting = next((seat for seat in seats if to_act and seat.position == to_act[0]), None)
    return game.due_at if acting is not None and not acting.bot_level else None


def _waiting_on(user):
    """The seats where a game waits on `user` themself (not on a bot playing for them): kept
    by the services in `Seat.on_turn`, so no engine state is read."""
    return Seat.objects.filter(user=user, on_turn=True, bot_level="")


def your_turn_count(user) -> int:
    """How many games wait on `user`'s move: the navigation's count, one indexed query."""
    return _waiting_on(user).count()


def _most_urgent_first(games):
    """The least time left first; untimed games (no deadline) last, the oldest game first."""
    return games.order_by(F("due_at").asc(nulls_last=True), "pk")


def your_turn_games(user) -> list[Game]:
    """The games waiting on `user`'s move, the most urgent first, with their seats and users
    (the "Your turn" list names the opponents)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    games = Game.objects.filter(pk__in=_waiting_on(user).values("game_id"))
    return list(_most_urgent_first(games).prefetch_related(seats))


def other_games_waiting(user, game: Game) -> list[int]:
    """The ids of the games other than `game` waiting on `user`'s move, the most urgent first:
    a game page's "next game waiting for you"."""
    games = Game.objects.filter(pk__in=_waiting_on(user).values("game_id")).exclude(pk=game.pk)
    return list(_most_urgent_first(games).values_list("pk", flat=True))


def board_for(game: Game, visitor: access.Visitor) -> dict:
    """What the visitor may see of `game` now: their seat's view, or a spectator's (R22).

    The doors ask `games.access` first (with the same visitor); this still refuses a
    spectator's board where the table admits none, so no caller can skip that.
    """
    admit(game, visitor)
    return seat_board(game, visitor.seat)


def admit(game: Game, visitor: access.Visitor) -> None:
    """`board_for`'s refusal alone, for a caller holding a spectator's board already."""
    if visitor.seat is None and not access.admits_spectator(game, visitor):
        raise errors.NotAllowed(gettext("this table does not allow spectators"))


def seat_board(game: Game, position: int | None) -> dict:
    """The board of seat `position` (None: a spectator's), for a caller that has asked
    `games.access` already (a socket's JSON frames)."""
    return registry.of(game).engine.view(game.engine_state(), position)
