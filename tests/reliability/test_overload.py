"""An overloaded worker sheds load (503 with Retry-After), never answers 500, and applies a move
it accepted exactly once (games/overload.py)."""

import asyncio
import json
import os
import subprocess
import sys
from unittest import mock

import psycopg_pool
import pytest
from django.conf import settings
from django.db import OperationalError

from benchmarks.load import ROOT
from games import overload
from games.models import Game, Move
from tests.play import seated_users, started_game
from tests.reliability.conftest import Http, database_url, token

LOCKED = OperationalError("database is locked")


def _pool_timeout() -> OperationalError:
    """What Django raises when the PostgreSQL pool has no connection in time."""
    try:
        try:
            raise psycopg_pool.PoolTimeout("couldn't get a connection after 30.00 sec")
        except psycopg_pool.PoolTimeout as cause:
            raise OperationalError(str(cause)) from cause
    except OperationalError as wrapped:
        return wrapped


@pytest.mark.slow
def test_a_tiny_worker_sheds_with_503_and_applies_the_accepted_move_once(site, users):
    """Forty copies of one move and forty board reads at once against a worker that serves one
    request at a time: each is served or shed at once, none fails, one move is stored."""
    game = started_game(users, 2, seed=3)
    tokens = {seat: token(user) for seat, user in seated_users(game).items()}
    (url,) = site(1, MAX_INFLIGHT_REQUESTS="1", SHED_RETRY_AFTER_S="2").urls
    actor = asyncio.run(_view(url, game.pk, tokens[0]))["to_act"][0]
    view = asyncio.run(_view(url, game.pk, tokens[actor]))
    move = {"version": view["version"], "action": view["legal_actions"][0]}

    async def one(method: str, path: str, body=None):
        http = Http(url, timeout=30)
        try:
            return await http.request(method, path, tokens[actor], body)
        finally:
            http.close()

    async def burst():
        posts = [one("POST", f"/api/games/{game.pk}/actions", move) for _ in range(40)]
        reads = [one("GET", f"/api/games/{game.pk}") for _ in range(40)]
        return await asyncio.gather(*posts, *reads)

    answers = asyncio.run(burst())
    statuses = [status for status, _, _ in answers]
    assert set(statuses) <= {200, 409, 503}, statuses
    shed = [(headers, body) for status, headers, body in answers if status == 503]
    assert shed, "nothing was shed"
    for headers, body in shed:
        assert headers["retry-after"] == "2" and body["error"], (headers, body)
    assert statuses[:40].count(200) <= 1

    # Retried as Retry-After says, the shed copies of the move are stale: applied once.
    async def retry():
        return [await one("POST", f"/api/games/{game.pk}/actions", move) for _ in range(3)]

    retried = [status for status, _, _ in asyncio.run(retry())]
    game.refresh_from_db()
    assert game.version == move["version"] + 1
    assert Move.objects.filter(game=game, seq=game.version).count() == 1
    assert Move.objects.filter(game=game).count() == game.version
    assert statuses[:40].count(200) + retried.count(200) == 1, (statuses, retried)


async def _view(url: str, game_id: int, raw_token: str) -> dict:
    """The seat's board, asked again as Retry-After says while the worker sheds (it counts a
    request until Django has finished it, a moment after the answer was sent)."""
    http = Http(url, timeout=30)
    try:
        for _ in range(10):
            status, headers, answer = await http.request("GET", f"/api/games/{game_id}", raw_token)
            if status != 503:
                break
            await asyncio.sleep(int(headers["retry-after"]))
    finally:
        http.close()
    assert status == 200, answer
    return answer["view"]


