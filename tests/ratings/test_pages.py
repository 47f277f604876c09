"""The leaderboard (page and API) and the ratings on profiles."""

import re

import pytest
from django.urls import reverse

from accounts.models import ApiToken
from ratings import elo, selectors
from ratings.models import Rating, RatingChange
from ratings.services import rate_game
from tests.ratings.conftest import finished_rows

pytestmark = pytest.mark.django_db


def board(variant="biblios", **rows):
    """Biblios rating rows written directly: {username: (rating, games)} for users that exist."""
    from accounts.models import User

    for username, (rating, games) in rows.items():
        user = User.objects.get(username=username)
        Rating.objects.create(
            user=user, kind="biblios", variant=variant, rating=rating, games=games
        )


def names_in_order(response) -> list[str]:
    body = response.content.decode()
    table = body[body.index('<table class="tables leaderboard">') :]
    return re.findall(r'href="/accounts/u/([^/]+)/"', table)


def test_the_leaderboard_orders_best_first_and_breaks_ties_deterministically(client, players):
    board(
        ada=(1500.2, 3),  # shows 1500, like basil and clio: more games first, then username
        basil=(1499.9, 7),
        clio=(1500.4, 7),
        dora=(1620.0, 1),
        egon=(1400.0, 12),
    )
    response = client.get(reverse("ratings:leaderboard"), {"kind": "biblios", "variant": "biblios"})
    assert response.status_code == 200
    assert names_in_order(response) == ["dora", "basil", "clio", "ada", "egon"]
    ranks = [row.rank for row in selectors.leaderboard_page("biblios", "biblios", 1).object_list]
    assert ranks == [1, 2, 2, 2, 5]


def test_the_leaderboard_lists_only_players_with_a_rated_game_in_the_variant(client, players):
    board(ada=(1600, 2), basil=(1500, 0))
    board("scripts_and_scribes", clio=(1700, 4))
    players[3].is_active = False  # banned players are left out
    players[3].save()
    board(dora=(1900, 9))
    assert names_in_order(client.get(reverse("ratings:leaderboard"))) == ["ada"]
    response = client.get(reverse("ratings:leaderboard"), {"variant": "scripts_and_scribes"})
    assert names_in_order(response) == ["clio"]
    assert '<strong aria-current="page">Scripts &amp; Scribes</strong>' in response.content.decode()
    assert 'href="?kind=biblios&amp;variant=biblios"' in response.content.decode()


def test_an_empty_leaderboard_says_so(client, players):
    response = client.get(reverse("ratings:leaderboard"))
    assert response.status_code == 200
    assert "Nobody has finished a rated game" in response.content.decode()


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"kind": "chess"}, "Unknown game “chess”: choose one of biblios, exlibris."),
        ({"variant": "chess"}, "Unknown variant “chess” of Biblios: choose one of biblios,"),
    ],
)
def test_an_unknown_game_or_variant_is_refused_with_a_message(client, players, query, message):
    response = client.get(reverse("ratings:leaderboard"), query)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_the_leaderboard_is_paginated_in_a_fixed_number_of_queries(
    client, django_user_model, django_assert_max_num_queries
):
    size = selectors.LEADERBOARD_PAGE_SIZE
    users = django_user_model.objects.bulk_create(
        django_user_model(username=f"scribe{i:03}") for i in range(size + 7)
    )
    Rating.objects.bulk_create(
        Rating(user=user, kind="biblios", variant="biblios", rating=2000 - i, games=1)
        for i, user in enumerate(users)
    )
    url = reverse("ratings:leaderboard")
    with django_assert_max_num_queries(4):
        first = client.get(url, {"kind": "biblios", "variant": "biblios"})
    with django_assert_max_num_queries(4):
        second = client.get(url, {"kind": "biblios", "variant": "biblios", "page": 2})
    assert names_in_order(first) == [f"scribe{i:03}" for i in range(size)]
    assert names_in_order(second) == [f"scribe{i:03}" for i in range(size, size + 7)]
    assert 'rel="next"' in first.content.decode() and 'rel="prev"' in second.content.decode()
    assert "<td>51</td>" in second.content.decode()  # ranks run on across pages
    # A page number out of range or not a number shows a real page, not an error.
    assert client.get(url, {"page": "99"}).status_code == 200
    assert client.get(url, {"page": "x"}).status_code == 200


def test_the_nav_links_to_the_leaderboard(client, players):
    assert reverse("ratings:leaderboard") in client.get(reverse("home")).content.decode()


def api_get(client, user, **params):
    _, raw = ApiToken.issue(user, "test")
    return client.get(
        reverse("ratings:api_leaderboard"), params, HTTP_AUTHORIZATION=f"Bearer {raw}"
    )


