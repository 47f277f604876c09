"""A blocked player's chat does not reach the blocker live either ("Blocking a user
hides their chat"): each socket renders the chat for its own reader."""

import pytest
from channels.db import database_sync_to_async

from friends import services as friends
from games.chat import services as chat
from tests.live.conftest import own_channel_layer  # noqa: F401  (autouse fixture)
from tests.live.helpers import TIMEOUT, Sockets, run, session_cookie
from tests.play import started_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_push_to_the_blocker_leaves_the_blocked_players_message_out(users):
    ada, basil, clio, _ = users
    game = started_game([ada, basil, clio])
    friends.block(ada, basil)
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()
    cookies = session_cookie(ada), session_cookie(clio)

    async def scenario():
        blocker, _ = await sockets.connect(path, cookie=cookies[0])
        other, _ = await sockets.connect(path, cookie=cookies[1])
        await database_sync_to_async(chat.post_message)(game.pk, basil, "psst from basil")
        seen = await other.receive_from(timeout=TIMEOUT)
        while 'id="chat"' not in seen:
            seen = await other.receive_from(timeout=TIMEOUT)
        shown = await blocker.receive_from(timeout=TIMEOUT)
        while 'id="chat"' not in shown:
            shown = await blocker.receive_from(timeout=TIMEOUT)
        assert "psst from basil" in seen
        assert "psst from basil" not in shown
        await sockets.close_all()

    run(scenario)
