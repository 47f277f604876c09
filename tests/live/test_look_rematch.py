"""A rematch offer reaches the other players of a finished game live, on their open game page."""

import random

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from games.tables import services
from tests.play import play_to_end

from .helpers import TIMEOUT, Sockets, board_version, run, session_cookie, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_others_see_the_rematch_offer_arrive_without_reloading(users):
    game = play_to_end(started_game(users, 2, seed=9), random.Random(9))
    path = f"/ws/games/{game.pk}/"
    cookies = [session_cookie(user) for user in users[:2]]
    sockets = Sockets()
    offered = {}

    async def scenario():
        seats = await sockets.connect_seats([(path, {"cookie": cookie}) for cookie in cookies])
        (asker, _), (other, before) = seats
        offered["before"] = before
        new_game = await database_sync_to_async(services.rematch)(game.pk, users[0])
        offered["frame"] = await other.receive_from(timeout=TIMEOUT)
        offered["asker"] = await asker.receive_from(timeout=TIMEOUT)
        offered["game"] = new_game
        await sockets.close_all()

    run(scenario)
    join = reverse("game_rematch", args=[game.pk])
    assert "offers a rematch" not in offered["before"]
    assert board_version(offered["frame"]) == game.version  # news at the same version
    assert f"{users[0]} offers a rematch (1 seat free)." in offered["frame"]
    assert f'action="{join}"' in offered["frame"]
    assert "You are seated at the rematch." in offered["asker"]
    assert reverse("game", args=[offered["game"].pk]) in offered["asker"]
