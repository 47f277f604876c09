"""Profiles: a player's record, counted from the games they sat at."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.history import selectors
from games.models import Game
from games.tables import services
from tests.play import play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(django_user_model):
    names = ["Ada", "Basil", "Clio", "Dora"]
    return [
        django_user_model.objects.create_user(name.lower(), password="x", display_name=name)
        for name in names
    ]


def table(players, **settings):
    """A table hosted by players[0] and joined by the rest; a lone host waits at a table for 2."""
    num_players = max(2, len(players))
    game = services.create_table(players[0], services.TableSettings(num_players, **settings))
    for user in players[1:]:
        services.join_table(game.pk, user, invited=True)
    return game


def finish(game, winners):
    """Test setup: mark a started game finished with the given winning seats."""
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
        result={
            "winners": winners,
            "players": [
                {"seat": seat, "place": 1 if seat in winners else 2}
                for seat in range(game.num_players)
            ],
        },
    )


def finished_game(players, winners):
    game = table(players)
    services.start_game(game.pk, players[0])
    finish(game, winners)
    return game


def test_counts_played_and_won_over_finished_games(players, client):
    ada, basil, clio, _ = players
    finished_game([ada, basil], winners=[0])  # Ada (seat 0) wins
    finished_game([ada, basil], winners=[1])  # Basil wins
    finished_game([ada, basil, clio], winners=[0, 2])  # shared win: Ada and Clio
    services.start_game(table([ada, clio]).pk, ada)  # active: not counted
    aborted = table([ada, basil])
    services.leave_table(aborted.pk, ada)  # aborted: not counted

    assert selectors.player_record(ada).games_played == 3
    assert selectors.player_record(ada).games_won == 2
    assert selectors.player_record(basil).games_won == 1
    assert selectors.player_record(clio).games_won == 1

    response = client.get(reverse("accounts:profile", args=["ada"]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<dt>Games played</dt><dd>3</dd>" in html
    assert "<dt>Games won</dt><dd>2</dd>" in html


def test_a_game_played_to_the_end_counts_for_its_winners(players, client):
    game = table(players[:2])
    game = play_to_end(services.start_game(game.pk, players[0]), random.Random(7))
    assert game.status == Game.Status.FINISHED
    for seat in game.seats.all():
        html = client.get(reverse("accounts:profile", args=[seat.user.username])).content.decode()
        won = int(seat.position in game.result["winners"])
        assert "<dt>Games played</dt><dd>1</dd>" in html
        assert f"<dt>Games won</dt><dd>{won}</dd>" in html
        recent = selectors.player_games(seat.user, include_private=False).recent_games
        assert [finished.game.pk for finished in recent] == [game.pk]
        assert f'href="/games/{game.pk}/"' in html


def test_current_games_link_to_their_game_pages(players, client):
    ada, basil, clio, _ = players
    open_table = table([ada])
    active = table([ada, basil])
    services.start_game(active.pk, ada)
    elsewhere = table([basil, clio])
    finished = finished_game([ada, clio], winners=[1])

    games = selectors.player_games(ada, include_private=False)
    current = [game.pk for game in games.current_games]
    assert sorted(current) == sorted([open_table.pk, active.pk])
    html = client.get(reverse("accounts:profile", args=["ada"])).content.decode()
    assert f'href="/games/{open_table.pk}/"' in html
    assert f'href="/games/{active.pk}/"' in html
    assert f'href="/games/{elsewhere.pk}/"' not in html
    assert [(entry.game.pk, entry.won, entry.place) for entry in games.recent_games] == [
        (finished.pk, False, 2)
    ]
    assert f'href="/games/{finished.pk}/"' in html


def test_recent_games_are_the_last_ten_newest_first(players, client):
    ada, basil = players[:2]
    games = [finished_game([ada, basil], winners=[0]) for _ in range(12)]
    assert selectors.player_record(ada).games_played == 12
    recent = selectors.player_games(ada, include_private=False).recent_games
    assert [entry.game.pk for entry in recent] == [game.pk for game in reversed(games[2:])]
    html = client.get(reverse("accounts:profile", args=["ada"])).content.decode()
    assert f'href="/games/{games[2].pk}/"' in html
    assert f'href="/games/{games[1].pk}/"' not in html


def test_private_tables_are_listed_to_their_player_only(players, client):
    ada, basil = players[:2]
    private = table([ada, basil], private=True)
    url = reverse("accounts:profile", args=["ada"])
    assert f"/games/{private.pk}/" not in client.get(url).content.decode()
    client.force_login(basil)
    assert f"/games/{private.pk}/" not in client.get(url).content.decode()
    client.force_login(ada)
    assert f"/games/{private.pk}/" in client.get(url).content.decode()


def test_the_record_costs_a_fixed_number_of_queries(players):
    ada, basil, clio, dora = players

    def queries():
        with CaptureQueriesContext(connection) as captured:
            selectors.player_record(ada)
            games = selectors.player_games(ada, include_private=True)
            for entry in games.recent_games:
                list(entry.game.seats.all())
            for game in games.current_games:
                [seat.user.display_name for seat in game.seats.all()]
        return len(captured)

    finished_game([ada, basil], winners=[0])
    table([ada])
    few = queries()
    for _ in range(3):
        finished_game([ada, basil, clio, dora], winners=[1])
        table([ada, clio])
    assert queries() == few


def test_unknown_user_is_404(client):
    assert client.get(reverse("accounts:profile", args=["nobody"])).status_code == 404


def test_my_profile_redirects_to_mine_or_to_login(players, client):
    response = client.get(reverse("accounts:my_profile"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))
    client.force_login(players[1])
    response = client.get(reverse("accounts:my_profile"))
    assert response.url == reverse("accounts:profile", args=["basil"])


def test_a_player_sets_changes_and_clears_their_e_mail_address(client, players):
    """The address notices go to, on the player's own profile; a bad one is refused
    and changes nothing."""
    ada = players[0]
    client.force_login(ada)
    page = client.get(reverse("accounts:my_profile"), follow=True).content.decode()
    assert 'action="/accounts/email/"' in page
    saved = client.post(reverse("accounts:set_email"), {"email": "ada@example.org"}, follow=True)
    assert "Your e-mail address is saved." in saved.content.decode()
    ada.refresh_from_db()
    assert ada.email == "ada@example.org"
    refused = client.post(reverse("accounts:set_email"), {"email": "not an address"})
    assert refused.status_code == 400 and "Enter a valid email address." in refused.content.decode()
    ada.refresh_from_db()
    assert ada.email == "ada@example.org"
    client.post(reverse("accounts:set_email"), {"email": ""})
    ada.refresh_from_db()
    assert ada.email == ""
    assert client.get(reverse("accounts:set_email")).status_code == 405
