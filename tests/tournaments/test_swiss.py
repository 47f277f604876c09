"""The Swiss pairing of tables of 2 to 4 (`games.tournaments.swiss`): every player seated once
or resting, byes to the lowest who have had fewest, never a repeat pair when a seating without
one exists, the leaders together, and the standings' points by place and tie-breaks."""

import random
from itertools import combinations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.tournaments import swiss


def pairs(table) -> set:
    return {frozenset(pair) for pair in combinations(table, 2)}


def random_history(rng: random.Random, players: list, table_size: int) -> tuple[set, dict]:
    met = set()
    for _ in range(rng.randrange(4)):
        shuffled = rng.sample(players, len(players))
        for start in range(0, len(shuffled) - 1, table_size):
            met |= pairs(shuffled[start : start + table_size])
    byes = {player: rng.choice([0, 0, 0, 1]) for player in players}
    return met, byes


@settings(max_examples=60, deadline=None)
@example(count=3, table_size=2, bots_allowed=False, seed=0)  # the leader rests this round
@given(
    count=st.integers(min_value=2, max_value=30),
    table_size=st.integers(min_value=2, max_value=4),
    bots_allowed=st.booleans(),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_every_player_sits_once_or_rests_and_byes_go_to_the_fewest_then_the_lowest(
    count, table_size, bots_allowed, seed
):
    rng = random.Random(seed)
    ranked = rng.sample(range(100), count)
    met, byes = random_history(rng, ranked, table_size)
    if count < table_size and not bots_allowed:
        with pytest.raises(ValueError, match="too few players"):
            swiss.pair_round(ranked, table_size, met, byes, bots_allowed=False, seed=seed)
        return
    found = swiss.pair_round(ranked, table_size, met, byes, bots_allowed=bots_allowed, seed=seed)
    seated = [player for table in found.tables for player in table]
    assert sorted(seated + found.byes) == sorted(ranked)
    assert all(
        len(table) + bots == table_size
        for table, bots in zip(found.tables, found.bots, strict=True)
    )
    if bots_allowed:
        assert found.byes == [] and sum(found.bots) < table_size
    else:
        assert len(found.byes) == count % table_size and not any(found.bots)
        rested = {byes[player] for player in found.byes}
        assert all(byes[player] >= max(rested, default=0) for player in seated)
        lowest_first = ranked[::-1]
        for player in found.byes:  # nobody lower with as few byes was passed over
            below = lowest_first[: lowest_first.index(player)]
            assert all(other in found.byes or byes[other] > byes[player] for other in below)
    # The best player seated sits at the first table (the leader may rest: with the fewest byes,
    # a bye can be theirs, e.g. 3 players at tables of 2 when both others have had one).
    best_seated = next(player for player in ranked if player not in found.byes)
    assert best_seated in found.tables[0]


def seatings(players: list, size: int):
    """Every way to split `players` into tables of `size` (brute force, for small fields)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, size - 1):
        left = [player for player in rest if player not in others]
        for more in seatings(left, size):
            yield [[first, *others], *more]


@settings(max_examples=80, deadline=None)
@given(
    table_size=st.integers(min_value=2, max_value=3),
    tables=st.integers(min_value=1, max_value=3),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_no_pair_sits_together_again_when_a_seating_without_one_exists(table_size, tables, seed):
    rng = random.Random(seed)
    ranked = list(range(table_size * tables))
    met, _ = random_history(rng, ranked, table_size)
    possible = any(
        not any(pairs(table) & met for table in seating) for seating in seatings(ranked, table_size)
    )
    found = swiss.pair_round(ranked, table_size, met, {}, bots_allowed=False, seed=seed)
    repeats = sum(len(pairs(table) & met) for table in found.tables)
    if possible:
        assert repeats == 0, (met, found.tables)


def test_round_after_round_a_field_of_eight_at_two_meets_nobody_twice():
    players = list(range(8))
    met, results = set(), []
    rng = random.Random(5)
    for number in range(3):
        ranked = [row.player for row in swiss.standings(players, results)]
        found = swiss.pair_round(ranked, 2, met, {}, bots_allowed=False, seed=number)
        for table in found.tables:
            assert not pairs(table) & met
            met |= pairs(table)
            winner = rng.choice(table)
            results.append({"places": {p: 1 if p == winner else 2 for p in table}, "size": 2})


def test_the_standings_count_points_by_place_share_them_and_break_ties():
    players = [1, 2, 3, 4, 5]
    results = [
        {"places": {1: 1, 2: 2, 3: 3}, "size": 3},
        {"places": {4: 1, 5: 1}, "size": 3},  # a shared first place, at a table with a bot
        {"bye": 3, "size": 3},
    ]
    table = swiss.standings(players, results)
    points = {row.player: row.points for row in table}
    assert points == {1: 2, 2: 1, 3: 2, 4: 2, 5: 2}
    assert {row.player: row.byes for row in table}[3] == 1
    # Equal on points: Buchholz first (1 and 3 sat with 2 and each other), then first places.
    assert [row.player for row in table][:2] == [1, 3]
    assert [row.player for row in table][2:] == [4, 5, 2]  # then registration order


def test_seat_order_is_drawn_not_the_standings_and_the_same_seed_draws_alike():
    ranked = list(range(12))
    draws = {
        tuple(map(tuple, swiss.pair_round(ranked, 4, set(), {}, bots_allowed=False, seed=s).tables))
        for s in range(20)
    }
    assert len(draws) > 1
    again = swiss.pair_round(ranked, 4, set(), {}, bots_allowed=False, seed=3)
    assert again == swiss.pair_round(ranked, 4, set(), {}, bots_allowed=False, seed=3)
    assert [sorted(table) for table in again.tables] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
