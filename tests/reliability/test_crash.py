"""A worker killed with SIGKILL mid-game, moves in flight: nothing accepted is lost or doubled.

The database is the truth: a move is accepted exactly when its transaction commits, and the
version check refuses a retry of a move that did commit. Clients that lost their socket
reconnect and get the current board, and the game plays on to its end.
"""

import asyncio
import random

import pytest

from benchmarks.client import Http
from games.models import Game
from games.moderation import services as moderation
from tests.play import choose_quickly, seated_users, started_game
from tests.reliability.conftest import TIMEOUT, Board, post_action, token


def assert_log_is_the_state(game: Game, first_version: int) -> None:
    game.refresh_from_db()
    seqs = list(game.moves.order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(first_version + 1, game.version + 1))
    assert moderation.check_integrity(game).problem == ""


@pytest.mark.slow
def test_sigkill_with_moves_in_flight_loses_nothing_and_the_game_finishes(site, users):
    game = started_game(users, 2, seed=5)
    first_version = game.version
    tokens = {seat: token(user) for seat, user in seated_users(game).items()}
    workers = site(1)
    url = workers.urls[0]
    rng = random.Random(5)

    async def open_boards():
        return [await Board(url, game.pk, tokens[seat]).open() for seat in (0, 1)]

    async def crash(delay: float) -> None:
        """Post a move, kill the worker `delay` s later, restart it, resync, retry the move."""
        boards = await open_boards()
        actor = boards[0].latest["view"]["to_act"][0]
        view = boards[actor].latest["view"]
        action = choose_quickly(view, rng)
        posted = asyncio.ensure_future(
            post_action(url, game.pk, tokens[actor], view["version"], action)
        )
        await asyncio.sleep(delay)
        workers.kill(0)
        answer = (await asyncio.gather(posted, return_exceptions=True))[0]
        for board in boards:
            assert await asyncio.wait_for(board.socket.closed, TIMEOUT) != 1000
        workers.start(0)

        resynced = await open_boards()
        now = {board.latest["version"] for board in resynced}
        assert len(now) == 1
        (now,) = now
        assert now in (view["version"], view["version"] + 1)
        if not isinstance(answer, BaseException) and answer[0] == 200:
            assert now == view["version"] + 1, "an accepted move was lost"
        # A client that never saw the answer sends the move again: it applies at most once.
        status, _ = await post_action(url, game.pk, tokens[actor], view["version"], action)
        assert status == (409 if now == view["version"] + 1 else 200)
        for board in resynced:
            await board.close()

    async def finish() -> dict:
        """Play to the end through the restarted worker; every socket sees the last board."""
        boards = await open_boards()
        http = {seat: Http(url, timeout=TIMEOUT) for seat in (0, 1)}
        view = boards[0].latest["view"]
        answer = {"status": "active", "view": view}
        while answer["status"] == "active":
            actor = answer["view"]["to_act"][0]
            if answer["view"]["seat"] != actor:
                _, _, board = await http[actor].request(
                    "GET", f"/api/games/{game.pk}", tokens[actor]
                )
                answer = {"status": board["status"], "view": board["view"]}
            mine = answer["view"]
            status, _, answer = await http[actor].request(
                "POST",
                f"/api/games/{game.pk}/actions",
                tokens[actor],
                {"version": mine["version"], "action": choose_quickly(mine, rng)},
            )
            assert status == 200, answer
        for board in boards:
            last = await board.until(lambda frame: frame.get("status") == "finished")
            assert last["version"] == answer["version"]
            await board.close()
        for connection in http.values():
            connection.close()
        return answer

    async def scenario():
        for delay in (0.0, 0.01, 0.05):
            await crash(delay)
        return await finish()

    final = asyncio.run(scenario())
    assert final["status"] == Game.Status.FINISHED
    assert_log_is_the_state(game, first_version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
