"""A ban closes the banned user's open game sockets, and only theirs."""

import pytest
from channels.db import database_sync_to_async

from games.moderation import services as moderation
from games.play import consumers
from tests.live.conftest import own_channel_layer  # noqa: F401  (autouse fixture)
from tests.live.helpers import QUIET, Sockets, closed_with, run, session_cookie, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_banning_closes_the_users_sockets(users, moderator):
    game = started_game(users, 2)
    path = f"/ws/games/{game.pk}/"
    banned, other = session_cookie(users[0]), session_cookie(users[1])
    sockets = Sockets()

    async def scenario():
        bystander, _ = await sockets.connect(path, cookie=other)
        target, _ = await sockets.connect(path, cookie=banned)
        await bystander.receive_from()  # the target's presence
        await database_sync_to_async(moderation.ban_user)(users[0].pk, moderator, "abuse")
        assert await closed_with(target) == consumers.CLOSE_FORBIDDEN
        # The other player's socket stays open (it may hear that somebody left).
        while not await bystander.receive_nothing(timeout=QUIET):
            output = await bystander.receive_output()
            assert output["type"] == "websocket.send"
        # Reconnecting with the banned session is refused.
        again = sockets.open(path, cookie=banned)
        connected, _ = await again.connect()
        assert connected and await closed_with(again) == consumers.CLOSE_UNAUTHENTICATED
        await bystander.disconnect()

    run(scenario)
