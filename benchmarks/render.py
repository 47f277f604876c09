"""What one HTML board push costs a worker: rendering a mid-game 4-player board for each seat.

    python -m benchmarks.render [--game biblios|exlibris] [--boards N] [--moves M]
                                [--language en] [--profile] [--per-move K --spectators S]

A browser's socket gets `rendering.board_html(..., oob=True)` on every move (the live regions),
so a move at a table of four browsers costs four of these. Runs with the workers' production
settings (DEBUG off, cached template loader, collected static files) on a fresh SQLite database
in a temporary directory: a game of four of `--game` (opened like the load benchmark's) is
played `--moves` random legal moves (Biblios: into its gift phase), then its board is
rendered `--boards` times, seat after seat. Prints the CPU milliseconds per board (this process's
CPU time, which a busy shared machine disturbs less than the wall clock; both are printed), its
size and its queries; `--profile` adds cProfile's hot spots.

`--per-move K` measures instead what a move costs the worker's sockets: the four seats' and
`--spectators` spectators' sockets (one worker holding them all) each push the board after
each of K more random moves, through the consumer's own path (`GameConsumer._render_board`,
given each move's hint as the broadcast names it: the game read once for all, access, presence
as last read, render and the regions that changed); prints the CPU milliseconds per move, all
sockets together, and per socket.
"""

import argparse
import cProfile
import pstats
import random
import secrets
import statistics
import sys
import tempfile
import time

from benchmarks.site import create_players, open_tables, setup_database, site_env


def mid_game(kind: str, moves: int, seed: int):
    """A started game of four of `kind` played `moves` random legal moves, and who its players
    are at it (`access.Visitor`, as each of their sockets works it out once) by seat."""
    from games import access
    from games.kinds import registry
    from games.models import Game
    from games.play import selectors, services

    prefix = f"render-{secrets.token_hex(3)}-"
    create_players(4, prefix)
    game = Game.objects.get(pk=open_tables(kind, 4, prefix, 1, seed=seed)[0])
    engine = registry.of(game).engine
    by_seat = {seat.position: seat.user for seat in game.seats.select_related("user")}
    rng = random.Random(seed)
    for _ in range(moves):
        game.refresh_from_db()
        seat = engine.to_act(game.engine_state())[0]
        board = selectors.seat_board(game, seat)
        services.submit_action(
            game.pk, by_seat[seat], rng.choice(board["legal_actions"]), version=board["version"]
        )
    game.refresh_from_db()
    return game, [access.Visitor.of(game, by_seat[seat]) for seat in range(4)]


def render_boards(game, visitors, count: int) -> tuple[list[float], list[float]]:
    """CPU and wall seconds per board, `count` boards, seat after seat, as the consumer
    renders them."""
    from games.models import Game
    from games.play import rendering

    cpu, wall = [], []
    for i in range(count):
        start, start_cpu = time.perf_counter(), time.process_time()
        # The consumer reads the game afresh for every push.
        fresh = Game.objects.get(pk=game.pk)
        rendering.board_html(fresh, visitors[i % 4], oob=True, connected={0, 1, 2, 3})
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return cpu, wall


