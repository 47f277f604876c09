"""The pairwise Elo formula (docs/ratings.md): properties, and one game worked out by hand."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings import elo
from tests.kinds.biblios.engine.helpers import budget

ratings = st.floats(min_value=100, max_value=3000, allow_nan=False)


@st.composite
def tables(draw, *, same_k=True):
    """2–4 entrants with any ratings and any places (shared places included)."""
    n = draw(st.integers(min_value=2, max_value=4))
    k = draw(st.sampled_from([elo.K_ESTABLISHED, elo.K_PROVISIONAL]))
    return [
        elo.Entrant(
            key=seat,
            rating=draw(ratings),
            place=draw(st.integers(min_value=1, max_value=n)),
            k=k if same_k else draw(st.sampled_from([elo.K_ESTABLISHED, elo.K_PROVISIONAL])),
        )
        for seat in range(n)
    ]


def test_a_three_player_game_worked_out_by_hand():
    # 1500 beats 1600 and 1400, 1600 beats 1400; K = 32 shared by 2 duels each, so 16 a duel.
    # E(1500 v 1600) = 1/(1+10^0.25) = 0.359935, E(1500 v 1400) = 0.640065,
    # E(1600 v 1400) = 1/(1+10^-0.5) = 0.759747
    # 1500: 16 × ((1-0.359935) + (1-0.640065)) = 16 × 1.0            = +16.000
    # 1600: 16 × ((0-0.640065) + (1-0.759747)) = 16 × (-0.399812)     =  -6.397
    # 1400: 16 × ((0-0.359935) + (0-0.240253)) = 16 × (-0.600188)     =  -9.603
    table = [
        elo.Entrant("a", 1500, place=1, k=32),
        elo.Entrant("b", 1600, place=2, k=32),
        elo.Entrant("c", 1400, place=3, k=32),
    ]
    changes = elo.rating_changes(table)
    assert changes["a"] == pytest.approx(16.0, abs=1e-3)
    assert changes["b"] == pytest.approx(-6.397, abs=1e-3)
    assert changes["c"] == pytest.approx(-9.603, abs=1e-3)


def test_expected_score_is_the_classic_elo_curve():
    assert elo.expected_score(1500, 1500) == 0.5
    assert elo.expected_score(1900, 1500) == pytest.approx(10 / 11)
    assert elo.expected_score(1500, 1900) == pytest.approx(1 / 11)


def test_duels_are_scored_from_places():
    assert elo.duel_score(1, 2) == 1.0
    assert elo.duel_score(3, 1) == 0.0
    assert elo.duel_score(2, 2) == 0.5


@given(tables())
@budget(200)
def test_people_with_the_same_k_exchange_points_zero_sum(table):
    assert sum(elo.rating_changes(table).values()) == pytest.approx(0, abs=1e-9)


@given(tables(same_k=False), st.randoms(use_true_random=False))
@budget(200)
def test_the_order_of_the_seats_does_not_matter(table, rng):
    shuffled = list(table)
    rng.shuffle(shuffled)
    expected = elo.rating_changes(table)
    assert elo.rating_changes(shuffled) == pytest.approx(expected)


@given(tables(same_k=False))
@budget(200)
def test_swapping_two_players_ratings_and_places_swaps_their_changes(table):
    first, second, *rest = table
    swapped = [
        elo.Entrant(first.key, second.rating, second.place, first.k),
        elo.Entrant(second.key, first.rating, first.place, second.k),
        *rest,
    ]
    before, after = elo.rating_changes(table), elo.rating_changes(swapped)
    # Same K for the two: the changes trade places exactly; otherwise they scale with K.
    assert after[first.key] / first.k == pytest.approx(before[second.key] / second.k)
    assert after[second.key] / second.k == pytest.approx(before[first.key] / first.k)


@given(tables(same_k=False))
@budget(200)
def test_a_sole_winner_gains_and_a_sole_last_loses(table):
    changes = elo.rating_changes(table)
    places = [entrant.place for entrant in table]
    for entrant in table:
        if places.count(entrant.place) > 1:
            continue
        if entrant.place == min(places):
            assert changes[entrant.key] > 0
        if entrant.place == max(places):
            assert changes[entrant.key] < 0


@given(tables(same_k=False))
@budget(200)
def test_no_game_moves_a_rating_by_more_than_k(table):
    for entrant in table:
        assert abs(elo.rating_changes(table)[entrant.key]) < entrant.k


def test_the_expected_outcome_barely_moves_ratings():
    favourite_wins = elo.rating_changes(
        [elo.Entrant("strong", 2300, 1, k=32), elo.Entrant("weak", 1500, 2, k=32)]
    )
    assert 0 < favourite_wins["strong"] < 0.5
    upset = elo.rating_changes(
        [elo.Entrant("strong", 2300, 2, k=32), elo.Entrant("weak", 1500, 1, k=32)]
    )
    assert upset["weak"] > 31


@pytest.mark.parametrize("n", [2, 3, 4])
def test_winning_among_equals_is_worth_one_duel_whatever_the_table_size(n):
    table = [elo.Entrant(seat, 1500, place=seat + 1, k=32) for seat in range(n)]
    assert elo.rating_changes(table)[0] == pytest.approx(32 * 0.5)
    assert elo.rating_changes(table)[n - 1] == pytest.approx(-32 * 0.5)


def test_a_shared_place_between_equals_changes_nothing():
    table = [elo.Entrant(seat, 1620, place=1, k=32) for seat in range(3)]
    assert elo.rating_changes(table) == {0: 0.0, 1: 0.0, 2: 0.0}


def test_bots_count_as_opponents_but_are_never_updated():
    table = [
        elo.Entrant("person", 1500, place=1, k=32),
        elo.Entrant("bot", 1500, place=2, k=None),
    ]
    assert elo.rating_changes(table) == {"person": pytest.approx(16.0)}


def test_newcomers_move_faster_for_their_first_games():
    assert [elo.k_factor(games) for games in range(elo.PROVISIONAL_GAMES + 2)] == [
        elo.K_PROVISIONAL
    ] * elo.PROVISIONAL_GAMES + [elo.K_ESTABLISHED] * 2
    assert elo.K_PROVISIONAL > elo.K_ESTABLISHED


@pytest.mark.parametrize(
    "table",
    [
        [elo.Entrant("alone", 1500, 1, k=32)],
        [elo.Entrant("same", 1500, 1, k=32), elo.Entrant("same", 1500, 2, k=32)],
    ],
)
def test_a_table_that_cannot_be_rated_is_refused(table):
    with pytest.raises(ValueError):
        elo.rating_changes(table)


def test_every_pair_of_a_four_player_table_is_one_duel():
    table = [elo.Entrant(seat, 1400 + 50 * seat, place=4 - seat, k=32) for seat in range(4)]
    changes = elo.rating_changes(table)
    by_hand = {entrant.key: 0.0 for entrant in table}
    for one, other in itertools.permutations(table, 2):
        score = 1.0 if one.place < other.place else 0.0
        by_hand[one.key] += 32 / 3 * (score - elo.expected_score(one.rating, other.rating))
    assert changes == pytest.approx(by_hand)
