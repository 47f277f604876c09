"""How fast the Ex Libris searching bot plays out a world: its playouts (every seat on the Greedy
to the end of the round after next) and the Greedy's decisions, in CPU time.

    python -m benchmarks.playouts [--games 6] [--every 7] [--seed 100]

Games of 1 to 4 players (standard, beginner and long) are played by the Greedy at every seat on
fixed seeds; at every `--every`-th step the Archivist's `playout` runs from that state for the
seat to act. Prints playouts per second, the Greedy's µs per decision and a digest of every
action and score, which two trees give alike when their choices are the same. Pure: it needs
no settings; run it with `PYTHONPATH=<tree>` to time another checkout in the same run.
"""

import argparse
import hashlib
import json
import random
import time

from games.kinds.exlibris import bots, engine
from games.kinds.exlibris.bots import archivist, greedy

MODES = (
    (1, "standard"),
    (2, "standard"),
    (3, "standard"),
    (4, "standard"),
    (2, "beginner"),
    (4, "long"),
)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=len(MODES), help="how many of the modes")
    parser.add_argument("--every", type=int, default=7, help="a playout every so many steps")
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args(argv)
    digest = hashlib.sha256()
    decisions = playouts = 0
    decide_s = playout_s = 0.0
    for players, variant in MODES[: args.games]:
        seed = args.seed + players
        state = engine.new_game(players, seed=seed, variant=variant, options={})
        memories = [bots.new_memory(seat, players) for seat in range(players)]
        rng = random.Random(seed)
        step = 0
        while engine.to_act(state):
            for seat, memory in enumerate(memories):
                events = engine.events_for(state, seat)
                bots.observe(memory, {"version": state["version"], "events": events})
            seat = engine.to_act(state)[0]
            step += 1
            if step % args.every == 0:
                start = time.process_time()
                value = archivist.playout(state, seat, state["round"] + 1, seed + step)
                playout_s += time.process_time() - start
                playouts += 1
                digest.update(repr(value).encode())
            view = engine.view(state, seat)
            start = time.process_time()
            action = greedy.decide(view, memories[seat], rng)
            decide_s += time.process_time() - start
            decisions += 1
            digest.update(json.dumps(action, sort_keys=True).encode())
            state = engine.apply_action(state, seat, action)
        digest.update(json.dumps(engine.result(state), sort_keys=True).encode())
    print(
        f"{playouts} playouts: {playouts / playout_s:.1f} playouts/s; {decisions} Greedy "
        f"decisions: {1e6 * decide_s / decisions:.0f} µs each; digest {digest.hexdigest()[:16]}"
    )


if __name__ == "__main__":
    main()
