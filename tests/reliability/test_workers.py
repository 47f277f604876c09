"""Several workers share one site: hints cross processes through the Redis channel layer."""

import asyncio

import pytest
from django.conf import settings

from tests.play import seated_users, started_game
from tests.reliability.conftest import Board, post_action, token

pytestmark = [
    pytest.mark.slow,
    # With the in-memory layer a worker's hints never leave it: this is what Redis is for.
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (make test-services)"),
]


def test_a_move_made_through_worker_a_reaches_sockets_on_worker_b(site, users):
    game = started_game(users, 2, seed=1)
    tokens = {seat: token(user) for seat, user in seated_users(game).items()}
    worker_a, worker_b = site(2).urls

    async def scenario():
        boards = [await Board(worker_b, game.pk, tokens[seat]).open() for seat in (0, 1)]
        actor = boards[0].latest["view"]["to_act"][0]
        view = boards[actor].latest["view"]
        status, answer = await post_action(
            worker_a, game.pk, tokens[actor], view["version"], view["legal_actions"][0]
        )
        assert status == 200, answer
        for board in boards:
            frame = await board.until(lambda frame: frame.get("version", -1) >= answer["version"])
            assert frame["version"] == answer["version"] == view["version"] + 1
        await asyncio.gather(*(board.close() for board in boards))

    asyncio.run(scenario())
