"""The turn worker sleeps until the next due move, and a commit of its own process that
schedules a sooner one wakes it (`services.turn_alarm`): bots move on time while an idle worker
looks only every TURN_WORKER_POLL_S."""

import asyncio
import contextlib
import random
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone

from biblios_site.background import Alarm
from games.kinds import registry
from games.models import Game, Move
from games.play import services, turns
from tests.turns.helpers import acting_seat, bot_table

BOT_MOVES = 3


def person_moves(game_id: int, rng: random.Random) -> int | None:
    """The person's random legal move if it is their turn; the game's version after it."""
    game = Game.objects.get(pk=game_id)
    seat = acting_seat(game)
    if seat is None or seat.user is None:
        return None
    legal = registry.of(game).engine.view(game.engine_state(), seat.position)
    action = rng.choice(legal["legal_actions"])
    return services.submit_action(game.pk, seat.user, action, version=game.version).version


@pytest.mark.django_db(transaction=True)
def test_bots_move_at_their_due_time_though_the_worker_looks_once_a_minute(
    people, settings, monkeypatch
):
    settings.TURN_WORKER_POLL_S = 60
    settings.BOT_MOVE_DELAY_S = 0.2
    rounds = []
    poll_once = turns.poll_once

    def recorded():
        rounds.append(poll_once())
        return rounds[-1]

    monkeypatch.setattr(turns, "poll_once", recorded)
    rng = random.Random(4)
    tables = []

    async def scenario():
        worker = asyncio.create_task(turns.run_forever())
        await asyncio.sleep(0.2)  # its first round: nothing is due, nothing will be
        assert services.turn_alarm.armed_here and rounds == [(0, None)]
        game = await database_sync_to_async(bot_table)(people[0], ["novice"], seed=3)
        tables.append(game)
        try:
            for _ in range(200):
                bots = await database_sync_to_async(bot_moves)(game.pk)
                if bots >= BOT_MOVES:
                    break
                await database_sync_to_async(person_moves)(game.pk, rng)
                await asyncio.sleep(0.05)
        finally:
            worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    async_to_sync(scenario)()
    assert not services.turn_alarm.armed_here
    (game,) = tables
    played = list(game.moves.filter(played_by=Move.PlayedBy.BOT).order_by("seq"))
    assert len(played) >= BOT_MOVES, "a bot's move waited for a poll a minute away"
    # Each bot move waited its delay after the move before it, not woken early (the delay
    # counts from the time of the round that played a bot's move before, a little before the
    # move was written).
    for move in played:
        before = game.moves.filter(seq=move.seq - 1).first()
        if before is not None:
            assert move.created_at - before.created_at >= timedelta(seconds=0.15)
    # Woken by each commit that made a bot's move due, then at that due time: a few rounds
    # a bot move (more when a round ran while a commit rang), never a fast poll's dozens.
    assert len(rounds) <= 4 * len(played) + 3, rounds


def bot_moves(game_id: int) -> int:
    return Move.objects.filter(game_id=game_id, played_by=Move.PlayedBy.BOT).count()


@pytest.mark.django_db
def test_the_next_due_move_is_the_soonest_after_the_round_of_a_running_game(people):
    now = timezone.now()
    assert turns.next_due_at(now) is None
    soon, later = bot_table(people[0], ["novice"]), bot_table(people[1], ["scholar"])
    finished = bot_table(people[2], ["novice"])
    Game.objects.filter(pk=soon.pk).update(due_at=now + timedelta(seconds=3))
    Game.objects.filter(pk=later.pk).update(due_at=now + timedelta(seconds=9))
    Game.objects.filter(pk=finished.pk).update(
        due_at=now + timedelta(seconds=1), status=Game.Status.FINISHED
    )
    assert turns.next_due_at(now) == now + timedelta(seconds=3)
    # A move already due is the round's to play, not the next one.
    assert turns.next_due_at(now + timedelta(seconds=5)) == now + timedelta(seconds=9)
    assert turns.next_due_at(now + timedelta(seconds=9)) is None


def test_an_alarm_wakes_its_task_only_for_what_is_due_before_it_would_wake():
    alarm = Alarm()
    assert not alarm.ring(), "no task runs to hear it"

    async def scenario():
        loop = asyncio.get_running_loop()
        with alarm.armed():
            now = timezone.now()

            async def slept(seconds, rung_at):
                """How long the task slept, rung (from another thread) `rung_at` after `now`."""
                started = loop.time()
                ringing = loop.run_in_executor(None, alarm_ring_later, alarm, now + rung_at)
                await alarm.sleep(seconds, until=now + timedelta(seconds=seconds))
                await ringing
                return loop.time() - started

            assert await slept(5, timedelta(seconds=1)) < 2, "a sooner move wakes it"
            assert await slept(0.5, timedelta(seconds=30)) >= 0.5, "a later one does not"
            # Rung while awake (its round running), the next sleep returns at once.
            assert alarm.ring(now + timedelta(days=1))
            await asyncio.sleep(0)
            started = loop.time()
            await alarm.sleep(5, until=now + timedelta(seconds=5))
            assert loop.time() - started < 1
        assert not alarm.armed_here

    asyncio.run(scenario())


def alarm_ring_later(alarm: Alarm, when) -> None:
    """Ring from a thread other than the task's, as a commit does, once the task sleeps."""
    time.sleep(0.1)
    alarm.ring(when)
