"""What the Abbot's search gains over its own greedy move, per searched decision.

    python -m games.kinds.biblios.bench.search_gain --deals D [--players 4] [--rounds 200]
                                     [--select 15 30 100] [--seed K] [--jobs J]

The arena needs hundreds of games at a minute each to see a few points of win rate; this
measures the search itself. Greedy games (one seat with the Abbot's weights, the others
Scholars, that seat rotated over the deals) give the positions where the Abbot would search.
In each, every candidate move (`abbot.searched_moves`, the greedy one first) is played out in
the same `--rounds` sampled worlds, as the search does. Then, for each `--select` size S, the
search's choice rule (`abbot.confident_best`, without the early pruning) picks a move
from S rounds drawn at random, and that move's win share minus the greedy move's is measured on
the other rounds, which did not take part in the choice. Averaged over positions and many
draws: the points of win share a searched decision gains when the budget allows S rounds
(negative: the search's deviations cost more than they find), and how often it deviates.
"""

import argparse
import copy
import math
import random
from concurrent.futures import ProcessPoolExecutor

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.bench.style import play_game
from games.kinds.biblios.bots import abbot
from games.kinds.biblios.bots.memory import Knowledge
from games.kinds.biblios.bots.valuation import SCHOLAR, outlook_from_view

DRAWS = 200  # random selection samples per position


def positions(players: int, seed: int, rotation: int) -> list[tuple]:
    """(view, memory) wherever the seat with the Abbot's weights would search a real choice."""
    mine = abbot.ABBOT_STYLES[players]
    found = []

    def watch(state, seat, view, memory):
        step = view["awaiting"]["step"]
        if seat == rotation and step in abbot.SEARCHED_STEPS and len(view["legal_actions"]) > 1:
            found.append((copy.deepcopy(view), copy.deepcopy(memory)))

    play_game([mine if seat == rotation else SCHOLAR for seat in range(players)], seed, watch)
    return found


def outcomes(task) -> list[list[tuple]] | None:
    """Per round, each candidate's (win share, margin) in one shared sampled world."""
    view, memory, rounds, seed = task
    rng = random.Random(seed)
    mine = abbot.ABBOT_STYLES[view["num_players"]]
    moves = abbot.searched_moves(view, memory, rng, mine)
    if len(moves) < 2:
        return None
    me = view["seat"]
    outlook = outlook_from_view(view, Knowledge(view, memory), mine)
    styles = [mine if seat == me else SCHOLAR for seat in range(view["num_players"])]
    table = []
    for _ in range(rounds):
        world, public = abbot.sampled_world(view, memory, rng, outlook)
        table.append(
            [
                abbot.playout_outcome(biblios.apply_action(world, me, move), me, public, styles)
                for move in moves
            ]
        )
    return table


def choice(table: list, chosen_rounds: list[int]) -> int:
    """The move the search would pick from those rounds (`abbot.confident_best`)."""
    moves = range(1, len(table[0]))
    sums, squares = [0.0] * len(table[0]), [0.0] * len(table[0])
    for r in chosen_rounds:
        share0, margin0 = table[r][0]
        for move in moves:
            share, margin = table[r][move]
            diff = share - share0 + abbot.MARGIN_WEIGHT * (margin - margin0)
            sums[move] += diff
            squares[move] += diff * diff
    return abbot.confident_best(sums, squares, len(chosen_rounds), moves)


def gain(tables: list, select: int, seed: int) -> tuple[float, float, float]:
    """Mean held-out win-share gain per decision, its standard error, and the deviation rate."""
    rng = random.Random(seed)
    per_position, deviations = [], 0
    for table in tables:
        total = 0.0
        for _ in range(DRAWS):
            order = rng.sample(range(len(table)), len(table))
            chosen, held_out = order[:select], order[select:]
            move = choice(table, chosen)
            if move:
                deviations += 1
                total += sum(table[r][move][0] - table[r][0][0] for r in held_out) / len(held_out)
        per_position.append(total / DRAWS)
    mean = sum(per_position) / len(per_position)
    spread = sum((g - mean) ** 2 for g in per_position) / max(len(per_position) - 1, 1)
    return mean, math.sqrt(spread / len(per_position)), deviations / (DRAWS * len(tables))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, required=True)
    parser.add_argument("--players", type=int, default=4, choices=[2, 3, 4])
    parser.add_argument("--rounds", type=int, default=200, help="sampled worlds per position")
    parser.add_argument("--select", type=int, nargs="+", default=[15, 30, 100])
    parser.add_argument("--seed", type=int, default=200000, help="seed of the first deal")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if max(args.select) >= args.rounds or min(args.select) < 2:
        raise SystemExit("--select sizes must be at least 2 and below --rounds")
    found = []
    for deal in range(args.deals):
        found += positions(args.players, args.seed + deal, deal % args.players)
    tasks = [(view, memory, args.rounds, index) for index, (view, memory) in enumerate(found)]
    with ProcessPoolExecutor(args.jobs) as pool:
        tables = [table for table in pool.map(outcomes, tasks) if table]
    print(
        f"{args.players} players, {len(tables)} searched positions from {args.deals} deals,"
        f" {args.rounds} sampled worlds each"
    )
    for select in args.select:
        mean, error, deviates = gain(tables, select, args.seed)
        print(
            f"  {select:4} rounds: {100 * mean:+.2f} ± {100 * error:.2f} points of win share per"
            f" searched decision over the greedy move; deviates from it {deviates:.0%}"
        )


if __name__ == "__main__":
    main()
