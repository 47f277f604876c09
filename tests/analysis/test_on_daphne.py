"""The analysis queue drained by a real daphne process, as `make run` and a deployment start
it: a review asked for through the API is computed by the worker's analysis thread, which runs
at a lower priority than the process's event loop."""

import asyncio
import random
import time

import pytest

from benchmarks.client import Http
from games.models import Analysis
from tests.play import make_users, play_to_end, started_game
from tests.reliability.conftest import site, token  # noqa: F401  (site: the workers fixture)

pytestmark = pytest.mark.slow(seconds=20)

TIMEOUT = 120  # only reached when no worker drains the queue


def test_a_review_asked_through_the_api_is_computed_by_the_daphne_worker(
    site,  # noqa: F811
    django_user_model,
):
    users = make_users(django_user_model, "asker")
    game = play_to_end(started_game(users, 2, seed=31), random.Random(31))
    workers = site(1, ANALYSIS_ROUNDS="1", ANALYSIS_POLL_S="0.1")
    path = f"/api/games/{game.pk}/analysis"
    status, answer = call(workers.urls[0], "POST", path, token(users[0]))
    assert status == 202, answer
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        analysis = Analysis.objects.get(game=game)
        if analysis.status == Analysis.Status.DONE:
            break
        time.sleep(0.2)
    assert analysis.status == Analysis.Status.DONE, (analysis.status, analysis.failure)
    assert analysis.done == analysis.total > 0
    status, answer = call(workers.urls[0], "GET", path, token(users[1]))
    assert status == 200 and answer["status"] == "done" and answer["decisions"]


def call(url: str, method: str, path: str, raw_token: str) -> tuple:
    async def send():
        http = Http(url, timeout=30)
        try:
            status, _, answer = await http.request(method, path, raw_token)
        finally:
            http.close()
        return status, answer

    return asyncio.run(send())