def test_the_api_gives_the_same_rows(client, players):
    board(ada=(1550.6, 12), basil=(1550.4, 2))
    answer = api_get(client, players[0], kind="biblios", variant="biblios")
    assert answer.status_code == 200
    assert answer.json() == {
        "kind": "biblios",
        "variant": "biblios",
        "page": 1,
        "pages": 1,
        "count": 2,
        "players": [
            {
                "rank": 1,
                "username": "ada",
                "name": "Ada",
                "rating": 1551,
                "games": 12,
                "provisional": False,
            },
            {
                "rank": 2,
                "username": "basil",
                "name": "Basil",
                "rating": 1550,
                "games": 2,
                "provisional": True,
            },
        ],
    }


def test_the_api_refuses_an_unknown_variant_and_a_missing_token(client, players):
    answer = api_get(client, players[0], variant="chess")
    assert answer.status_code == 400 and "Unknown variant" in answer.json()["error"]
    assert client.get(reverse("ratings:api_leaderboard")).status_code == 401


def test_a_profile_shows_the_rating_and_its_history_chart_to_everyone(client, players):
    ada, basil = players[:2]
    for places in ([1, 2], [2, 1], [1, 2]):
        rate_game(finished_rows([ada, basil], places))
    rating = Rating.objects.get(user=ada)
    client.force_login(basil)  # someone else's profile
    body = client.get(reverse("accounts:profile", args=["ada"])).content.decode()
    assert f"<strong>{rating.rating:.0f}</strong> after 3 rated games" in body
    assert "(provisional)" in body
    chart = body[body.index('<svg class="rating-chart"') : body.index("</svg>")]
    points = re.search(r'<polyline points="([^"]+)"', chart).group(1).split()
    assert len(points) == 4  # the start, then after each of the 3 games
    assert 'role="img"' in chart and "Rating history in Biblios" in chart
    # Ada won, lost, won: the line goes up, down, up (SVG's y grows downwards).
    ys = [float(point.split(",")[1]) for point in points]
    assert ys[1] < ys[0] and ys[2] > ys[1] and ys[3] < ys[2]
    history = RatingChange.objects.filter(user=ada).order_by("-pk")
    assert f"+{history[0].delta:.1f}" in body


def test_a_profile_without_rated_games_says_so(client, players):
    body = client.get(reverse("accounts:profile", args=["clio"])).content.decode()
    assert "Clio has not played a rated game yet." in body
    assert "<svg" not in body


def test_the_chart_fits_its_box_and_keeps_a_readable_scale():
    chart = selectors.history_chart([1500, 1532, 1510, 1561], first_game=0)
    xs = [x for x, _ in chart.dots]
    ys = [y for _, y in chart.dots]
    assert min(xs) == chart.left and max(xs) == chart.right
    assert chart.top <= min(ys) and max(ys) <= chart.bottom
    assert [value for _, value in chart.y_ticks] == [1500, 1550, 1600]
    assert [number for _, number in chart.x_ticks] == [0, 3]
    flat = selectors.history_chart([1500, 1500.5])
    assert [value for _, value in flat.y_ticks] == [1500, 1550, 1600]  # at least 100 wide


def test_a_long_history_charts_the_last_games_only(players):
    ada, basil = players[:2]
    games = selectors.CHART_GAMES + 5
    for _ in range(games):
        rate_game(finished_rows([ada, basil], [1, 2]))
    (entry,) = selectors.profile_ratings(ada)
    assert len(entry.chart.points.split()) == selectors.CHART_GAMES + 1
    assert [number for _, number in entry.chart.x_ticks] == [5, games]
    assert entry.chart.end == round(entry.rating.rating) and entry.rating.games == games
    assert entry.rating.rating > elo.START_RATING


def test_a_profiles_ratings_cost_a_fixed_number_of_queries(players, django_assert_num_queries):
    ada, basil = players[:2]
    rate_game(finished_rows([ada, basil], [1, 2]))
    rate_game(finished_rows([ada, basil], [2, 1], variant="scripts_and_scribes"))
    with django_assert_num_queries(3):  # the ratings, then one history per variant
        few = selectors.profile_ratings(ada)
    for _ in range(20):
        rate_game(finished_rows([ada, basil], [1, 2]))
    with django_assert_num_queries(3):
        many = selectors.profile_ratings(ada)
    assert [entry.rating.games for entry in few] == [1, 1]
    assert [entry.rating.games for entry in many] == [21, 1]


def test_the_admin_shows_ratings_but_cannot_change_them(client, players, admin_user):
    rate_game(finished_rows(players[:2], [1, 2]))
    client.force_login(admin_user)
    changelist = client.get(reverse("admin:ratings_rating_changelist"))
    assert changelist.status_code == 200 and "ada" in changelist.content.decode().lower()
    assert client.get(reverse("admin:ratings_ratingchange_changelist")).status_code == 200
    assert client.get(reverse("admin:ratings_rating_add")).status_code == 403
    rating = Rating.objects.get(user=players[0])
    url = reverse("admin:ratings_rating_change", args=[rating.pk])
    client.post(url, {"rating": "3000", "games": "1"})
    rating.refresh_from_db()
    assert rating.rating < 3000
