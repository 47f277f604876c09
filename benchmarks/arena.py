"""Bots against bots: win rates with 95% confidence intervals and CPU time per decision.

    python -m benchmarks.arena --games N [--levels scholar novice] [--players 2]
                               [--budget S] [--edition E] [--seed K] [--jobs J]

The lineup is `--levels`, padded with its last level up to `--players` (`--levels abbot
scholar --players 4` is one Abbot against three Scholars). Game g seats the lineup rotated by
g and deals with seed `--seed` + g // players: each deal is played once from every seat (as in
duplicate bridge, so that a lucky deal favours nobody). Each bot
sees only its own view and keeps a memory of the events it was shown, as a web player would.

A game's win is shared among tied winners (R21: each gets 1/k). Per level: the mean win share per
game of one player of that level, its Wilson 95% interval (over games, counting a shared win as
a fraction), and the mean CPU time of that level's decisions (forced ones included). `--budget`
is every searching level's CPU seconds per decision (the Abbot's, the Archivist's).

    python -m benchmarks.arena --game exlibris --games N [--levels greedy random] [--players 2]
                               [--variant V] [--difficulty 1 … 7] [--budget S] [--seed K]
                               [--jobs J]

Ex Libris (`games.kinds.exlibris.bots`) is played the same way, with its variants (`--variant`)
and each level's mean final total beside its win rate. `--players 1` plays solo games of the
first level against the Public Library (X84) at each `--difficulty` (X85): per difficulty, the
mean total, the share of games won (Wilson 95%) and the Public Library's mean total.
"""

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from games.kinds.biblios import bots
from games.kinds.biblios import engine as biblios
from games.kinds.exlibris import bots as exlibris_bots
from games.kinds.exlibris import engine as exlibris

Z95 = 1.959964
HEADER = "   level players  win rate          95% CI decisions ms/decision"


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """Wilson score interval at 95% for a proportion (fractional successes allowed)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def lineup_of(levels: list[str], players: int) -> list[str]:
    if len(levels) > players:
        raise SystemExit(f"{len(levels)} levels for {players} players")
    return levels + [levels[-1]] * (players - len(levels))


def play_game(levels: list[str], seed: int, edition: str, budget, options=None, watch=None):
    """One game, seat s played by a bot of `levels[s]`, each from its own view and memory.

    `watch(state, seat, view, action)` sees every decision before it is applied. Returns the
    final state and {level: [decisions, CPU seconds]}.
    """
    n = len(levels)
    state = biblios.new_game(n, seed=seed, variant=edition, options=options)
    memories = [bots.new_memory(seat, n) for seat in range(n)]
    rngs = [random.Random(f"{seed}/bot/{seat}") for seat in range(n)]
    timing = {level: [0, 0.0] for level in levels}
    while True:
        for seat in range(n):
            seen = {"version": state.version, "events": biblios.events_for(state, seat)}
            bots.observe(memories[seat], seen)
        seats = biblios.to_act(state)
        if not seats:
            return state, timing
        seat = seats[0]
        view = biblios.view(state, seat)
        start = time.process_time()
        action = bots.choose(levels[seat], view, memories[seat], rngs[seat], budget_s=budget)
        timing[levels[seat]][0] += 1
        timing[levels[seat]][1] += time.process_time() - start
        if watch:
            watch(state, seat, view, action)
        state = biblios.apply_action(state, seat, action)  # raises on an illegal move


def _play(task):
    """A game of the lineup rotated by `rotation`: each lineup entry's win share, and timing."""
    lineup, rotation, seed, edition, budget = task
    n = len(lineup)
    levels = [lineup[(seat + rotation) % n] for seat in range(n)]
    state, timing = play_game(levels, seed, edition, budget)
    winners = biblios.result(state)["winners"]
    shares = [0.0] * n
    for seat in winners:
        shares[(seat + rotation) % n] += 1 / len(winners)
    return shares, timing


