"""How the Abbot's sampled worlds see the other seats' hands, next to the true hands.

    python -m games.kinds.biblios.bench.hands --deals D [--players 4] [--choices 3 8]
        [--samples 20] [--seed K]

The Abbot judges its moves in worlds dealt from what its seat knows (`determinise`): each card
another seat took unseen is that seat's favourite of `choice` unknown cards (`abbot.KEEP_CHOICE`).
If those hands come out weaker than real ones, the search believes it leads category races it
does not. Greedy games of Scholars give auction-phase positions; at each, for the seat to act and
every other seat, the category totals of the true hand are compared with their mean over
`--samples` sampled worlds, category by category in the order of what the seat has seen that other
seat take (rank 0: its strongest known category), and so is their Gold (what bids can pay).
Prints, per choice, the mean true minus sampled total at each rank and of Gold: positive where
sampled hands are short.
"""

import argparse
import copy
import random

from games.kinds.biblios.bench.style import play_game
from games.kinds.biblios.bots.abbot import ABBOT_STYLES
from games.kinds.biblios.bots.determinise import determinise
from games.kinds.biblios.bots.memory import Knowledge
from games.kinds.biblios.bots.valuation import SCHOLAR, hand_totals, outlook_from_view
from games.kinds.biblios.engine.cards import CATEGORIES

EVERY = 7  # one auction-phase position in this many versions


def positions(players: int, seed: int) -> list[tuple]:
    """(true state, view, memory) of the seat to act, at auction-phase positions of one game."""
    found = []

    def watch(state, seat, view, memory):
        if view["phase"] == "auction" and view["version"] % EVERY == 0:
            found.append((state, view, copy.deepcopy(memory)))

    play_game([SCHOLAR] * players, seed, watch)
    return found


def bias(players: int, deals: int, choices, samples: int, seed: int) -> tuple[dict, int]:
    """Per choice, the mean true minus sampled totals of another seat's hand: `ranks`, of each
    category by its rank in what the seat saw it take, and `gold`; and how many hands that
    mean is over."""
    sums = {choice: [0.0] * len(CATEGORIES) for choice in choices}
    gold = {choice: 0.0 for choice in choices}
    hands = 0
    for deal in range(deals):
        for state, view, memory in positions(players, seed + deal):
            me = view["seat"]
            knowledge = Knowledge(view, memory)
            outlook = outlook_from_view(view, knowledge, ABBOT_STYLES[players])
            for choice in choices:
                rng = random.Random(f"{seed + deal}/{view['version']}/{choice}")
                worlds = [
                    determinise(view, memory, rng, outlook.want, choice) for _ in range(samples)
                ]
                for other in range(players):
                    if other == me:
                        continue
                    known, _ = hand_totals(knowledge.known[other])
                    order = sorted(range(len(CATEGORIES)), key=lambda c: -known[c])
                    true, true_gold = hand_totals(state.hands[other])
                    sampled = [hand_totals(world.hands[other]) for world in worlds]
                    for rank, c in enumerate(order):
                        mean = sum(totals[c] for totals, _ in sampled) / samples
                        sums[choice][rank] += true[c] - mean
                    gold[choice] += true_gold - sum(g for _, g in sampled) / samples
            hands += players - 1
    count = max(hands, 1)
    return {
        choice: {"ranks": [total / count for total in sums[choice]], "gold": gold[choice] / count}
        for choice in choices
    }, hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, required=True)
    parser.add_argument("--players", type=int, default=4, choices=[2, 3, 4])
    parser.add_argument("--choices", type=int, nargs="+", default=[3, 8])
    parser.add_argument("--samples", type=int, default=20, help="sampled worlds per position")
    parser.add_argument("--seed", type=int, default=600000, help="seed of the first deal")
    args = parser.parse_args()
    by_choice, hands = bias(args.players, args.deals, args.choices, args.samples, args.seed)
    print(
        f"{args.players} players, {hands} hands of other seats from {args.deals} deals: true"
        " minus sampled category total, by the category's rank in what the seat saw it take"
        " (0: strongest), and of Gold"
    )
    for choice, row in by_choice.items():
        ranks = "  ".join(f"{value:+.2f}" for value in row["ranks"])
        print(f"  best of {choice}: {ranks}   Gold {row['gold']:+.2f}")


if __name__ == "__main__":
    main()
