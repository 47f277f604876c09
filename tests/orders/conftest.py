"""Bots that move at once and barely think, for the standing orders' tests."""

import pytest

from tests.api.conftest import make_player, players  # noqa: F401  (API clients with tokens)
from tests.kinds.biblios.bots.helpers import TINY_BUDGET


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.BOT_MOVE_DELAY_S = 0
    settings.BOT_BUDGET_S = TINY_BUDGET
