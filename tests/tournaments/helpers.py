"""Tournaments set up and played through the services, shared by the tournaments' tests."""

import random
from datetime import timedelta

from django.utils import timezone

from games.access import Visitor
from games.kinds import registry
from games.models import Game, Tournament, TournamentTable
from games.play import selectors, turns
from games.play import services as play_services
from games.tournaments import services
from tests.play import choose_quickly


def scheduled(staff, *, minutes=10, **fields) -> Tournament:
    """A tournament starting in `minutes` (inside the check-in window by default)."""
    settings = {"name": "Autumn Swiss", "rounds": 2, "table_size": 3, "turn_seconds": 60}
    settings.update(fields)
    starts_at = timezone.now() + timedelta(minutes=minutes)
    return services.create_tournament(
        staff, services.TournamentSettings(starts_at=starts_at, **settings)
    )


def started(tournament: Tournament) -> Tournament:
    """Past its start time: the clock starts it."""
    services.start_due(now=tournament.starts_at + timedelta(seconds=1))
    tournament.refresh_from_db()
    return tournament


def finish(game: Game, rng: random.Random) -> Game:
    """Play a table to the end: each person's moves through the service from their own view (a
    quick random legal move), each bot's (or stand-in's) as the turn worker plays it."""
    engine = registry.of(game).engine
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        seat = game.seats.get(position=engine.to_act(game.engine_state())[0])
        if seat.user_id is not None and not seat.bot_level:
            board = selectors.board_for(game, Visitor.of(game, seat.user))
            action = choose_quickly(board, rng)
            play_services.submit_action(game.pk, seat.user, action, version=board["version"])
        else:
            turns.play_turn(game.pk, now=game.due_at, rng=rng)


def round_games(tournament: Tournament, number: int) -> list[Game]:
    tables = TournamentTable.objects.filter(round__tournament=tournament, round__number=number)
    return [table.game for table in tables.select_related("game").order_by("pk")]
