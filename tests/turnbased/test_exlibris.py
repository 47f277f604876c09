"""The turn-based table and the "Your turn" list know no game: an Ex Libris table of 24 hours
per move, opened through the API, is listed for whoever its engine waits on until it ends."""

import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Game
from tests.api.conftest import new_table
from tests.turnbased.helpers import assert_lists_follow_the_engine, browser, waiting_on
from tests.turnbased.test_your_turn import move

pytestmark = pytest.mark.django_db


def test_an_ex_libris_game_a_move_a_day_is_listed_for_whoever_it_waits_on(players, people):
    host, guest = players[:2]
    table = new_table(host, kind="exlibris", num_players=2, turn_seconds=86400)
    assert table["turn_seconds"] == 86400
    assert guest.post(f"/api/tables/{table['id']}/join").status_code == 200
    assert host.post(f"/api/tables/{table['id']}/start").status_code == 200
    game = Game.objects.get(pk=table["id"])
    stranger = people[0]
    assert_lists_follow_the_engine(game, others=[stranger])
    awaited = next(iter(waiting_on(game)))
    html = browser(awaited).get(reverse("your_turn")).content.decode()
    row = re.search(rf'<li data-game="{game.pk}">(.*?)</li>', html, re.S).group(1)
    assert "Ex Libris" in row and re.search(r"(23 h 59|24 h 0) min left", row)
    rng = random.Random(18)
    now = game.started_at
    for _ in range(3000):
        if game.status != Game.Status.ACTIVE:
            break
        now += timedelta(hours=rng.randint(1, 23))
        move(game, rng, now)
        assert_lists_follow_the_engine(game, others=[stranger])
    assert game.status == Game.Status.FINISHED
