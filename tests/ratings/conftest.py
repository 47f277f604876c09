"""Players and games for the ratings tests: real games through the services, or finished rows."""

import random

import pytest
from django.utils import timezone

from games.models import Game, Seat
from tests.play import play_until_last_move, started_game


@pytest.fixture
def players(django_user_model):
    names = ["Ada", "Basil", "Clio", "Dora", "Egon"]
    return [
        django_user_model.objects.create_user(name.lower(), password="x", display_name=name)
        for name in names
    ]


def rated(game: Game) -> Game:
    """Mark a started game rated (tables choose it when created; tests set it directly)."""
    Game.objects.filter(pk=game.pk).update(rated=True)
    game.refresh_from_db()
    return game


def almost_finished_rated_game(users, num_players, seed) -> tuple:
    """A rated game one move from its end, and that move as submit_action arguments."""
    game = rated(started_game(users, num_players, seed=seed))
    user, action, version = play_until_last_move(game, random.Random(seed))
    return game, (game.pk, user, action, version)


def finished_rows(seats, places, *, rated=True, variant="biblios") -> Game:
    """A finished game written as rows (never played): `seats` holds users or bot levels.

    For tests of `rate_game` alone, e.g. bot seats and takeovers, which the services set up
    through the turn worker.
    """
    host = next(seat for seat in seats if not isinstance(seat, str))
    game = Game.objects.create(
        host=host,
        num_players=len(seats),
        kind="biblios",
        variant=variant,
        rated=rated,
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
        result={
            "players": [
                {"seat": position, "place": place} for position, place in enumerate(places)
            ],
            "winners": [position for position, place in enumerate(places) if place == 1],
        },
    )
    for position, seat in enumerate(seats):
        if isinstance(seat, str):
            Seat.objects.create(game=game, position=position, bot_level=seat)
        else:
            Seat.objects.create(game=game, position=position, user=seat)
    return game
