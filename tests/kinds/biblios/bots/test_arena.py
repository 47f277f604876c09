"""The arena's arithmetic: Wilson intervals, shared wins, seats rotated over each deal."""

import pytest

from benchmarks import arena


def test_wilson_interval_matches_known_values():
    low, high = arena.wilson(80, 100)
    assert low == pytest.approx(0.7112, abs=1e-4)
    assert high == pytest.approx(0.8666, abs=1e-4)
    assert arena.wilson(0, 10)[0] == pytest.approx(0.0)
    assert arena.wilson(10, 10)[1] == pytest.approx(1.0)


def test_win_shares_add_up_and_every_seat_is_played():
    rows = arena.run(4, ["scholar", "novice"], 3, None, "biblios", seed=5, jobs=1)
    by_level = {row["level"]: row for row in rows}
    assert by_level["novice"]["players"] == 2
    total = sum(row["win_rate"] * row["players"] for row in rows)
    assert total == pytest.approx(1.0)
    assert all(row["decisions"] > 0 and row["ms_per_decision"] > 0 for row in rows)
    assert by_level["scholar"]["ci95"][0] <= by_level["scholar"]["win_rate"]
