"""People, API players and quick bots for the turn-based tables' tests."""

import pytest

from tests.api.conftest import make_player, players  # noqa: F401  (API clients with tokens)
from tests.kinds.biblios.bots.helpers import TINY_BUDGET
from tests.play import make_users


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.BOT_MOVE_DELAY_S = 0
    settings.BOT_BUDGET_S = TINY_BUDGET


@pytest.fixture
def people(django_user_model):
    return make_users(django_user_model, "reader")
