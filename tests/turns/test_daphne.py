"""The turn worker inside real daphne processes, as `make run` starts it.

A bot-only game (its host left at once) must be played by the worker that every daphne process
starts, keep its place when that process is killed (nothing in memory matters), and go on with a
new process; two processes on the same database never apply a move twice.
"""

import asyncio
import functools
import random
import time

import pytest

from games.models import Game
from games.moderation import services as moderation
from games.play import services
from tests.play import choose_quickly
from tests.reliability.conftest import (  # noqa: F401  (site: the workers fixture)
    Board,
    post_action,
    site,
    token,
)
from tests.turns.helpers import bot_table

pytestmark = pytest.mark.slow

TIMEOUT = 180  # only reached when the worker never plays


@pytest.fixture
def daphne(site):  # noqa: F811  (the fixture imported above)
    """`daphne(count)`: daphne processes with fast bots on the test database."""
    return functools.partial(
        site, BOT_MOVE_DELAY_S="0", BOT_BUDGET_S="0.02", TURN_WORKER_POLL_S="0.05"
    )


def wait_for(condition, what: str):
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        game = condition()
        if game:
            return game
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def bots_only_game(django_user_model, levels) -> Game:
    host = django_user_model.objects.create_user("absent", password="x")
    game = bot_table(host, levels, seed=21)
    services.leave_game(game.pk, host)
    return game


def test_daphne_plays_bots_and_a_restarted_process_picks_the_game_up(daphne, django_user_model):
    game = bots_only_game(django_user_model, ["scholar", "novice"])
    workers = daphne(1)
    wait_for(lambda: Game.objects.filter(pk=game.pk, version__gte=5).first(), "the first moves")
    workers.kill(0)  # a crash: no clean shutdown
    time.sleep(0.5)
    stopped_at = Game.objects.get(pk=game.pk).version
    time.sleep(1)
    assert Game.objects.get(pk=game.pk).version == stopped_at, "something else is playing"
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    workers.start(0)
    finished = wait_for(
        lambda: Game.objects.filter(pk=game.pk, status=Game.Status.FINISHED).first(), "the end"
    )
    assert finished.moves.count() == finished.version
    assert moderation.check_integrity(finished).problem == ""


def test_two_daphne_processes_finish_a_bot_game_without_doubling_a_move(daphne, django_user_model):
    game = bots_only_game(django_user_model, ["novice", "scholar", "abbot"])
    daphne(2)
    finished = wait_for(
        lambda: Game.objects.filter(pk=game.pk, status=Game.Status.FINISHED).first(), "the end"
    )
    seqs = list(finished.moves.values_list("seq", flat=True))
    assert seqs == list(range(1, finished.version + 1))
    assert moderation.check_integrity(finished).problem == ""


def test_a_person_plays_a_bot_live_the_bots_moves_arrive_on_the_socket(daphne, django_user_model):
    """Only the worker moves the bot, and only its pushes tell the person it is their turn."""
    person = django_user_model.objects.create_user("alone", password="x")
    game = bot_table(person, ["novice"], seed=4)
    raw_token = token(person)
    workers = daphne(1)
    rng = random.Random(5)

    async def play() -> dict:
        board = await Board(workers.urls[0], game.pk, raw_token).open()
        acted = -1
        try:
            while True:
                frame = await board.until(
                    lambda f, after=acted: (
                        "view" in f
                        and f["version"] > after
                        and (f["status"] != "active" or f["view"]["to_act"] == [0])
                    )
                )
                if frame["status"] != "active":
                    return frame
                acted = frame["version"]
                status, answer = await post_action(
                    workers.urls[0], game.pk, raw_token, acted, choose_quickly(frame["view"], rng)
                )
                assert status == 200, answer
        finally:
            await board.close()

    last = asyncio.run(play())
    assert last["status"] == Game.Status.FINISHED
    finished = Game.objects.get(pk=game.pk)
    bot_moves = finished.moves.filter(seat=1)
    assert bot_moves.exists() and set(bot_moves.values_list("played_by", flat=True)) == {"bot"}
