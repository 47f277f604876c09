"""The review page of a finished game: linked from the end board and the replay, asked for by a
plain POST or htmx, following its progress while it waits or runs, then each seat's accuracy
and the reader's own decisions in the game log's words, in the three languages."""

import random

import pytest
from django.test import Client
from django.urls import reverse

from games.analysis import worker
from games.models import Analysis
from tests.play import make_users, play_to_end, started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick(settings):
    settings.ANALYSIS_ROUNDS = 2


@pytest.fixture
def users(django_user_model):
    return make_users(django_user_model, "reader")


def browser(user=None, language="en") -> Client:
    client = Client(headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    return client


def test_a_player_asks_follows_and_reads_the_review_of_the_game_they_played(users):
    game = play_to_end(started_game(users, 2, seed=51), random.Random(51))
    url = reverse("game_review", args=[game.pk])
    me = browser(users[0])
    assert url in me.get(reverse("game", args=[game.pk])).content.decode()  # the end board
    assert url in me.get(reverse("game_replay", args=[game.pk])).content.decode()
    page = me.get(url).content.decode()
    assert "Ask for the review" in page and not Analysis.objects.exists()

    assert me.post(url).status_code == 302  # a plain POST comes back to the page
    waiting = me.get(url).content.decode()
    assert "Waiting its turn: number 1 in the queue." in waiting
    assert f'ws-connect="/ws/games/{game.pk}/review/"' in waiting  # pushed as it moves on

    worker.drain()
    done = me.get(url).content.decode()
    analysis = Analysis.objects.get(game=game)
    assert "Accuracy" in done and "Reader 0" in done and "Reader 1" in done
    assert "Where you lost points, the costliest first" in done
    lost = ("inaccuracy", "mistake", "blunder")
    mine = [d for d in analysis.result["decisions"] if d["seat"] == 0 and d["grade"] in lost]
    assert mine, "a random player lost nothing: the list went untested"
    assert done.count('<li class="grade-') == len(mine)
    assert done.count("You played:") == len(mine)
    assert done.count("Best found:") == sum(d["best"] != d["action"] for d in mine)
    # The chart: a line per player, the reader's drawn apart, every costly decision marked.
    assert done.count('<polyline points="') == 2 and done.count('class="review-line mine"') == 2
    every_lost = [d for d in analysis.result["decisions"] if d["grade"] in lost]
    assert done.count('<circle cx="') == len(every_lost)

    for language, words in (("fr", "place attendue"), ("es", "puesto esperado")):
        page = browser(users[0], language).get(url).content.decode()
        assert words in page and "expected place" not in page


def test_htmx_gets_the_region_and_a_refusal_says_why_and_changes_nothing(users):
    game = play_to_end(started_game(users, 2, seed=52), random.Random(52))
    url = reverse("game_review", args=[game.pk])
    anonymous = browser().get(url).content.decode()
    assert (
        "Log in to ask for the review." in anonymous
        and "<form" not in anonymous.split("review")[-1]
    )
    answer = browser(users[1]).post(url, headers={"hx-request": "true"})
    region = answer.content.decode()
    assert region.strip().startswith('<div id="review"') and "<html" not in region
    assert "Waiting its turn" in region

    running = started_game(users[2:], 2, seed=53)
    refused = browser(users[2]).post(reverse("game_review", args=[running.pk]), follow=True)
    assert "A game can be reviewed once it is finished." in refused.content.decode()
    assert "Only a finished game can be reviewed." in refused.content.decode()
    assert Analysis.objects.count() == 1


def test_a_private_games_review_is_closed_to_strangers(users):
    game = play_to_end(started_game(users, 2, seed=54, private=True), random.Random(54))
    url = reverse("game_review", args=[game.pk])
    assert browser(users[3]).get(url).status_code == 403
    assert browser(users[3]).post(url).status_code in (302, 403)
    assert not Analysis.objects.exists()
