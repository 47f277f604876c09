"""Ratings change once, in the finishing transaction, for rated games only."""

import random

import pytest
from django.db import IntegrityError, transaction

from games.models import Game, Move
from games.moderation import services
from ratings import elo
from ratings.models import Rating, RatingChange
from ratings.services import rate_game
from tests.games.test_races import submit_together
from tests.passes import half_per_pass
from tests.play import play_to_end, started_game
from tests.ratings.conftest import almost_finished_rated_game, finished_rows, rated


def ratings_of(users, variant="biblios") -> dict:
    rows = Rating.objects.filter(user__in=users, kind="biblios", variant=variant)
    return {row.user.username: (row.rating, row.games) for row in rows.select_related("user")}


@pytest.mark.django_db
# Whole games, one a table size: the two passes of CI share them (tests/passes.py).
@pytest.mark.parametrize("num_players", half_per_pass([2, 3, 4]))
def test_a_rated_game_played_through_the_services_rates_its_players(players, num_players):
    game = rated(started_game(players, num_players, seed=num_players))
    game = play_to_end(game, random.Random(num_players))
    assert game.status == Game.Status.FINISHED

    changes = {change.user_id: change for change in RatingChange.objects.filter(game=game)}
    seats = {seat.user_id: seat for seat in game.seats.all()}
    assert set(changes) == set(seats)
    entrants = [
        elo.Entrant(user_id, elo.START_RATING, seat.place, k=elo.K_PROVISIONAL)
        for user_id, seat in seats.items()
    ]
    expected = elo.rating_changes(entrants)
    for user_id, change in changes.items():
        assert change.place == seats[user_id].place  # R21's places, as record_places copied them
        assert change.before == elo.START_RATING
        assert change.delta == pytest.approx(expected[user_id])
        rating = Rating.objects.get(user_id=user_id, kind=game.kind, variant=game.variant)
        assert rating.rating == change.after
    assert sum(change.delta for change in changes.values()) == pytest.approx(0, abs=1e-9)
    winner = next(seat for seat in seats.values() if seat.won)
    assert changes[winner.user_id].delta > 0 or len({s.place for s in seats.values()}) == 1
    assert set(Rating.objects.values_list("games", flat=True)) == {1}


@pytest.mark.django_db
def test_an_unrated_game_changes_no_rating(players):
    game = started_game(players, 2, seed=5)
    Game.objects.filter(pk=game.pk).update(rated=False)
    play_to_end(game, random.Random(5))
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.django_db
def test_an_aborted_rated_game_changes_no_rating(players, admin_user):
    game, _ = almost_finished_rated_game(players, 2, seed=6)
    services.abort_game(game.pk, admin_user, "players asked")
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.django_db
def test_rating_a_game_again_changes_nothing(players):
    game = rated(started_game(players, 3, seed=7))
    game = play_to_end(game, random.Random(7))
    before = ratings_of(players)
    with transaction.atomic():
        assert rate_game(Game.objects.select_for_update().get(pk=game.pk)) == []
    assert ratings_of(players) == before
    assert RatingChange.objects.filter(game=game).count() == 3


@pytest.mark.django_db
def test_the_database_refuses_a_second_change_for_the_same_game_and_player(players):
    game = finished_rows(players[:2], [1, 2])
    rate_game(game)
    change = RatingChange.objects.filter(game=game).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingChange.objects.create(
            game=game,
            user=change.user,
            kind=game.kind,
            variant=game.variant,
            place=1,
            before=1,
            after=2,
        )


