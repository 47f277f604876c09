"""Two checkouts' engines timed in one run: before → after, as a ratio.

    python -m benchmarks.engine_versus --before PATH [--after PATH] [--game exlibris|biblios]
                                       [--players 4 1] [--rounds 5] [--seconds 2]

`PATH` is a checkout of this project (a `git worktree add` of the commit to compare with);
`--after` defaults to this one. Each round times every player count in a fresh process of each
checkout, the two alternating (so the machine's load falls on both alike), each process playing
uniformly random games through the public API (`to_act`, `legal_actions`, `apply_action`,
`result`) for `--seconds` of CPU, seeds 0, 1, 2…, as `benchmarks.engine` does. It prints each
tree's median actions/s and µs/action over the rounds, and after/before. For Biblios, each round
also times the plain mutable simulator (`games.kinds.biblios.bench.simulator`, from `--after`)
on the same kind of games, and each tree's speed is also given as a ratio of the simulator's.
"""

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

# Run in the checkout's own directory: its engine is the one imported.
PLAYER = """
import json, random, sys, time
game, players, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
if game == "exlibris":
    from games.kinds.exlibris import engine
    def deal(seed):
        if players == 1:
            return engine.new_game(1, seed=seed, variant="standard")
        return engine.new_game(players, seed=seed, variant="standard")
elif game == "simulator":
    from games.kinds.biblios.bench import simulator
else:
    from games.kinds.biblios import engine
    def deal(seed):
        return engine.new_game(players, seed=seed)
def play(seed):
    if game == "simulator":
        return simulator.play(players, seed)
    state = deal(seed)
    chooser = random.Random(seed)
    actions = 0
    while seats := engine.to_act(state):
        seat = chooser.choice(seats)
        legal = engine.legal_actions(state, seat)
        state = engine.apply_action(state, seat, chooser.choice(legal))
        actions += 1
    engine.result(state)
    return actions
games = actions = 0
start = time.process_time()
while (elapsed := time.process_time() - start) < seconds:
    actions += play(games)
    games += 1
print(json.dumps({"games": games, "actions": actions, "seconds": elapsed}))
"""


def timed(tree: Path, game: str, players: int, seconds: float) -> dict:
    """One process of `tree` playing for `seconds`: its games, actions and CPU seconds."""
    done = subprocess.run(
        [sys.executable, "-c", PLAYER, game, str(players), str(seconds)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the checkout to compare with")
    parser.add_argument("--after", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--game", default="exlibris", choices=["exlibris", "biblios"])
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per process")
    args = parser.parse_args()
    trees = {"before": args.before, "after": args.after}
    games = {"before": args.game, "after": args.game}
    if args.game == "biblios":
        trees["simulator"], games["simulator"] = args.after, "simulator"
    rates: dict = {(name, p): [] for name in trees for p in args.players}
    lengths: dict = {p: [] for p in args.players}
    for round_number in range(args.rounds):
        for players in args.players:
            order = list(trees) if round_number % 2 == 0 else list(reversed(trees))
            for name in order:
                row = timed(trees[name], games[name], players, args.seconds)
                rates[name, players].append(row["actions"] / row["seconds"])
                if name != "simulator":
                    lengths[players].append(row["actions"] / row["games"])
    print(f"{args.game}, uniform random players, median of {args.rounds} alternating rounds")
    print(ROW.format("players", "actions/game", "before act/s", "after act/s", "µs before → after"))
    for players in args.players:
        before = statistics.median(rates["before", players])
        after = statistics.median(rates["after", players])
        print(
            ROW.format(
                players,
                f"{statistics.mean(lengths[players]):.1f}",
                f"{before:.0f}",
                f"{after:.0f}",
                f"{1e6 / before:.2f} → {1e6 / after:.2f}",
            ),
            f"  after/before {after / before:.2f}",
        )
        if "simulator" in trees:
            simulator = statistics.median(rates["simulator", players])
            print(
                f"{'':>7} simulator {simulator:.0f} actions/s ({1e6 / simulator:.2f} µs): "
                f"API/simulator {before / simulator:.3f} before, {after / simulator:.3f} after"
            )


ROW = "{:>7} {:>12} {:>13} {:>13} {:>18}"


if __name__ == "__main__":
    main()
