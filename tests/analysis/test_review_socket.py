"""`ws/games/<id>/review/`: the review page's region pushed as the analysis is asked for, runs
and ends, to whoever may read the game's record, in their language; a private game's socket
closes on a stranger."""

import random

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from biblios_site.asgi import application
from games.access import Visitor
from games.analysis import services, worker
from tests.live.conftest import own_channel_layer  # noqa: F401  (a fresh channel layer)
from tests.live.helpers import HOST, ORIGIN, TIMEOUT, run, session_cookie
from tests.play import make_users, play_to_end, started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def users(django_user_model):
    return make_users(django_user_model, "watcher")


def socket(game_id: int, cookie: bytes | None):
    headers = [(b"host", HOST), (b"origin", ORIGIN)]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/review/", headers=headers)


def test_the_region_is_pushed_as_the_review_is_asked_for_and_done(users, settings):
    settings.ANALYSIS_ROUNDS = 1
    users[1].language = "fr"
    users[1].save()
    game = play_to_end(started_game(users, 2, seed=71), random.Random(71))

    async def scenario():
        player = socket(game.pk, await database_sync_to_async(session_cookie)(users[1]))
        assert (await player.connect(timeout=TIMEOUT))[0]
        first = await player.receive_from(timeout=TIMEOUT)
        assert 'id="review"' in first and 'hx-swap-oob="true"' in first
        assert "Demander l’analyse" in first  # nobody asked yet, in her language

        def ask():
            services.request_analysis(game, Visitor.of(game, users[0]))

        await database_sync_to_async(ask)()
        queued = await player.receive_from(timeout=TIMEOUT)
        assert "numéro 1 dans la file" in queued

        await database_sync_to_async(worker.drain)()
        frames = []
        while "Où vous avez perdu des points" not in (frames[-1] if frames else ""):
            frames.append(await player.receive_from(timeout=TIMEOUT))
        assert "Précision" in frames[-1]
        await player.disconnect()

    run(scenario)


def test_a_private_games_review_socket_closes_on_a_stranger(users):
    game = play_to_end(started_game(users, 2, seed=72, private=True), random.Random(72))

    async def scenario():
        stranger = socket(game.pk, await database_sync_to_async(session_cookie)(users[3]))
        connected, _ = await stranger.connect(timeout=TIMEOUT)
        assert connected
        output = await stranger.receive_output(timeout=TIMEOUT)
        assert output["type"] == "websocket.close"

    run(scenario)
