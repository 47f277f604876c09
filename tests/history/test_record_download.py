"""`/games/<id>/record/`: a finished game's record as a file, for a browser's session. The same
record as the API's (`games.history.selectors.game_record`) under the same rule
(`games.access`), linked
from the end board, the replay and the history page; a running game has no link, and the route
says why it refuses."""

import json
import random

import pytest
from django.test import Client

from accounts.models import ApiToken
from tests.api.conftest import ApiClient
from tests.play import play_to_end, started_game

pytestmark = pytest.mark.django_db


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def download(user, game):
    return browser(user).get(f"/games/{game.pk}/record/")


def api_record(user, game, query="") -> dict:
    client = ApiClient(ApiToken.issue(user, "tests")[1], user)
    response = client.get(f"/api/games/{game.pk}/record{query}")
    assert response.status_code == 200, response.data
    return response.data


@pytest.fixture
def finished(users):
    return play_to_end(started_game(users, 2, seed=7, private=True), random.Random(7))


def test_a_player_downloads_the_record_of_their_finished_game(users, finished):
    response = download(users[0], finished)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert (
        response["Content-Disposition"] == f'attachment; filename="biblios-game-{finished.pk}.json"'
    )
    record = json.loads(response.content)
    assert record == api_record(users[0], finished)
    assert record["status"] == "finished" and record["complete"] is False
    assert [move["seq"] for move in record["moves"]] == list(range(1, finished.version + 1))


def test_a_stranger_at_a_private_table_is_refused_and_an_invite_holder_is_not(users, finished):
    for stranger in (users[3], None):
        response = download(stranger, finished)
        assert response.status_code == 403
        assert "This table is private: use its invite link." in response.content.decode()
        assert "attachment" not in response.get("Content-Disposition", "")
    holder = browser(users[3])
    holder.get(f"/join/{finished.invite_code}/")
    response = holder.get(f"/games/{finished.pk}/record/")
    assert response.status_code == 200
    invite = f"?invite={finished.invite_code}"
    assert json.loads(response.content) == api_record(users[3], finished, invite)


def test_a_running_game_has_no_link_and_the_route_says_why(users):
    game = started_game(users, 2)
    player = browser(users[0])
    assert f"/games/{game.pk}/record/" not in player.get(f"/games/{game.pk}/").content.decode()
    response = player.get(f"/games/{game.pk}/record/")
    assert response.status_code == 409
    text = response.content.decode()
    assert "The record of a game can be downloaded once the game is over." in text
    french = Client(headers={"Accept-Language": "fr"})
    french.force_login(users[1])
    refused = french.get(f"/games/{game.pk}/record/").content.decode()
    assert "La partie pourra être téléchargée une fois terminée." in refused
    # A stranger where spectators are not allowed learns nothing more than the rule.
    closed = started_game(users[2:], 2, spectators_allowed=False)
    response = download(users[0], closed)
    assert response.status_code == 403 and "does not allow spectators" in response.content.decode()
    assert download(users[0], game).status_code == 409


def test_unknown_games_and_posts_are_refused(users, finished):
    assert download(users[0], type("Missing", (), {"pk": 999999})()).status_code == 404
    assert browser(users[0]).post(f"/games/{finished.pk}/record/").status_code == 405


def test_the_end_board_the_replay_and_the_history_link_to_the_download(users, finished):
    link = f'href="/games/{finished.pk}/record/" download'
    player = browser(users[1])
    for page in (f"/games/{finished.pk}/", f"/games/{finished.pk}/replay/", "/history/"):
        html = player.get(page).content.decode()
        assert html.count(link) == 1, page
        assert "Download the record" in html