def sockets_after_moves(game, visitors, spectators: int, moves: int, seed: int) -> list[float]:
    """CPU seconds per move of every socket's push: four seats' and `spectators` more."""
    from django.contrib.auth import get_user_model

    from games import access
    from games.kinds import registry
    from games.play import consumers, live_regions, selectors, services

    watchers = [
        get_user_model().objects.create_user(f"watch-{secrets.token_hex(4)}", password="x")
        for _ in range(spectators)
    ]
    readers = [(v.user, v) for v in visitors] + [(u, access.Visitor.of(game, u)) for u in watchers]
    sockets = []
    for user, visitor in readers:
        socket = consumers.GameConsumer()
        socket.scope = {"headers": [], "user": user}
        socket.game_id, socket.as_json, socket.origin, socket.user = game.pk, False, "", user
        socket.visitor, socket.seats_final, socket.invited = visitor, True, False
        socket.connected, socket.connected_at = {0, 1, 2, 3}, time.monotonic() + 10**6
        socket.regions, socket.sent = live_regions.SentRegions(), None
        socket.sent = socket._render_board(True, False, "")[0]  # the first push: whole
        sockets.append(socket)
    engine = registry.of(game).engine
    by_seat = {visitor.seat: visitor.user for visitor in visitors}
    rng = random.Random(seed)
    cpu = []
    for _ in range(moves):
        game.refresh_from_db()
        seat = engine.to_act(game.engine_state())[0]
        board = selectors.seat_board(game, seat)
        action = rng.choice(board["legal_actions"])
        services.submit_action(game.pk, by_seat[seat], action, version=board["version"])
        start = time.process_time()
        hint = secrets.token_hex(8)  # as `broadcast.game_changed` names the move's hint
        for socket in sockets:
            pushed = socket._render_board(False, False, "", hint)
            socket.sent = pushed[0]
        cpu.append(time.process_time() - start)
    return cpu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="biblios", help="the kind: biblios, exlibris")
    parser.add_argument("--boards", type=int, default=400)
    parser.add_argument("--moves", type=int, default=40, help="moves played before rendering")
    parser.add_argument("--language", default="en", choices=("en", "fr", "es"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--per-move", type=int, default=0, help="moves measured on the sockets")
    parser.add_argument("--spectators", type=int, default=0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="biblios-render-") as temp:
        env = site_env(
            f"sqlite:///{temp}/render.sqlite3",
            STATIC_ROOT=f"{temp}/static",
            RATE_LIMIT_ACTIONS="100000/1",  # the moves before rendering come at machine speed
        )
        setup_database(env)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext
        from django.utils import translation

        from games.play import rendering

        game, visitors = mid_game(args.game, args.moves, args.seed)
        if args.per_move:
            with translation.override(args.language):
                sockets_after_moves(game, visitors, args.spectators, 3, args.seed)  # warm
                measured = (game, visitors, args.spectators, args.per_move, args.seed + 1)
                if args.profile:
                    profiler = cProfile.Profile()
                    cpu = profiler.runcall(sockets_after_moves, *measured)
                    stats = pstats.Stats(profiler, stream=sys.stdout)
                    stats.sort_stats("cumulative").print_stats(40)
                else:
                    cpu = sockets_after_moves(*measured)
            count = 4 + args.spectators
            print(
                f"{args.per_move} moves of a 4-player {args.game} game from version "
                f"{args.moves}, pushed to 4 seats' and {args.spectators} spectators' sockets: "
                f"CPU per move {1000 * statistics.fmean(cpu):.2f} ms (median "
                f"{1000 * statistics.median(cpu):.2f}), per socket "
                f"{1000 * statistics.fmean(cpu) / count:.2f} ms"
            )
            return 0
        with translation.override(args.language):
            html = rendering.board_html(game, visitors[0], oob=True, connected={0, 1, 2, 3})
            render_boards(game, visitors, 8)  # warm: templates, catalogues, caches
            with CaptureQueriesContext(connection) as queries:
                rendering.board_html(game, visitors[1], oob=True, connected={0, 1, 2, 3})
            cpu, wall = render_boards(game, visitors, args.boards)
            if args.profile:
                profiler = cProfile.Profile()
                profiler.runcall(render_boards, game, visitors, args.boards)
    print(
        f"{args.boards} boards of a 4-player {args.game} game at version {game.version} "
        f"({args.moves} moves, language {args.language}), per board (game read included): CPU mean "
        f"{1000 * statistics.fmean(cpu):.2f} ms; wall median {1000 * statistics.median(wall):.2f}"
        f" ms; {len(html)} characters; {len(queries.captured_queries)} queries in board_html"
    )
    if args.profile:
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.sort_stats("cumulative").print_stats(30)
        stats.sort_stats("tottime").print_stats(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
