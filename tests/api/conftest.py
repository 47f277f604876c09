"""Players with API tokens, and a client that talks to the board API as one of them."""

import json

import pytest
from django.test import Client

from accounts.models import ApiToken
from games.models import Game


class ApiClient:
    """Calls the API with one bearer token; every answer is checked to be JSON."""

    def __init__(self, token: str | None, user=None):
        self.client = Client()
        self.token = token
        self.user = user

    def headers(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    def get(self, path: str, params=None, **headers):
        response = self.client.get(path, params or {}, headers={**self.headers(), **headers})
        return self.checked(response)

    def post(self, path: str, body=None, *, raw=None, content_type="application/json", **headers):
        """POST `body` as JSON, or `raw` (str or bytes) as it is."""
        data = raw if raw is not None else ("" if body is None else json.dumps(body))
        response = self.client.post(
            path, data, content_type=content_type, headers={**self.headers(), **headers}
        )
        return self.checked(response)

    def call(self, method: str, path: str, **headers):
        response = self.client.generic(method, path, headers={**self.headers(), **headers})
        return self.checked(response)

    @staticmethod
    def checked(response):
        assert response["Content-Type"] == "application/json", (
            response.status_code,
            response.content[:300],
        )
        assert response.status_code < 500, response.json()
        response.data = response.json()
        if response.status_code >= 400:
            assert isinstance(response.data["error"], str) and response.data["error"]
        return response


@pytest.fixture
def make_player(django_user_model):
    """make_player(name) -> an ApiClient for a new user with a fresh token."""
    made = []

    def make(name: str | None = None, **fields) -> ApiClient:
        name = name or f"player{len(made)}"
        user = django_user_model.objects.create_user(name, password="x", **fields)
        _, raw = ApiToken.issue(user, "tests")
        made.append(user)
        return ApiClient(raw, user)

    return make


@pytest.fixture
def players(make_player):
    return [make_player(f"player{i}", display_name=f"Player {i}") for i in range(4)]


def new_table(host: ApiClient, **settings) -> dict:
    response = host.post("/api/tables", {"num_players": 2, **settings})
    assert response.status_code == 201, response.data
    return response.data


def started_table(players, num_players: int = 2, **settings) -> int:
    """A table opened by players[0], filled in order and started through the API."""
    table = new_table(players[0], num_players=num_players, **settings)
    for player in players[1:num_players]:
        code = {"invite_code": table["invite_code"]} if settings.get("private") else None
        assert player.post(f"/api/tables/{table['id']}/join", code).status_code == 200
    response = players[0].post(f"/api/tables/{table['id']}/start")
    assert response.status_code == 200, response.data
    assert response.data["status"] == Game.Status.ACTIVE
    return table["id"]


def snapshot(game_id: int) -> tuple:
    """Everything a refused request must leave as it was."""
    game = Game.objects.get(pk=game_id)
    return (
        game.status,
        game.version,
        game.state,
        game.moves.count(),
        list(game.seats.values_list("user_id", "position")),
        Game.objects.count(),
    )
