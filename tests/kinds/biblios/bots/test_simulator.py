"""The plain mutable simulator that `benchmarks.engine` holds the engine against plays the same
game: its uniformly random games are as long as the engine's, so a ratio of their speeds
compares work per action of one game, not two games of different lengths."""

import random
import statistics

import pytest

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.bench import simulator

GAMES = 40


def engine_game_length(players: int, seed: int) -> int:
    """One uniformly random game through the public API, as `benchmarks.engine` plays it."""
    state, chooser, actions = biblios.new_game(players, seed=seed), random.Random(seed), 0
    while seats := biblios.to_act(state):
        seat = chooser.choice(seats)
        state = biblios.apply_action(
            state, seat, chooser.choice(biblios.legal_actions(state, seat))
        )
        actions += 1
    return actions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_simulators_random_games_are_as_long_as_the_engines(players):
    simulated = [simulator.play(players, seed) for seed in range(GAMES)]
    played = [engine_game_length(players, seed) for seed in range(GAMES)]
    assert all(length > 0 for length in simulated)
    # Two samples of one distribution: their means differ by a few standard errors at most.
    spread = statistics.stdev(played + simulated) * (2 / GAMES) ** 0.5
    assert abs(statistics.mean(simulated) - statistics.mean(played)) < 4 * spread, (
        statistics.mean(simulated),
        statistics.mean(played),
    )
