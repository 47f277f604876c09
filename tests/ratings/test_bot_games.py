"""Ratings of games with bots, played through the services and the turn worker."""

import random

import pytest

from games.models import Game
from games.play import services
from ratings import elo
from ratings.models import Rating, RatingChange
from tests.kinds.biblios.bots.helpers import TINY_BUDGET
from tests.turns.helpers import bot_table, play_with_bots

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.BOT_MOVE_DELAY_S = 0
    settings.BOT_BUDGET_S = TINY_BUDGET


def test_a_table_with_a_bot_is_unrated_unless_the_host_chooses(players):
    game = bot_table(players[0], ["novice"], seed=21)
    assert not game.rated
    play_with_bots(game, random.Random(21))
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert bot_table(players[1], ["novice"], seed=22, rated=True).rated
    assert bot_table(players[2], [None], others=[players[3]], seed=23).rated  # people only


def test_a_rated_game_with_a_bot_rates_the_people_against_the_bots_fixed_rating(players):
    ada, basil = players[:2]
    game = bot_table(ada, ["scholar", None], others=[basil], seed=24, rated=True)
    game = play_with_bots(game, random.Random(24))
    assert game.status == Game.Status.FINISHED
    seats = {seat.position: seat for seat in game.seats.all()}
    expected = elo.rating_changes(
        [
            elo.Entrant(0, elo.START_RATING, seats[0].place, k=elo.K_PROVISIONAL),
            elo.Entrant(1, 1500.0, seats[1].place, k=None),  # the Scholar's yardstick
            elo.Entrant(2, elo.START_RATING, seats[2].place, k=elo.K_PROVISIONAL),
        ]
    )
    changes = {change.user_id: change for change in RatingChange.objects.filter(game=game)}
    assert set(changes) == {ada.pk, basil.pk}  # nothing for the bot
    assert changes[ada.pk].delta == pytest.approx(expected[0])
    assert changes[basil.pk].delta == pytest.approx(expected[2])
    assert Rating.objects.count() == 2


def test_a_player_who_leaves_a_rated_game_is_rated_on_the_place_the_bot_reached(players):
    ada, basil = players[:2]
    game = bot_table(ada, [None], others=[basil], seed=25)
    assert game.rated
    services.leave_game(game.pk, basil)
    game = play_with_bots(game, random.Random(25))
    assert game.seats.get(user=basil).bot_level  # a bot finished basil's game
    places = {seat.user_id: seat.place for seat in game.seats.all()}
    changes = {change.user_id: change for change in RatingChange.objects.filter(game=game)}
    assert {user: change.place for user, change in changes.items()} == places
    expected = elo.rating_changes(
        [
            elo.Entrant(user, elo.START_RATING, place, k=elo.K_PROVISIONAL)
            for user, place in places.items()
        ]
    )
    assert {user: change.delta for user, change in changes.items()} == pytest.approx(expected)
