"""Greedy weights against the Scholar's: how the Abbot's own `Style`s were tuned.

    python -m games.kinds.biblios.bench.style --deals D [--players 2] [--base scholar|abbot]
                               [--set spread_scale=1.1 ...] [--seed K] [--jobs J]

One seat plays the Scholar's code with the weights `--set` over `--base` (the Scholar's, or
the Abbot's for that number of players), every other seat the Scholar's own. Each deal is
played once from every seat, as in the arena. A greedy game costs about 20 ms, so a thousand
games settle a weight to within ±3%, where the Abbot's search costs a minute a game. Prints
the tuned seat's mean win share and its Wilson 95% interval.
"""

import argparse
import dataclasses
import random
from concurrent.futures import ProcessPoolExecutor

from benchmarks.arena import wilson
from games.kinds.biblios import bots
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.bots import scholar
from games.kinds.biblios.bots.abbot import ABBOT_STYLES
from games.kinds.biblios.bots.valuation import SCHOLAR, Style


def play_game(styles: list[Style], seed: int, watch=None) -> list[float]:
    """One game of greedy players, seat s with `styles[s]`: each seat's win share.

    `watch(state, seat, view, memory)` sees every decision before it is made."""
    n = len(styles)
    state = biblios.new_game(n, seed=seed)
    memories = [bots.new_memory(seat, n) for seat in range(n)]
    rngs = [random.Random(f"{seed}/bot/{seat}") for seat in range(n)]
    while seats := biblios.to_act(state):
        for seat in range(n):
            seen = {"version": state.version, "events": biblios.events_for(state, seat)}
            bots.observe(memories[seat], seen)
        seat = seats[0]
        view = biblios.view(state, seat)
        if watch:
            watch(state, seat, view, memories[seat])
        action = scholar.decide(view, memories[seat], rngs[seat], styles[seat])
        state = biblios.apply_action(state, seat, action)
    winners = biblios.result(state)["winners"]
    return [1 / len(winners) if seat in winners else 0.0 for seat in range(n)]


def _play(task) -> float:
    """The tuned seat's share of a deal played with it at seat `rotation`."""
    tuned, players, rotation, seed = task
    styles = [tuned if seat == rotation else SCHOLAR for seat in range(players)]
    return play_game(styles, seed)[rotation]


def run(tuned: Style, players: int, deals: int, seed: int, jobs: int) -> tuple[float, int]:
    tasks = [
        (tuned, players, rotation, seed + d) for d in range(deals) for rotation in range(players)
    ]
    with ProcessPoolExecutor(jobs) as pool:
        shares = list(pool.map(_play, tasks, chunksize=16))
    return sum(shares), len(shares)


def parse_weights(pairs: list[str]) -> dict:
    names = {field.name for field in dataclasses.fields(Style)}
    weights = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        if name not in names:
            raise SystemExit(f"unknown weight {name!r} (one of {', '.join(sorted(names))})")
        weights[name] = float(value)
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, required=True)
    parser.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    parser.add_argument("--set", nargs="*", default=[], metavar="WEIGHT=VALUE")
    parser.add_argument("--base", default="scholar", choices=["scholar", "abbot"])
    parser.add_argument("--seed", type=int, default=100000, help="seed of the first deal")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    base = SCHOLAR if args.base == "scholar" else ABBOT_STYLES[args.players]
    tuned = dataclasses.replace(base, **parse_weights(args.set))
    wins, games = run(tuned, args.players, args.deals, args.seed, args.jobs)
    low, high = wilson(wins, games)
    changed = {
        field.name: getattr(tuned, field.name)
        for field in dataclasses.fields(Style)
        if getattr(tuned, field.name) != getattr(SCHOLAR, field.name)
    }
    print(
        f"{games} games, {args.players} players, one seat with {changed or 'the Scholar’s weights'}"
        f" against Scholars: win rate {wins / games:.1%} (95% CI {low:.1%}–{high:.1%})"
    )


if __name__ == "__main__":
    main()
