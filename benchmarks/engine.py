"""Random full games through the engine's public API: games/s and µs/action per player count.

    python -m benchmarks.engine [--seconds S] [--players 2 3 4] [--policy P …] [--profile]

Each game is played through `to_act`, `legal_actions` and `apply_action`, one core, no I/O; the
time counts everything a caller pays: setup, listing the legal actions, choosing, applying.
Two random policies:
- uniform: any legal action, equally likely. Such players bid far beyond their Gold (R13 allows
  it), so auctions end in defaults and re-auctions and games run to ~500 actions.
- within-means: still random, but never bids more than it holds and pays when it can, which
  gives games of a realistic length.
"""

import argparse
import cProfile
import pstats
import random
import time

from games.engine import biblios
from games.engine.cards import KIND, VALUE


def uniform(state, seat, legal, chooser):
    return chooser.choice(legal)


def within_means(state, seat, legal, chooser):
    """Random among the actions a careful player would consider: no bid it cannot pay."""
    hand = state.hands[seat]
    if state.step == "bid":
        gold_card = KIND[state.auction_card] == "gold"
        means = len(hand) if gold_card else sum(VALUE[c] for c in hand if KIND[c] == "gold")
        legal = [a for a in legal if a["type"] == "pass" or a["amount"] <= means]
    elif state.step in ("pay", "give") and len(legal) > 1:
        legal = [a for a in legal if a["type"] != "refuse"]
    return chooser.choice(legal)


POLICIES = {"uniform": uniform, "within-means": within_means}


def play_one(num_players: int, seed: int, policy) -> int:
    """Play one random game to the end; returns the number of actions applied."""
    state = biblios.new_game(num_players, seed=seed)
    chooser = random.Random(seed)
    actions = 0
    while seats := biblios.to_act(state):
        seat = seats[0]
        action = policy(state, seat, biblios.legal_actions(state, seat), chooser)
        state = biblios.apply_action(state, seat, action)
        actions += 1
    biblios.result(state)
    return actions


def measure(num_players: int, seconds: float, policy=uniform) -> dict:
    games = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        actions += play_one(num_players, games, policy)
        games += 1
    return {
        "players": num_players,
        "games": games,
        "actions_per_game": actions / games,
        "games_per_s": games / elapsed,
        "us_per_action": elapsed / actions * 1e6,
    }


ROW = "{:>12} {:>7} {:>6} {:>12} {:>8} {:>9}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per row")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    parser.add_argument("--policy", nargs="+", default=list(POLICIES), choices=list(POLICIES))
    parser.add_argument("--profile", action="store_true", help="print the top functions instead")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(measure, args.players[-1], args.seconds, POLICIES[args.policy[0]])
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return
    print(ROW.format("policy", "players", "games", "actions/game", "games/s", "µs/action"))
    for name in args.policy:
        for num_players in args.players:
            row = measure(num_players, args.seconds, POLICIES[name])
            print(
                ROW.format(
                    name,
                    num_players,
                    row["games"],
                    f"{row['actions_per_game']:.1f}",
                    f"{row['games_per_s']:.1f}",
                    f"{row['us_per_action']:.2f}",
                )
            )


if __name__ == "__main__":
    main()
