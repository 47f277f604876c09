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
is the Abbot's CPU seconds per decision.
"""

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from games.engine import biblios
from games.kinds.biblios import bots

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--levels", nargs="+", default=["scholar", "novice"], choices=bots.LEVELS)
    parser.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    parser.add_argument("--budget", type=float, default=None, help="Abbot CPU s per decision")
    parser.add_argument("--edition", default="biblios", choices=biblios.VARIANTS)
    parser.add_argument("--seed", type=int, default=0, help="deal seed of the first game")
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    args = parser.parse_args()
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
