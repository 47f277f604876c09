"""Reviews of bot games: CPU per reviewed game, the spread of the losses the bots make (what each
game's grade thresholds are chosen from), and the stability of the grades.

    python -m benchmarks.review --game biblios --players 2 --games 6 [--rounds N] [--seed K]
        [--level L]

Each game is played by the level L (by default the kind's stand-in: the Scholar, the Greedy; a
searching level such as the Abbot or the Archivist thinks for its default CPU budget per move) from
its own view and memory, dealt with seed K + g, then reviewed twice (`games.analysis.review`) with
two sampling seeds, over N worlds a decision (by default the game's own, as the site's). Printed:
CPU seconds per review (median and largest), decisions graded per game, the mean worlds sampled per
decision (more than the rounds where the review drew more near a grade boundary), the losses'
percentiles over every graded decision (the spread of the level's own losses, which the thresholds
are chosen from), the grades of the first review, and stability: the share of decisions given the
same grade by both reviews, and the pairs of grades the others were given.
"""

import argparse
import dataclasses
import os
import random
import statistics
import time
from collections import Counter


def play(kind, level: str, players: int, seed: int) -> tuple[dict, list]:
    """A game of `level` at every seat: (its setup, its move log)."""
    engine, bots = kind.engine, kind.bots
    state = engine.new_game(players, seed=seed, variant=kind.default_variant, options={})
    setup = engine.setup_of(state)
    memories = [bots.new_memory(seat, players) for seat in range(players)]
    rng, moves = random.Random(seed), []
    while seats := engine.to_act(state):
        for seat, memory in enumerate(memories):
            events = engine.events_for(state, seat)
            bots.observe(memory, {"version": len(moves), "events": events})
        seat = seats[0]
        action = bots.choose(level, engine.view(state, seat), memories[seat], rng)
        moves.append((seat, action))
        state = engine.apply_action(state, seat, action)
    return setup, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="biblios")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--rounds", type=int, help="sampled worlds per decision (the game's own)")
    parser.add_argument("--seed", type=int, default=0, help="deal seed of the first game")
    parser.add_argument("--level", help="the bot level playing every seat (the stand-in's)")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "biblios_site.settings_test")
    import django

    django.setup()
    from games.analysis.review import review_game
    from games.kinds import registry

    kind = registry.get(args.game)
    level = args.level or kind.stand_in
    rounds = args.rounds or kind.review.worlds_for(args.players)
    worlds = []  # the worlds each call of the reviewer's `results` sampled

    def counted(*call, **options):
        found = results(*call, **options)
        worlds.append(len(found[0]))
        return found

    results = kind.review.results
    kind = dataclasses.replace(kind, review=dataclasses.replace(kind.review, results=counted))
    seconds, graded, losses, grades, same, flips = [], [], [], Counter(), [], Counter()
    decided = 0  # decisions graded over both reviews of every game
    for game in range(args.games):
        setup, moves = play(kind, level, args.players, args.seed + game)
        reviews = []
        for sampling in ("first", "second"):
            start = time.process_time()
            reviews.append(
                review_game(kind, setup, moves, args.players, rounds=rounds, seed=sampling)
            )
            seconds.append(time.process_time() - start)
        first, second = (review.decisions for review in reviews)
        graded.append(len(first))
        decided += len(first) + len(second)
        losses += [decision.loss for decision in first]
        grades.update(decision.grade for decision in first)
        same += [a.grade == b.grade for a, b in zip(first, second, strict=True)]
        flips.update(
            f"{a.grade}/{b.grade}" for a, b in zip(first, second, strict=True) if a.grade != b.grade
        )
    losses.sort()
    spread = {q: losses[min(int(q * len(losses)), len(losses) - 1)] for q in (0.5, 0.75, 0.9, 0.95)}
    print(
        f"{kind.name}, {args.players} players, {args.games} games of {kind.stand_in}, "
        f"{rounds} worlds per decision; measure: {kind.review.measure}, "
        f"thresholds {kind.review.thresholds}"
    )
    print(
        f"CPU per review: median {statistics.median(seconds):.1f} s, largest {max(seconds):.1f} s;"
        f" decisions graded per game: {statistics.mean(graded):.0f};"
        f" worlds per decision: mean {sum(worlds) / max(decided, 1):.1f}"
    )
    print("loss percentiles: " + ", ".join(f"p{round(q * 100)} {v:.3f}" for q, v in spread.items()))
    print("grades: " + ", ".join(f"{grade} {grades[grade]}" for grade in sorted(grades)))
    print(f"stability: {sum(same) / len(same):.1%} of {len(same)} decisions graded alike")
    print("graded apart: " + ", ".join(f"{pair} {n}" for pair, n in flips.most_common()))


if __name__ == "__main__":
    main()
