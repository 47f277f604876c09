"""A queue of reviews drained by one worker while live games play: how long the queue takes, and
what it does to the live games' pushes.

    python -m benchmarks.review_queue [--reviews 20] [--games 50] [--duration 120]
                                      [--interval 8] [--players 4]

Two phases, each on a fresh daphne worker over the same database (the embedded default: SQLite
and the in-memory channel layer), each playing the load benchmark's load on tables of its own
(`benchmarks.load`: JSON sockets, a move per table every --interval s): first without reviews,
then with --reviews heads-up Biblios games, played at random to the end, asked for review just
before play. The worker drains the queue in its analysis thread (`games/analysis/worker.py`)
at the site's default worlds per decision. Printed: each phase's push latencies, the reviews
done during play, and how long the queue took from the request to the last review done.
"""

import argparse
import asyncio
import os
import random
import tempfile
import time
from pathlib import Path

from benchmarks import load
from benchmarks.load_report import report
from benchmarks.site import Workers, create_players, open_tables, setup_database, site_env

WAIT_AFTER_PLAY_S = 900  # for the reviews left when play stops


def finished_games(count: int, prefix: str, seed: int) -> list[tuple[int, int]]:
    """`count` heads-up Biblios games played to the end at random through the services:
    (game id, the id of a player of it)."""
    from games.access import Visitor
    from games.kinds.biblios import engine
    from games.models import Game
    from games.play import selectors, services

    create_players(2 * count, prefix)
    found = []
    for game_id in open_tables("biblios", 2, prefix, count, seed=seed):
        game = Game.objects.get(pk=game_id)
        users = {seat.position: seat.user for seat in game.seats.select_related("user")}
        rng = random.Random(game_id)
        while game.status == Game.Status.ACTIVE:
            seat = engine.to_act(game.engine_state())[0]
            board = selectors.board_for(game, Visitor.of(game, users[seat]))
            action = rng.choice(board["legal_actions"])
            services.submit_action(game.pk, users[seat], action, version=board["version"])
            game.refresh_from_db()
        found.append((game.pk, users[0].pk))
    return found


def ask_for_reviews(games: list[tuple[int, int]]) -> float:
    """Ask for each game's review as its first player; when (time.time())."""
    from accounts.models import User
    from games.access import Visitor
    from games.analysis import services
    from games.models import Game

    asked = time.time()
    for game_id, user_id in games:
        game = Game.objects.get(pk=game_id)
        services.request_analysis(game, Visitor.of(game, User.objects.get(pk=user_id)))
    return asked


def reviews_done(games: list[tuple[int, int]]) -> list[float]:
    """When each review of `games` finished (time.time()), of those done."""
    from games.models import Analysis

    ids = [game_id for game_id, _ in games]
    done = Analysis.objects.filter(game_id__in=ids, status=Analysis.Status.DONE)
    return sorted(moment.timestamp() for moment in done.values_list("finished_at", flat=True))


def phase(env: dict, temp: str, args, name: str, reviews: int) -> dict:
    """One worker, fresh tables, `reviews` reviews asked for just before play."""
    prefix = f"{name}-"
    tokens = create_players(args.games * args.players, prefix)
    game_ids = open_tables("biblios", args.players, prefix, args.games)
    reviewed = finished_games(reviews, f"{name}-reviewed-", args.seed) if reviews else []
    workers = Workers(1, env, Path(temp) / name)
    workers.start()
    try:
        asked = ask_for_reviews(reviewed) if reviewed else time.time()
        options = load.parse_args(
            ["--games", str(args.games), "--players", str(args.players)]
            + ["--duration", str(args.duration), "--interval", str(args.interval)]
        )
        result = asyncio.run(
            load.run_load(workers.urls, game_ids, tokens, options, worker_cpu=workers.cpu_seconds)
        )
        during_play = len(reviews_done(reviewed))
        deadline = time.time() + WAIT_AFTER_PLAY_S
        while len(reviews_done(reviewed)) < reviews and time.time() < deadline:
            time.sleep(1)
        done = reviews_done(reviewed)
        errors = workers.log_errors()
    finally:
        workers.stop()
    result.pop("accepted", None)
    print(f"--- {name}: {reviews} reviews asked for")
    print(report(result, errors))
    if reviews:
        took = f"{done[-1] - asked:.0f} s" if len(done) == reviews else "not all done"
        print(f"reviews: {during_play} of {reviews} done during play; the queue took {took}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=20)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--duration", type=float, default=120.0)
    parser.add_argument("--interval", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="biblios-review-queue-") as temp:
        database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{temp}/site.sqlite3"
        # The reviewed games are played here at machine speed: no moves-per-second limit.
        env = site_env(
            database_url, "", STATIC_ROOT=f"{temp}/static", RATE_LIMIT_ACTIONS="100000/1"
        )
        setup_database(env)
        for name, reviews in (("without", 0), ("with", args.reviews)):
            (Path(temp) / name).mkdir()
            phase(env, temp, args, name, reviews)


if __name__ == "__main__":
    main()
