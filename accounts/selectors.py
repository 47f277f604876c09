"""Read-only queries behind the profile page, kept out of the views so their cost stays visible.

A profile costs six queries whatever the number of games: one narrow row per finished seat
for the counts, and for the current and the recent games one query each plus one for their
seated players.
"""

from dataclasses import dataclass

from django.db.models import Prefetch

from games.models import Game, Seat

RECENT_GAMES = 10


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as one player saw its end."""

    game: Game
    position: int
    place: int | None
    won: bool


@dataclass(frozen=True)
class PlayerRecord:
    games_played: int
    games_won: int
    games_left: int
    current_games: list[Game]
    recent_games: list[FinishedGame]


def _winners(result) -> list:
    return (result or {}).get("winners") or []


def _games_of(user, statuses, *, include_private: bool):
    """The user's games in these statuses, without the bulky state, with seated players."""
    games = (
        Game.objects.filter(seats__user=user, status__in=statuses)
        .defer("state", "setup")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
        )
    )
    return games if include_private else games.filter(private=False)


def player_record(user, *, include_private: bool) -> PlayerRecord:
    """Counts over all of `user`'s finished games; the lists hide private tables unless asked.

    A private table is only reachable by its invite link, so its id is not shown to others.
    """
    finished = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).values_list(
        "position", "game__result"
    )
    played = won = 0
    for position, result in finished:
        played += 1
        won += position in _winners(result)
    left = games_left(user)

    current = list(
        _games_of(
            user, [Game.Status.OPEN, Game.Status.ACTIVE], include_private=include_private
        ).order_by("-created_at")
    )
    recent = []
    for game in _games_of(user, [Game.Status.FINISHED], include_private=include_private).order_by(
        "-finished_at", "-pk"
    )[:RECENT_GAMES]:
        position = next(seat.position for seat in game.seats.all() if seat.user_id == user.pk)
        players = (game.result or {}).get("players") or []
        place = players[position].get("place") if position < len(players) else None
        recent.append(
            FinishedGame(
                game=game, position=position, place=place, won=position in _winners(game.result)
            )
        )
    return PlayerRecord(
        games_played=played,
        games_won=won,
        games_left=left,
        current_games=current,
        recent_games=recent,
    )


def games_left(user) -> int:
    """Games this player walked away from (left on purpose, or replaced after three timeouts)
    and did not come back to; computed from the seats, public like the other counts."""
    return (
        Seat.objects.filter(user=user, abandoned=True)
        .exclude(game__status=Game.Status.ABORTED)
        .count()
    )
