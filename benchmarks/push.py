"""What one browser push costs as a game grows long and as the live games grow many.

    python -m benchmarks.push [--kinds biblios,exlibris] [--short 10] [--long 300]
                              [--window 8] [--moves 100] [--few 10] [--many 1000] [--regions]

On every move each browser at the table gets a push: the consumer reads the game afresh,
renders the reader's board as live regions, leaving out those whose inputs did not change
(`rendering.live_board(..., sent=...)`, the whole board on a socket's first push), and sends
the regions that changed (`live_regions.SentRegions.news`). This measures that work in CPU
time (this process's, which a busy shared machine disturbs less than the wall clock), and
apart the part of it the board's log takes (`history_selectors.game_log`), with the workers'
production settings on a fresh SQLite database in a temporary directory, as the render
benchmark does, along two lines:

- Game length: per kind, a game of four played with random legal moves through the services up
  to `--long` moves (or its end), every seat pushed after every move; the mean push over the
  `--window` moves from `--short` on against the last `--window` moves before the end (the
  game's last move, which shows its result, left out).
- Live games: a game of four of the first kind played `--moves` moves, copied row by row into
  `--few` and then `--many` live games (each at the same point, each then going its own random
  way); each game's seats pushed once (a browser's first frame), then one move per game and
  the pushes round-robin, seat 0 of every game, then seat 1…, as a worker serving many tables
  meets them when their moves come together; the mean of those pushes.

Prints each mean and their ratios (1.00 is flat), how long the setting up took and this
process's peak memory; with `--regions`, what each region's renders and the board's context
cost a push at both ends of the game, and how large each region was: what grows.
"""

import argparse
import random
import resource
import secrets
import statistics
import sys
import tempfile
import time

from benchmarks.site import create_players, open_tables, setup_database, site_env

CONNECTED = {0, 1, 2, 3}


class LogClock:
    """The CPU seconds the board's log takes, counted around `history_selectors.game_log`,
    which the rendering calls through its module."""

    def __init__(self):
        from games.history import selectors as history_selectors

        self.spent, self.timed = 0.0, history_selectors.game_log
        history_selectors.game_log = self.game_log

    def game_log(self, *args, **kwargs):
        start = time.process_time()
        try:
            return self.timed(*args, **kwargs)
        finally:
            self.spent += time.process_time() - start


class RegionClock:
    """The CPU seconds and characters of each region's renders (`rendering._render`, by
    partial) and of the board's context (`rendering._context`), counted while `window` names
    one of the game's two ends."""

    def __init__(self):
        from games.play import rendering

        self.window = None
        self.spent: dict[str, dict[str, list]] = {}
        self.render, self.context = rendering._render, rendering._context
        rendering._render, rendering._context = self._render, self._context

    def _count(self, name: str, call, *args, **kwargs):
        start = time.process_time()
        found = call(*args, **kwargs)
        if self.window is not None:
            row = self.spent.setdefault(self.window, {}).setdefault(name, [0.0, 0, 0])
            row[0] += time.process_time() - start
            row[1] += 1
            row[2] += len(found) if isinstance(found, str) else 0
        return found

    def _render(self, kind, partial, context, **extra):
        return self._count(partial, self.render, kind, partial, context, **extra)

    def _context(self, *args, **kwargs):
        return self._count("(context)", self.context, *args, **kwargs)

    def close(self) -> None:
        from games.play import rendering

        rendering._render, rendering._context = self.render, self.context

    def report(self, pushes: int) -> None:
        for window, rows in self.spent.items():
            print(f"  {window}, per push:")
            for name, (seconds, count, size) in sorted(rows.items(), key=lambda r: -r[1][0]):
                mean = f", {size / count:,.0f} characters" if size else ""
                print(f"    {name:18} {1000 * seconds / pushes:.3f} ms ({count} renders{mean})")
        self.spent = {}


class Table:
    """One live game of four as its players' browsers see it: their visitors and the regions
    each socket last sent."""

    def __init__(self, game_id: int, seed: int, clock: LogClock):
        from games import access
        from games.kinds import registry
        from games.models import Game
        from games.play import live_regions

        game = Game.objects.get(pk=game_id)
        self.game_id, self.engine, self.clock = game_id, registry.of(game).engine, clock
        self.users = {seat.position: seat.user for seat in game.seats.select_related("user")}
        self.visitors = [access.Visitor.of(game, self.users[seat]) for seat in range(4)]
        self.regions = [live_regions.SentRegions() for _ in range(4)]
        self.rng = random.Random(seed)

    def move(self):
        """One random legal move of the seat to act, chosen from its own board; the game."""
        from games.models import Game
        from games.play import selectors, services

        game = Game.objects.get(pk=self.game_id)
        seat = self.engine.to_act(game.engine_state())[0]
        board = selectors.seat_board(game, seat)
        action = self.rng.choice(board["legal_actions"])
        services.submit_action(game.pk, self.users[seat], action, version=board["version"])
        return Game.objects.get(pk=self.game_id)

    def push(self, seat: int) -> tuple[float, float]:
        """The CPU seconds of one push to `seat`, as the consumer does it, and of its log."""
        from games.models import Game
        from games.play import rendering

        start, log = time.process_time(), self.clock.spent
        fresh = Game.objects.get(pk=self.game_id)
        sent, whole = self.regions[seat], not self.regions[seat].digests
        parts = rendering.live_board(
            fresh, self.visitors[seat], connected=CONNECTED, frame=whole, sent=sent
        )
        sent.news("".join(parts), whole=whole)
        return time.process_time() - start, self.clock.spent - log

    def pushes(self) -> list[tuple[float, float]]:
        return [self.push(seat) for seat in range(4)]


