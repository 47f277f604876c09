"""Learn from your mistakes: the player is taken back to each mistake and blunder of theirs,
chooses among the moves the review compared there, and a move within the tolerance of the best
found is accepted; the move they played, or a worse one, is not. Solved ones are counted."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from games.kinds.biblios import engine
from games.models import Analysis
from tests.play import make_users, play_to_end, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model):
    return make_users(django_user_model, "learner")


def reviewed_with_one_blunder(users):
    """A finished game whose review (written here, as the job would) grades one of seat 0's
    decisions with three legal moves a blunder: the move played, the best, and one between."""
    game = play_to_end(started_game(users, 2, seed=61), random.Random(61))
    log = list(game.moves.order_by("seq").values_list("seat", "action"))
    states = list(engine.steps(game.setup, log))
    index = next(
        i
        for i, (seat, action) in enumerate(log)
        if seat == 0 and len(engine.legal_actions(states[i], 0)) >= 3
    )
    made = log[index][1]
    best, between = [a for a in engine.legal_actions(states[index], 0) if a != made][:2]
    decision = {
        "move": index + 1,
        "seat": 0,
        "action": made,
        "best": best,
        "made_result": 2.0,
        "best_result": 1.0,
        "loss": 1.0,
        "error": 0.1,
        "grade": "blunder",
        "alternatives": [
            {"action": made, "result": 2.0},
            {"action": best, "result": 1.0},
            {"action": between, "result": 1.5},
        ],
    }
    result = {"measure": "expected place", "seats": [], "decisions": [decision]}
    Analysis.objects.create(game=game, status=Analysis.Status.DONE, rounds=1, result=result)
    return game


def test_the_player_tries_the_move_they_played_a_worse_one_then_finds_the_best(users):
    game = reviewed_with_one_blunder(users)
    me = Client()
    me.force_login(users[0])
    review = me.get(reverse("game_review", args=[game.pk])).content.decode()
    url = reverse("game_review_learn", args=[game.pk])
    assert url in review and "your 1 mistake or blunder" in review

    page = me.get(url).content.decode()
    assert "0 of 1 solved." in page and "Mistake 1 of 1" in page
    assert page.count('name="choice"') == 3  # every move the review compared

    tried = me.post(url, {"n": 1, "choice": 0}).content.decode()
    assert "That is the move you played." in tried and "0 of 1 solved." in tried
    worse = me.post(url, {"n": 1, "choice": 2}).content.decode()
    assert "Not quite" in worse and "0.50" in worse
    found = me.post(url, {"n": 1, "choice": 1}, headers={"hx-request": "true"}).content.decode()
    assert found.strip().startswith('<div id="learn"')
    assert "Well found" in found and "1 of 1 solved." in found
    assert 'name="choice"' not in found  # solved: on to the next one
    assert "1 of 1 solved." in me.get(url).content.decode()  # kept in the session


def test_bad_choices_are_refused_and_only_the_players_may_learn(users):
    game = reviewed_with_one_blunder(users)
    url = reverse("game_review_learn", args=[game.pk])
    me = Client()
    me.force_login(users[0])
    for junk in ("9", "-1", "x", ""):
        page = me.post(url, {"n": 1, "choice": junk}).content.decode()
        assert "Choose one of the moves shown." in page and "0 of 1 solved." in page
    stranger = Client()
    stranger.force_login(users[3])
    assert stranger.get(url).status_code == 403
    assert Client().get(url).status_code == 403
