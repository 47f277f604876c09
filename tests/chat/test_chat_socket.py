"""Chat messages arrive live over the game socket, only to those who read that channel."""

import pytest
from channels.db import database_sync_to_async

from games.chat import services as chat
from tests.live.conftest import own_channel_layer  # noqa: F401  (autouse fixture)
from tests.live.helpers import QUIET, TIMEOUT, Sockets, run, session_cookie, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_players_message_reaches_players_not_spectators(users):
    game = started_game(users, 2)
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()
    watching, playing = session_cookie(users[3]), session_cookie(users[1])

    async def scenario():
        player, _ = await sockets.connect(path, cookie=playing)
        watcher, _ = await sockets.connect(path, cookie=watching)  # spectators announce nothing
        post = database_sync_to_async(chat.post_message)
        await post(game.pk, users[0], "well played")
        frame = await player.receive_from(timeout=TIMEOUT)
        assert 'id="chat"' in frame and 'hx-swap-oob="true"' in frame and "well played" in frame
        assert await watcher.receive_nothing(timeout=QUIET)
        await post(game.pk, users[3], "nice move")
        frame = await watcher.receive_from(timeout=TIMEOUT)
        assert "nice move" in frame and "well played" not in frame
        assert await player.receive_nothing(timeout=QUIET)
        await sockets.close_all()

    run(scenario)
