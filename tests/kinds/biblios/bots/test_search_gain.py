"""games.kinds.biblios.bench.search_gain: the positions it measures, and its held-out arithmetic."""

import pytest

from games.kinds.biblios.bench import search_gain
from games.kinds.biblios.bots import abbot


def test_positions_are_the_rotated_seats_searched_decisions():
    found = search_gain.positions(players=3, seed=11, rotation=1)
    assert found
    for view, memory in found:
        assert view["seat"] == 1 and memory["seat"] == 1
        assert view["awaiting"]["step"] in abbot.SEARCHED_STEPS
        assert len(view["legal_actions"]) > 1


def test_a_move_better_in_every_world_is_chosen_and_its_gain_measured_on_other_rounds():
    # Candidate 1 wins every world the greedy move loses; candidate 2 changes nothing.
    table = [[(0.0, -2), (1.0, 3), (0.0, -2)] for _ in range(40)]
    assert search_gain.choice(table, list(range(10))) == 1
    mean, _, deviates = search_gain.gain([table], select=10, seed=1)
    assert mean == pytest.approx(1.0)
    assert deviates == 1.0


def test_noise_without_a_real_difference_rarely_moves_the_search_off_the_greedy_move():
    # Candidate 1 wins exactly the same half of the worlds: every paired difference is zero.
    table = [[(float(r % 2), 0), (float(r % 2), 0)] for r in range(40)]
    mean, _, deviates = search_gain.gain([table], select=10, seed=1)
    assert (mean, deviates) == (0.0, 0.0)
    # Here it wins the other half: the choice follows the drawn rounds, the held-out rounds judge.
    table = [[(float(r % 2), 0), (float(1 - r % 2), 0)] for r in range(40)]
    mean, _, deviates = search_gain.gain([table], select=10, seed=1)
    assert 0.0 < deviates < 0.5
    assert mean < 0.0