def means(pushes: list[tuple[float, float]]) -> tuple[float, float]:
    """Mean CPU milliseconds of a push and of its log."""
    return tuple(1000 * statistics.fmean(part) for part in zip(*pushes, strict=True))


def new_tables(kind: str, count: int, seed: int) -> list[int]:
    prefix = f"push-{secrets.token_hex(3)}-"
    create_players(4 * count, prefix)
    return open_tables(kind, 4, prefix, count, seed=seed)


def by_length(kind: str, args, clock: LogClock, regions: RegionClock | None) -> dict:
    """Means at moves `short`… and at the last moves before `long` or the end; with a region
    clock, the same game played again (the same seeds) with its regions counted at those moves,
    apart from the means."""
    per_move = play_long(kind, args, clock)
    last = max(per_move)
    if regions is not None:
        play_long(kind, args, clock, regions, last)
    early = [push for v in range(args.short, args.short + args.window) for push in per_move[v]]
    late = [push for v in range(last - args.window + 1, last + 1) for push in per_move[v]]
    return {"short": means(early), "long": means(late), "last": last}


def play_long(kind: str, args, clock: LogClock, regions=None, last: int = 0) -> dict:
    """Every seat's pushes after each move of a game played to `long` or its end, by move."""
    from games.models import Game

    table = Table(new_tables(kind, 1, args.seed)[0], args.seed, clock)
    table.pushes()  # the browsers' first frames
    per_move = {}
    game = Game.objects.get(pk=table.game_id)
    while game.version < args.long and game.status == Game.Status.ACTIVE:
        game = table.move()
        if game.status != Game.Status.ACTIVE:
            break
        if regions is not None:
            early = args.short <= game.version < args.short + args.window
            late = last - args.window < game.version <= last
            regions.window = "early" if early else "late" if late else None
        per_move[game.version] = table.pushes()
    if regions is not None:
        regions.window = None
    return per_move


def copies(game_id: int, count: int) -> list[int]:
    """`count` live games with `game_id`'s seats, state and move log, written row by row."""
    from games.models import Game, Move, Seat, new_invite_code

    game = Game.objects.get(pk=game_id)
    seats = list(Seat.objects.filter(game=game))
    moves = list(Move.objects.filter(game=game))
    made = []
    for _ in range(count):
        game.pk, game.invite_code = None, new_invite_code()
        game.save(force_insert=True)
        for row in [*seats, *moves]:
            row.pk, row.game = None, game
        Seat.objects.bulk_create(seats)
        Move.objects.bulk_create(moves)
        made.append(game.pk)
    return made


def by_games(kind: str, args, clock: LogClock) -> dict:
    """Means with `few` and with `many` live games pushed round-robin."""
    table = Table(new_tables(kind, 1, args.seed)[0], args.seed, clock)
    for _ in range(args.moves):
        table.move()
    found = {}
    for count in (args.few, args.many):
        began = time.perf_counter()
        made = copies(table.game_id, count)
        tables = [Table(game_id, args.seed + i, clock) for i, game_id in enumerate(made)]
        for each in tables:  # the browsers' first frames
            each.pushes()
        setup_s = time.perf_counter() - began
        for each in tables:
            each.move()
        found[count] = (means([each.push(seat) for seat in range(4) for each in tables]), setup_s)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kinds", default="biblios,exlibris")
    parser.add_argument("--short", type=int, default=10)
    parser.add_argument("--long", type=int, default=300)
    parser.add_argument("--window", type=int, default=8)
    parser.add_argument("--moves", type=int, default=100, help="moves into the live games")
    parser.add_argument("--few", type=int, default=10)
    parser.add_argument("--many", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--regions", action="store_true", help="what each region costs a push")
    args = parser.parse_args(argv)
    kinds = args.kinds.split(",")
    with tempfile.TemporaryDirectory(prefix="biblios-push-") as temp:
        env = site_env(
            f"sqlite:///{temp}/push.sqlite3",
            STATIC_ROOT=f"{temp}/static",
            RATE_LIMIT_ACTIONS="100000/1",  # the moves come at machine speed
        )
        setup_database(env)
        clock = LogClock()
        regions = RegionClock() if args.regions else None
        for kind in kinds:
            began = time.perf_counter()
            found = by_length(kind, args, clock, regions)
            (short, short_log), (long, long_log) = found["short"], found["long"]
            print(
                f"{kind}, one game of four: push CPU {short:.2f} ms (log {short_log:.2f}) at "
                f"moves {args.short}-{args.short + args.window - 1}, {long:.2f} ms (log "
                f"{long_log:.2f}) at moves {found['last'] - args.window + 1}-{found['last']}: "
                f"ratio {long / short:.2f} (log {long_log / short_log:.2f}; "
                f"{time.perf_counter() - began:.0f} s)",
                flush=True,
            )
            if regions is not None:
                regions.report(4 * args.window)
        if regions is not None:
            regions.close()
        found = by_games(kinds[0], args, clock)
    for count, ((push, log), setup_s) in found.items():
        print(
            f"{kinds[0]}, {count} live games at move {args.moves}: push CPU {push:.2f} ms (log "
            f"{log:.2f}; games copied and first frames in {setup_s:.0f} s)"
        )
    (few, few_log), _ = found[args.few]
    (many, many_log), _ = found[args.many]
    print(
        f"ratio {args.many} games against {args.few}: {many / few:.2f} "
        f"(log {many_log / few_log:.2f})"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"peak resident memory of this process: {peak} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
