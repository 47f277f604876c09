"""Bad action posts: each gets a clear message and the right status, changes nothing, and
never a 500 (the test client re-raises any server error)."""

import pytest

from games.kinds.biblios import engine as biblios
from games.models import Move
from games.tables import services
from tests.play import started_game

from .helpers import action_forms

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(users):
    return started_game(users, 3)


def actor_and_idle(game, users, clients):
    state = game.engine_state()
    seat = biblios.to_act(state)[0]
    by_seat = {s.position: s.user_id for s in game.seats.all()}
    idle = (seat + 1) % 3
    return clients[by_seat[seat]], clients[by_seat[idle]]


def unchanged(game, version):
    game.refresh_from_db()
    return game.version == version and Move.objects.filter(game=game).count() == version


CASES = [
    ({"type": "place", "to": "self"}, 400, "missing the board version"),
    ({"version": "abc", "type": "place", "to": "self"}, 400, "missing the board version"),
    ({"version": "-1", "type": "place", "to": "self"}, 400, "missing the board version"),
    ({"version": "{v}", "type": "dance"}, 400, "Unknown action"),
    ({"version": "{v}"}, 400, "Unknown action"),
    ({"version": "{v}", "type": "place"}, 400, "needs exactly one"),
    ({"version": "{v}", "type": "place", "to": "moon"}, 400, "malformed action"),
    ({"version": "{v}", "type": "bid", "amount": "lots"}, 400, "whole number"),
    ({"version": "{v}", "type": "pick", "card": "monks-A"}, 400, "not possible now"),
    ({"version": "{v}", "type": "use_church", "delta": "1"}, 400, "Choose which dice"),
    ({"version": "{v}", "type": "pay"}, 400, "Choose the Gold cards"),
    ({"version": "0{v}9", "type": "place", "to": "self"}, 409, "board changed"),
]


@pytest.mark.parametrize(("data", "status", "message"), CASES)
def test_malformed_or_illegal_posts_are_refused_with_htmx(
    game, users, clients, data, status, message
):
    actor, _idle = actor_and_idle(game, users, clients)
    version = game.version
    data = {key: value.replace("{v}", str(version)) for key, value in data.items()}
    response = actor.post(f"/games/{game.pk}/act/", data, **HTMX)
    html = response.content.decode()
    assert response.status_code == status
    assert message.lower() in html.lower()
    assert 'id="board"' in html  # the current board comes back with the message
    assert action_forms(html)  # … still offering the real moves
    assert unchanged(game, version)


@pytest.mark.parametrize(("data", "status", "message"), CASES[:4])
def test_malformed_posts_without_javascript_redirect_with_a_message(
    game, users, clients, data, status, message
):
    actor, _idle = actor_and_idle(game, users, clients)
    version = game.version
    data = {key: value.replace("{v}", str(version)) for key, value in data.items()}
    response = actor.post(f"/games/{game.pk}/act/", data)
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    page = actor.get(response["Location"]).content.decode()
    assert message.lower() in page.lower()
    assert unchanged(game, version)


def test_stale_version_shows_the_current_board(game, users, clients):
    actor, _idle = actor_and_idle(game, users, clients)
    forms = action_forms(actor.get(f"/games/{game.pk}/").content.decode())
    actor.post(f"/games/{game.pk}/act/", forms[0].data(), **HTMX)
    game.refresh_from_db()
    response = actor.post(f"/games/{game.pk}/act/", forms[-1].data(), **HTMX)
    assert response.status_code == 409
    html = response.content.decode()
    assert "The board changed" in html
    assert f'data-version="{game.version}"' in html
    assert unchanged(game, 1)


def test_not_my_turn_is_refused(game, users, clients):
    _actor, idle = actor_and_idle(game, users, clients)
    data = {"version": str(game.version), "type": "place", "to": "self"}
    response = idle.post(f"/games/{game.pk}/act/", data, **HTMX)
    assert response.status_code == 400
    assert "turn" in response.content.decode()
    assert unchanged(game, 0)


@pytest.mark.parametrize("who", ["outsider", "anonymous"])
def test_non_players_cannot_act(game, users, clients, who):
    browser = clients[users[4].pk] if who == "outsider" else clients[None]
    data = {"version": str(game.version), "type": "place", "to": "self"}
    response = browser.post(f"/games/{game.pk}/act/", data, **HTMX)
    assert response.status_code == 403
    assert "not playing in this game" in response.content.decode()
    assert unchanged(game, 0)


def test_non_player_at_a_closed_table_gets_only_the_message(users, clients):
    game = started_game(users, 2, private=True, spectators_allowed=False)
    data = {"version": "0", "type": "place", "to": "self"}
    response = clients[users[4].pk].post(f"/games/{game.pk}/act/", data, **HTMX)
    assert response.status_code == 403
    assert 'id="board"' not in response.content.decode()
    assert unchanged(game, 0)


def test_unknown_game_and_get_requests(users, clients):
    browser = clients[users[0].pk]
    response = browser.post("/games/424242/act/", {"version": "0", "type": "pass"}, **HTMX)
    assert response.status_code == 404
    game = started_game(users, 2)
    response = browser.get(f"/games/{game.pk}/act/")
    assert response.status_code == 302
    assert unchanged(game, 0)


def test_acting_before_the_start_is_refused(users, clients):
    game = services.create_table(users[0], services.TableSettings(2))
    data = {"version": "0", "type": "place", "to": "self"}
    response = clients[users[0].pk].post(f"/games/{game.pk}/act/", data, **HTMX)
    assert response.status_code == 409
    assert "waiting for players" in response.content.decode()
