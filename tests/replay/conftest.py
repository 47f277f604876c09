"""Players and played games for the replay tests."""

import random

import pytest
from django.test import Client

from games.models import Game
from tests.play import make_users, play_to_end, started_game


@pytest.fixture
def users(django_user_model):
    return make_users(django_user_model, "viewer")


@pytest.fixture
def browsers(users):
    """A logged-in browser per user (by index), and an anonymous one at None."""
    found = {None: Client()}
    for index, user in enumerate(users):
        found[index] = Client()
        found[index].force_login(user)
    return found


def finished_game(users, num_players: int, seed: int, **table) -> Game:
    return play_to_end(started_game(users, num_players, seed=seed, **table), random.Random(seed))
