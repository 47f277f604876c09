"""Tables of searching bots on the site: every seat the level each game offers by default (the one
that thinks ahead), played to the end by the turn worker of a real daphne process, in every
variant of every game at its largest table and in solo.

All the tables play at once on one worker, each watched by a spectator's socket: every table
ends, the log is the truth, each watcher's last board is the end (no push lost) and equals a
fresh one, and the worker keeps answering requests while its bots think (bots think off
daphne's event loop).

Each pass of .ci/run plays half of the tables (`tests.passes`): every other one on the embedded
default's in-memory channel layer, the rest on PostgreSQL and Redis, so that together they play
every variant and solo at the cost of one pass.
"""

import asyncio
import time

import pytest

from benchmarks.client import Http
from games.kinds import registry
from games.models import Game, Move, Seat
from games.moderation import services as moderation
from games.play import services
from tests.passes import half_per_pass
from tests.reliability.conftest import Board, site, token  # noqa: F401  (site: a fixture)
from tests.turns.helpers import bot_table

pytestmark = pytest.mark.slow(seconds=90)  # half the tables took 89 s beside other tests

GAME_TIMEOUT = 400  # seconds for all the tables together; only reached when one stalls
PROBE_EVERY = 0.25  # seconds between the requests that check the worker answers
STALLED = 3.0  # seconds without an answer that would mean the worker's loop is held


def searching_tables():
    """(kind, variant, players): each variant at the kind's largest table, and solo (on the
    default variant) where the kind has it."""
    for kind in registry.kinds():
        for variant in kind.variants:
            yield kind, variant.slug, max(kind.player_counts)
        if 1 in kind.player_counts:
            yield kind, kind.default_variant, 1


def searching_bots_only(host, kind, variant: str, players: int, seed: int) -> Game:
    """A started table whose every seat is `kind`'s default bot: the host seats them, then
    leaves, and the seat its stand-in took over is given the default level too (its moves are
    recorded as a takeover's)."""
    game = bot_table(
        host, [kind.default_bot] * (players - 1), seed=seed, kind=kind.slug, variant=variant
    )
    services.leave_game(game.pk, host)
    Seat.objects.filter(game=game, position=0).update(bot_level=kind.default_bot)
    return game


async def watch(url: str, game: Game, raw_token: str) -> tuple[list[dict], dict]:
    """Every board frame a spectator's socket receives until the game ends, and a fresh
    board opened after the end."""
    board = await Board(url, game.pk, raw_token).open()

    async def the_end():
        while True:
            board.changed.clear()
            if any("view" in frame and frame["status"] != "active" for frame in board.frames):
                return
            await board.changed.wait()

    try:
        await asyncio.wait_for(the_end(), GAME_TIMEOUT)
    finally:
        await board.close()
    fresh = await Board(url, game.pk, raw_token).open()
    await fresh.close()
    return [frame for frame in board.frames if "view" in frame], fresh.latest


async def probe(url: str, game_id: int, raw_token: str, done: asyncio.Event) -> list[float]:
    """Seconds each request for a game took while the tables played."""
    waits = []
    http = Http(url, timeout=STALLED * 10)
    try:
        while not done.is_set():
            start = time.monotonic()
            status, _, _ = await http.request("GET", f"/api/games/{game_id}", raw_token)
            assert status == 200
            waits.append(time.monotonic() - start)
            await asyncio.sleep(PROBE_EVERY)
    finally:
        http.close()
    return waits


def test_tables_of_searching_bots_play_to_the_end_on_one_worker(site, django_user_model):  # noqa: F811
    host = django_user_model.objects.create_user("host", password="x")
    watcher = django_user_model.objects.create_user("watcher", password="x")
    tables = half_per_pass(list(searching_tables()))
    games = [
        searching_bots_only(host, kind, variant, players, seed=11 + number)
        for number, (kind, variant, players) in enumerate(tables)
    ]
    raw_token = token(watcher)
    workers = site(1, BOT_MOVE_DELAY_S="0", BOT_BUDGET_S="0.003", TURN_WORKER_POLL_S="0.05")
    url = workers.urls[0]

    async def scenario():
        done = asyncio.Event()
        probing = asyncio.create_task(probe(url, games[0].pk, raw_token, done))
        try:
            watched = await asyncio.gather(*(watch(url, game, raw_token) for game in games))
        finally:
            done.set()
        return watched, await probing

    watched, waits = asyncio.run(scenario())

    assert max(waits) < STALLED, f"the worker answered a request only after {max(waits):.1f} s"
    for (kind, variant, players), game, (frames, fresh) in zip(tables, games, watched, strict=True):
        where = f"{kind.slug} {variant} at {players}"
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED, where
        assert game.moves.count() == game.version, where
        assert moderation.check_integrity(game).problem == "", where
        bots = {(0, Move.PlayedBy.TAKEOVER)} | {
            (seat, Move.PlayedBy.BOT) for seat in range(1, players)
        }
        assert set(game.moves.values_list("seat", "played_by")) == bots, where
        assert set(game.seats.values_list("bot_level", flat=True)) == {kind.default_bot}, where
        versions = [frame["version"] for frame in frames]
        assert versions == sorted(set(versions)), f"{where}: frames out of order {versions}"
        assert versions[-1] == game.version, f"{where}: the last push is not the end"
        assert frames[-1]["view"] == fresh["view"], where
