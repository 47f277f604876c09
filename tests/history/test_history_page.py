"""The "My games" page and players' game lists: filters, pagination, privacy, query counts."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.history.selectors import PAGE_SIZE
from games.models import Game

from .conftest import bulk_games

pytestmark = pytest.mark.django_db


def listed(response) -> list[int]:
    assert response.status_code == 200, response.content[:500]
    return [int(pk) for pk in re.findall(r'<tr data-game="(\d+)"', response.content.decode())]


def ids(games) -> set[int]:
    return {game.pk for game in games}


def test_lists_my_games_newest_first_with_players_winner_scores_and_length(browser, users):
    old = bulk_games(users[:2], 1, days_ago=3)
    new = bulk_games(users[:2], 1, winner=1)
    bulk_games(users[2:4], 1)  # not mine
    response = browser.get(reverse("my_games"))
    assert listed(response) == [new[0].pk, old[0].pk]
    html = response.content.decode()
    assert "Reader 1 (5 VP)" in html and "<strong>Reader 0</strong> (2 VP)" in html
    assert "Lost (place 2)" in html and "Won" in html
    assert "40 moves, 30 min" in html


def test_filters_by_status_variant_players_opponent_result_and_dates(browser, users):
    won = bulk_games(users[:2], 2)
    lost = bulk_games(users[:2], 2, winner=1)
    three = bulk_games(users[:3], 1)
    scripts = bulk_games(users[:2], 1, variant="scripts_and_scribes")
    running = bulk_games([users[0], users[3]], 1, status=Game.Status.ACTIVE)
    old = bulk_games(users[:2], 1, days_ago=10)
    url = reverse("my_games")

    def found(**query):
        return set(listed(browser.get(url, query)))

    everything = ids(won + lost + three + scripts + running + old)
    assert found() == everything
    assert found(status="active") == ids(running)
    assert found(variant="biblios/scripts_and_scribes") == ids(scripts)
    assert found(players=3) == ids(three)
    assert found(opponent="reader 3") == ids(running)
    assert found(opponent="Reader 2") == ids(three)
    assert found(result="won") == ids(won + three + scripts + old)
    assert found(result="lost") == ids(lost)
    today = timezone.localdate()
    week_ago = today - datetime.timedelta(days=7)
    assert found(date_to=week_ago.isoformat()) == ids(old)
    assert found(date_from=week_ago.isoformat()) == everything - ids(old)
    assert found(result="lost", players=2, variant="biblios/biblios") == ids(lost)


def test_bad_filters_are_refused_with_a_message(browser, users):
    bulk_games(users[:2], 1)
    for query in (
        {"players": "7"},
        {"status": "bogus"},
        {"variant": "biblios"},
        {"variant": "chess/biblios"},
        {"date_from": "yesterday"},
        {"date_from": "2030-01-02", "date_to": "2030-01-01"},
    ):
        response = browser.get(reverse("my_games"), query)
        assert response.status_code == 400, query
        assert "Please correct the filters" in response.content.decode()
        assert 'data-game="' not in response.content.decode()


def test_pagination_keeps_the_filters(browser, users):
    games = bulk_games(users[:2], PAGE_SIZE + 3)
    bulk_games(users[:2], 2, winner=1)
    first = browser.get(reverse("my_games"), {"result": "won"})
    assert len(listed(first)) == PAGE_SIZE
    assert "result=won&amp;page=2" in first.content.decode()
    second = browser.get(reverse("my_games"), {"result": "won", "page": 2})
    assert set(listed(first)) | set(listed(second)) == ids(games)
    assert len(listed(second)) == 3
    # A page past the end shows the last page rather than an error.
    assert listed(browser.get(reverse("my_games"), {"result": "won", "page": 99})) == listed(second)


def test_history_needs_a_login(client):
    response = client.get(reverse("my_games"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_players_list_shows_only_their_finished_public_games(client, browser, users):
    public = bulk_games(users[:2], 2)
    private = bulk_games(users[:2], 1, private=True)
    bulk_games(users[:2], 1, status=Game.Status.ACTIVE)
    url = reverse("player_games", args=[users[1].username])
    assert set(listed(client.get(url))) == ids(public)
    assert set(listed(browser.get(url))) == ids(public)
    own = reverse("player_games", args=[users[0].username])
    assert set(listed(browser.get(own))) >= ids(public + private)
    assert client.get(reverse("player_games", args=["nobody"])).status_code == 404


def test_the_profile_links_to_all_finished_games(client, users):
    bulk_games(users[:2], 1)
    html = client.get(reverse("accounts:profile", args=[users[1].username])).content.decode()
    assert reverse("player_games", args=[users[1].username]) in html


def test_a_thousand_games_render_in_a_fixed_number_of_queries(
    browser, users, django_assert_max_num_queries
):
    bulk_games(users[:4], 500)
    bulk_games(users[:2], 500, winner=1)
    url = reverse("my_games")
    # Session, user, count, page of games, their seats with users; the navigation's "Your
    # turn", unread notifications and friend requests counts.
    with django_assert_max_num_queries(8):
        assert len(listed(browser.get(url))) == PAGE_SIZE
    with django_assert_max_num_queries(8):
        assert len(listed(browser.get(url, {"result": "lost", "page": 20}))) == PAGE_SIZE
    with django_assert_max_num_queries(8):
        assert len(listed(browser.get(url, {"opponent": "reader 3", "page": 20}))) == PAGE_SIZE