def run(games: int, levels: list[str], players: int, budget, edition: str, seed: int, jobs: int):
    lineup = lineup_of(levels, players)
    tasks = [(lineup, g % players, seed + g // players, edition, budget) for g in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            outcomes = list(pool.map(_play, tasks))
    else:
        outcomes = [_play(task) for task in tasks]
    wins = {level: 0.0 for level in lineup}
    timing = {level: [0, 0.0] for level in lineup}
    for shares, game_timing in outcomes:
        for entry, share in zip(lineup, shares, strict=True):
            wins[entry] += share
        for level, (count, spent) in game_timing.items():
            timing[level][0] += count
            timing[level][1] += spent
    rows = []
    for level in dict.fromkeys(lineup):
        seats = lineup.count(level)
        share = wins[level] / seats  # one player of this level: its mean win share per game
        low, high = wilson(share, games)
        count, spent = timing[level]
        rows.append(
            {
                "level": level,
                "players": seats,
                "win_rate": share / games,
                "ci95": (low, high),
                "decisions": count,
                "ms_per_decision": 1000 * spent / max(count, 1),
            }
        )
    return rows


# ------------------------------------------------------------------------------ Ex Libris


def play_exlibris(
    levels: list[str], seed: int, variant: str, options=None, watch=None, budget=None
):
    """One Ex Libris game, seat s played by a bot of `levels[s]` from its own view and memory
    (`watch(state, seat, view, action)` sees each decision first; `budget`: a searching level's
    CPU seconds per decision, None for its default). Returns the final state and
    {level: [decisions, CPU seconds, the longest decision's CPU seconds]}."""
    n = len(levels)
    state = exlibris.new_game(n, seed=seed, variant=variant, options=options)
    memories = [exlibris_bots.new_memory(seat, n) for seat in range(n)]
    rngs = [random.Random(f"{seed}/bot/{seat}") for seat in range(n)]
    timing = {level: [0, 0.0, 0.0] for level in levels}
    while True:
        for seat in range(n):
            seen = {"version": state.version, "events": exlibris.events_for(state, seat)}
            exlibris_bots.observe(memories[seat], seen)
        seats = exlibris.to_act(state)
        if not seats:
            return state, timing
        seat = seats[0]
        view = exlibris.view(state, seat)
        start = time.process_time()
        action = exlibris_bots.choose(
            levels[seat], view, memories[seat], rngs[seat], budget_s=budget
        )
        spent = time.process_time() - start
        record = timing[levels[seat]]
        record[0], record[1], record[2] = record[0] + 1, record[1] + spent, max(record[2], spent)
        if watch:
            watch(state, seat, view, action)
        state = exlibris.apply_action(state, seat, action)  # raises on an illegal move


def _play_exlibris(task):
    """A game of the lineup rotated by `rotation`: each entry's win share and total, timing."""
    lineup, rotation, seed, variant, options, budget = task
    n = len(lineup)
    levels = [lineup[(seat + rotation) % n] for seat in range(n)]
    state, timing = play_exlibris(levels, seed, variant, options, budget=budget)
    result = exlibris.result(state)
    shares, totals = [0.0] * n, [0] * n
    for seat in result["winners"]:
        shares[(seat + rotation) % n] += 1 / len(result["winners"])
    for row in result["players"]:
        totals[(row["seat"] + rotation) % n] = row["total"]
    opponent = result["inspection"]["public_library"]["total"] if result["solo"] else None
    return shares, totals, opponent, timing


def _outcomes(tasks, jobs: int) -> list:
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(_play_exlibris, tasks))
    return [_play_exlibris(task) for task in tasks]


def run_exlibris(
    games: int, levels: list[str], players: int, variant: str, seed: int, jobs: int, budget=None
):
    """Per level of the lineup: its players, win rate with Wilson 95% CI, mean total, decisions,
    CPU ms per decision (mean and longest)."""
    lineup = lineup_of(levels, players)
    tasks = [
        (lineup, g % players, seed + g // players, variant, None, budget) for g in range(games)
    ]
    wins = {level: 0.0 for level in lineup}
    points = {level: 0 for level in lineup}
    timing = {level: [0, 0.0, 0.0] for level in lineup}
    for shares, totals, _, game_timing in _outcomes(tasks, jobs):
        for entry, share, total in zip(lineup, shares, totals, strict=True):
            wins[entry] += share
            points[entry] += total
        for level, (count, spent, longest) in game_timing.items():
            timing[level][0] += count
            timing[level][1] += spent
            timing[level][2] = max(timing[level][2], longest)
    rows = []
    for level in dict.fromkeys(lineup):
        seats = lineup.count(level)
        share = wins[level] / seats
        count, spent, longest = timing[level]
        rows.append(
            {
                "level": level,
                "players": seats,
                "win_rate": share / games,
                "ci95": wilson(share, games),
                "mean_total": points[level] / seats / games,
                "decisions": count,
                "ms_per_decision": 1000 * spent / max(count, 1),
                "longest_ms": 1000 * longest,
            }
        )
    return rows


def solo_exlibris(
    games: int, level: str, difficulties, variant: str, seed: int, jobs: int, budget=None
):
    """Per solo difficulty (X85): the level's mean total, its wins against the Public Library
    (X84) with Wilson 95% CI, the Public Library's mean total, CPU ms per decision (mean and
    longest)."""
    rows = []
    for difficulty in difficulties:
        options = {"difficulty": difficulty}
        tasks = [([level], 0, seed + g, variant, options, budget) for g in range(games)]
        outcomes = _outcomes(tasks, jobs)
        wins = sum(shares[0] for shares, *_ in outcomes)
        count = sum(timing[level][0] for *_, timing in outcomes)
        spent = sum(timing[level][1] for *_, timing in outcomes)
        longest = max(timing[level][2] for *_, timing in outcomes)
        rows.append(
            {
                "difficulty": difficulty,
                "mean_total": sum(totals[0] for _, totals, _, _ in outcomes) / games,
                "win_rate": wins / games,
                "ci95": wilson(wins, games),
                "library_total": sum(opponent for _, _, opponent, _ in outcomes) / games,
                "decisions": count,
                "ms_per_decision": 1000 * spent / max(count, 1),
                "longest_ms": 1000 * longest,
            }
        )
    return rows


EXLIBRIS_HEADER = (
    "   level players  win rate          95% CI mean total decisions ms/decision longest ms"
)
SOLO_HEADER = "difficulty mean total  win rate          95% CI library total ms/decision longest ms"


def main_exlibris(args) -> None:
    levels = args.levels or ["greedy", "random"]
    unknown = [level for level in levels if level not in exlibris_bots.LEVELS]
    if unknown:
        raise SystemExit(f"Ex Libris bot levels are {', '.join(exlibris_bots.LEVELS)}")
    budget = args.budget if args.budget is not None else exlibris_bots.ARCHIVIST_BUDGET_S
    searching = f", Archivist budget {budget:g} s/decision" if "archivist" in levels else ""
    if args.players == 1:
        variant = "friendly" if "friendly" in args.variant.split("+") else "standard"
        print(f"{args.games} solo games per difficulty: {levels[0]}, {variant}{searching}")
        rows = solo_exlibris(
            args.games, levels[0], args.difficulty, variant, args.seed, args.jobs, budget
        )
        print(SOLO_HEADER)
        for row in rows:
            low, high = row["ci95"]
            print(
                f"{row['difficulty']:>10} {row['mean_total']:>10.1f} {row['win_rate']:>9.1%} "
                f"{f'{low:.1%}–{high:.1%}':>15} {row['library_total']:>13.1f} "
                f"{row['ms_per_decision']:>11.2f} {row['longest_ms']:>10.1f}"
            )
        return
    lineup = lineup_of(levels, args.players)
    print(
        f"{args.games} games, {args.players} players: {' / '.join(lineup)}, {args.variant}"
        f"{searching}"
    )
    rows = run_exlibris(
        args.games, levels, args.players, args.variant, args.seed, args.jobs, budget
    )
    print(EXLIBRIS_HEADER)
    for row in rows:
        low, high = row["ci95"]
        print(
            f"{row['level']:>8} {row['players']:>7} {row['win_rate']:>9.1%} "
            f"{f'{low:.1%}–{high:.1%}':>15} {row['mean_total']:>10.1f} {row['decisions']:>9} "
            f"{row['ms_per_decision']:>11.2f} {row['longest_ms']:>10.1f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="biblios", choices=["biblios", "exlibris"])
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument(
        "--levels", nargs="+", choices=[*bots.LEVELS, *exlibris_bots.LEVELS], default=None
    )
    parser.add_argument("--players", type=int, default=2, choices=[1, 2, 3, 4])
    parser.add_argument(
        "--budget", type=float, default=None, help="a searching level's CPU s per decision"
    )
    parser.add_argument("--edition", default="biblios", choices=biblios.VARIANTS)
    parser.add_argument("--variant", default="standard", choices=exlibris.VARIANTS)
    parser.add_argument(
        "--difficulty", type=int, nargs="+", default=list(range(1, 8)), choices=range(1, 8)
    )
    parser.add_argument("--seed", type=int, default=0, help="deal seed of the first game")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    args = parser.parse_args()
    if args.game == "exlibris":
        main_exlibris(args)
        return
    args.levels = args.levels or ["scholar", "novice"]
    if args.players == 1 or any(level not in bots.LEVELS for level in args.levels):
        parser.error(f"Biblios: 2 to 4 players, levels among {', '.join(bots.LEVELS)}")
    budget = args.budget if args.budget is not None else bots.ABBOT_BUDGET_S
    lineup = lineup_of(args.levels, args.players)
    print(
        f"{args.games} games, {args.players} players: {' / '.join(lineup)}, "
        f"Abbot budget {budget:g} s/decision, {args.edition}"
    )
    rows = run(args.games, args.levels, args.players, budget, args.edition, args.seed, args.jobs)
    print(HEADER)
    for row in rows:
        low, high = row["ci95"]
        print(
            f"{row['level']:>8} {row['players']:>7} {row['win_rate']:>9.1%} "
            f"{f'{low:.1%}–{high:.1%}':>15} {row['decisions']:>9} {row['ms_per_decision']:>11.2f}"
        )


if __name__ == "__main__":
    main()
