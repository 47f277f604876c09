"""What if: from one of their decisions the review found a better move at, a player sees the
bots play the game on from that move, in a world dealt from what they knew, numbered so they can
deal again. Nobody else may ask, and only for a decision of theirs with a better move found."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.analysis.test_learn import reviewed_with_one_blunder
from tests.play import make_users

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model):
    return make_users(django_user_model, "whatif")


def what_if_url(game, move: int) -> str:
    return reverse("game_review_what_if", args=[game.pk, move])


def test_the_player_follows_the_review_to_the_game_played_on_and_deals_again(users):
    game = reviewed_with_one_blunder(users)
    move = game.analysis.result["decisions"][0]["move"]
    me = Client()
    me.force_login(users[0])
    review = me.get(reverse("game_review", args=[game.pk])).content.decode()
    url = what_if_url(game, move)
    assert f'href="{url}"' in review

    page = me.get(url).content.decode()
    assert f"What if? Game {game.pk}, move {move}" in page
    assert "Best found:" in page and "How it ended in world 1" in page
    assert page.count('class="mine"') == 1  # the reader's place, in the branch and the game
    moves = page.count("<li value=")
    assert moves >= 1
    assert f'<li value="{move}">' in page  # the branch begins with the best move found
    assert "?world=2" in page

    again = me.get(url).content.decode()
    branch = page.split('class="review what-if"')[1]
    assert again.split('class="review what-if"')[1] == branch  # one world, one branch
    other = me.get(url, {"world": 2}).content.decode()
    assert "How it ended in world 2" in other and "?world=3" in other
    for junk in ("0", "21", "x"):  # out of range: the first world
        assert "How it ended in world 1" in me.get(url, {"world": junk}).content.decode()


def test_only_the_decisions_player_may_play_it_on_and_only_where_a_better_move_was_found(users):
    game = reviewed_with_one_blunder(users)
    move = game.analysis.result["decisions"][0]["move"]
    url = what_if_url(game, move)
    rival = Client()
    rival.force_login(users[1])  # seat 1: the decision is seat 0's
    assert rival.get(url).status_code == 404
    stranger = Client()
    stranger.force_login(users[3])
    assert stranger.get(url).status_code == 403
    assert Client().get(url).status_code == 403
    me = Client()
    me.force_login(users[0])
    assert me.get(what_if_url(game, move + 1)).status_code == 404  # not a graded decision
    assert me.post(url).status_code == 405
    game.analysis.status = "running"
    game.analysis.save()
    assert me.get(url).status_code == 404
