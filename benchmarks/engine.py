"""Random full games through the engine's public API: games/s and µs/action per player count.

    python -m benchmarks.engine [--seconds S] [--players 2 3 4] [--profile]

Each game is played by uniformly random legal actions (`to_act`, `legal_actions`,
`apply_action`), one core, no I/O. The time counts everything a caller pays: setup, listing the
legal actions, choosing, applying.
"""

import argparse
import cProfile
import pstats
import random
import time

from games.engine import biblios


def play_one(num_players: int, seed: int) -> int:
    """Play one random game to the end; returns the number of actions applied."""
    state = biblios.new_game(num_players, seed=seed)
    chooser = random.Random(seed)
    actions = 0
    while seats := biblios.to_act(state):
        seat = seats[0]
        state = biblios.apply_action(
            state, seat, chooser.choice(biblios.legal_actions(state, seat))
        )
        actions += 1
    biblios.result(state)
    return actions


def measure(num_players: int, seconds: float) -> dict:
    games = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        actions += play_one(num_players, seed=games)
        games += 1
    return {
        "players": num_players,
        "games": games,
        "actions_per_game": actions / games,
        "games_per_s": games / elapsed,
        "us_per_action": elapsed / actions * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--profile", action="store_true", help="print the top functions instead")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(measure, args.players[-1], args.seconds)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return
    print(f"{'players':>7} {'games':>6} {'actions/game':>12} {'games/s':>8} {'µs/action':>9}")
    for num_players in args.players:
        row = measure(num_players, args.seconds)
        print(
            f"{row['players']:>7} {row['games']:>6} {row['actions_per_game']:>12.1f} "
            f"{row['games_per_s']:>8.1f} {row['us_per_action']:>9.2f}"
        )


if __name__ == "__main__":
    main()