@pytest.mark.django_db
def test_ratings_chain_from_game_to_game_and_turn_established(players):
    ada, basil = players[:2]
    for _ in range(elo.PROVISIONAL_GAMES + 1):
        game = finished_rows([ada, basil], [1, 2])
        with transaction.atomic():
            rate_game(game)
    history = list(RatingChange.objects.filter(user=ada).order_by("pk"))
    assert len(history) == elo.PROVISIONAL_GAMES + 1
    assert all(
        earlier.after == later.before for earlier, later in zip(history, history[1:], strict=False)
    )
    first, last = history[0], history[-1]
    assert first.delta == pytest.approx(elo.K_PROVISIONAL / 2)  # equals: half the K
    expected_last = elo.rating_changes(
        [
            elo.Entrant("ada", last.before, 1, k=elo.K_ESTABLISHED),
            elo.Entrant("basil", 2 * elo.START_RATING - last.before, 2, k=elo.K_ESTABLISHED),
        ]
    )["ada"]
    assert last.delta == pytest.approx(expected_last)
    assert Rating.objects.get(user=ada).games == elo.PROVISIONAL_GAMES + 1


@pytest.mark.django_db
def test_variants_are_rated_apart(players):
    ada, basil = players[:2]
    rate_game(finished_rows([ada, basil], [1, 2], variant="scripts_and_scribes"))
    assert ratings_of([ada, basil]) == {}
    assert ratings_of([ada, basil], "scripts_and_scribes")["ada"][0] > elo.START_RATING
    change = RatingChange.objects.get(user=ada)
    assert (change.kind, change.variant) == ("biblios", "scripts_and_scribes")


@pytest.mark.django_db
def test_a_game_with_bots_is_unrated_unless_chosen(players):
    rate_game(finished_rows([players[0], "novice", "scholar"], [1, 2, 3], rated=False))
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.django_db
def test_bots_in_a_rated_game_count_at_their_fixed_rating_and_are_never_updated(players):
    ada = players[0]
    game = finished_rows([ada, "abbot", "novice"], [2, 1, 3])
    rate_game(game)
    expected = elo.rating_changes(
        [
            elo.Entrant("ada", elo.START_RATING, 2, k=elo.K_PROVISIONAL),
            elo.Entrant("abbot", 1700.0, 1, k=None),  # Biblios' yardsticks (its kind.py)
            elo.Entrant("novice", 1000.0, 3, k=None),
        ]
    )
    assert list(RatingChange.objects.values_list("user_id", flat=True)) == [ada.pk]
    assert Rating.objects.get().rating == pytest.approx(elo.START_RATING + expected["ada"])


@pytest.mark.django_db
def test_a_seat_a_bot_took_over_is_rated_on_its_final_place(players):
    ada, basil = players[:2]
    game = finished_rows([ada, basil], [2, 1])
    game.seats.filter(user=ada).update(bot_level="scholar", abandoned=True)
    rate_game(game)
    assert ratings_of([ada, basil])["ada"][0] < elo.START_RATING
    assert ratings_of([ada, basil])["basil"][0] > elo.START_RATING


@pytest.mark.django_db(transaction=True)
def test_the_finishing_move_sent_twice_at_once_rates_the_game_once(players):
    game, last_move = almost_finished_rated_game(players, 3, seed=11)
    outcomes = submit_together([last_move, last_move])
    assert outcomes.count("applied") == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert Move.objects.filter(game=game).count() == game.version
    assert RatingChange.objects.filter(game=game).count() == 3
    assert set(Rating.objects.values_list("games", flat=True)) == {1}


@pytest.mark.django_db(transaction=True)
def test_two_games_of_the_same_players_finishing_at_once_lose_no_update(players):
    first, first_move = almost_finished_rated_game(players, 3, seed=12)
    second, second_move = almost_finished_rated_game(players, 3, seed=13)
    assert submit_together([first_move, second_move]) == ["applied", "applied"]
    for user in players[:3]:
        history = list(RatingChange.objects.filter(user=user).order_by("pk"))
        assert [change.game_id for change in history] in (
            [first.pk, second.pk],
            [second.pk, first.pk],
        )
        assert history[0].before == elo.START_RATING
        assert history[1].before == history[0].after  # the second game saw the first's result
        rating = Rating.objects.get(user=user)
        assert (rating.rating, rating.games) == (history[1].after, 2)