@pytest.mark.django_db
@pytest.mark.parametrize("failure", [LOCKED, _pool_timeout()], ids=["sqlite-lock", "pg-pool"])
def test_a_move_that_finds_the_database_busy_is_answered_503_not_500(client, users, failure):
    game = started_game(users, 2, seed=3)
    raw = {seat: token(user) for seat, user in seated_users(game).items()}
    with mock.patch("games.services.submit_action", side_effect=failure):
        answer = client.post(
            f"/api/games/{game.pk}/actions",
            {"version": game.version, "action": {"type": "pass"}},
            content_type="application/json",
            headers={"authorization": f"Bearer {raw[0]}"},
        )
    assert answer.status_code == 503, answer.content
    assert answer["Retry-After"] == "1" and answer.json()["error"]
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.django_db
def test_a_page_that_finds_the_database_busy_is_answered_503_not_500(client, users):
    game = started_game(users, 2, seed=3)
    client.force_login(users[0])
    with mock.patch("games.services.submit_action", side_effect=LOCKED):
        answer = client.post(f"/games/{game.pk}/act/", {"version": game.version, "type": "pass"})
    assert answer.status_code == 503 and answer["Retry-After"] == "1"
    assert answer["Content-Type"].startswith("text/plain")


def test_other_database_errors_are_not_mistaken_for_a_busy_database():
    assert not overload.database_busy(OperationalError("no such table: games_game"))
    assert not overload.database_busy(ValueError("database is locked"))


def test_past_the_bound_requests_are_shed_but_static_files_pass(settings):
    """With one request in flight and a bound of one, the next is refused at once, in the
    reader's language, while static files are still served."""
    settings.MAX_INFLIGHT_REQUESTS = 1
    release = None
    served = []

    async def app(scope, receive, send):
        served.append(scope["path"])
        if scope["path"] == "/slow/":
            await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    shed = overload.ShedRequests(app)

    async def request(path: str, headers=()):
        sent = []

        async def send(message):
            sent.append(message)

        async def receive():
            return {"type": "http.request", "body": b""}

        scope = {"type": "http", "method": "GET", "path": path, "headers": list(headers)}
        scope.update(query_string=b"", root_path="", scheme="http", server=("x", 80))
        await shed(scope, receive, send)
        return sent[0]["status"], dict(sent[0]["headers"]), sent[1]["body"]

    async def scenario():
        nonlocal release
        release = asyncio.Event()
        slow = asyncio.ensure_future(request("/slow/"))
        await asyncio.sleep(0)
        busy = await request("/games/1/", [(b"accept-language", b"fr")])
        api = await request("/api/games/1")
        static = await request(f"/{settings.STATIC_URL.strip('/')}/css/site.css")
        release.set()
        await slow
        after = await request("/games/1/")
        return busy, api, static, after

    busy, api, static, after = asyncio.run(scenario())
    assert busy[0] == 503 and busy[1][b"retry-after"] == b"1"
    assert "réessayez" in busy[2].decode()
    assert api[0] == 503 and api[1][b"content-type"] == b"application/json"
    assert static[0] == 200 and after[0] == 200
    assert shed.in_flight == 0 and shed.shed == 2


@pytest.mark.look  # the benchmark's own stepping: the same on any services, run once
@pytest.mark.slow(seconds=20)
@pytest.mark.parametrize("html", [False, True], ids=["json", "html"])
def test_find_capacity_steps_the_rate_up_and_reports_the_highest_that_held(
    transactional_db, tmp_path, html
):
    """`benchmarks.load --find-capacity` with tiny numbers: its steps ask for more moves each
    time, stop at the first that failed, and name as capacity the last that held."""
    figures = tmp_path / "capacity.json"
    env = {**os.environ, "DATABASE_URL": database_url(), "REDIS_URL": settings.REDIS_URL}
    command = [sys.executable, "-m", "benchmarks.load", "--find-capacity"]
    command += ["--games", "3", "--players", "2", "--start-rate", "1", "--rate-step", "0.5"]
    command += ["--max-rate", "2", "--step-duration", "4", "--settle", "1", "--echo", "0"]
    command += ["--target-p95", "5000", "--json", str(figures), *(["--html"] if html else [])]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(figures.read_text())
    steps = result["steps"]
    assert [step["asked_moves_per_s"] for step in steps] == [1.0, 1.5, 2.0][: len(steps)]
    assert all(not step["failed"] for step in steps[:-1])
    held = [step for step in steps if not step["failed"]]
    assert result["held"] == (held[-1] if held else None)
    assert all(step["moves"] > 0 for step in held), done.stdout
    assert "highest rate that held: " in done.stdout
    assert not result["problems"] and not result["server_log_errors"], done.stdout
