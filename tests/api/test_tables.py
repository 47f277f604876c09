"""Authentication, and opening, listing, joining, starting and leaving tables via the API."""

import pytest

from games.models import Game

from .conftest import ApiClient, new_table, snapshot, started_table

pytestmark = pytest.mark.django_db


# -------------------------------------------------------------------------- authentication


@pytest.mark.parametrize(
    "authorization",
    [None, "", "Bearer", "Bearer ", "Token abc", "Basic dXNlcjpwYXNz", "Bearer not-a-token"],
)
def test_requests_without_a_valid_token_get_401_json(players, authorization):
    anonymous = ApiClient(None)
    headers = {} if authorization is None else {"Authorization": authorization}
    for response in (
        anonymous.get("/api/tables", **headers),
        anonymous.post("/api/tables", {"num_players": 2}, **headers),
        anonymous.get("/api/games/1", **headers),
    ):
        assert response.status_code == 401
        assert response["WWW-Authenticate"].startswith("Bearer")
    assert not Game.objects.exists()


def test_a_banned_users_token_is_refused(make_player):
    player = make_player("banned")
    assert player.get("/api/tables").status_code == 200
    player.user.is_active = False
    player.user.save()
    response = player.post("/api/tables", {"num_players": 2})
    assert response.status_code == 401 and response.data["error"] == "this API token is not valid"
    assert not Game.objects.exists()


def test_a_browser_session_is_not_an_api_login(players):
    """Cookies are ignored, which is what makes the views safe to exempt from CSRF."""
    browser = ApiClient(None)
    browser.client.force_login(players[0].user)
    response = browser.post("/api/tables", {"num_players": 2})
    assert response.status_code == 401
    assert not Game.objects.exists()


def test_the_bearer_scheme_is_case_insensitive(players):
    response = players[0].get("/api/tables", Authorization=f"bearer {players[0].token}")
    assert response.status_code == 200


def test_wrong_methods_and_unknown_paths_answer_in_json(players):
    host = players[0]
    table = new_table(host)
    wrong = host.get(f"/api/tables/{table['id']}/join")
    assert wrong.status_code == 405 and wrong["Allow"] == "POST"
    assert host.call("DELETE", "/api/tables").status_code == 405
    assert host.post(f"/api/games/{table['id']}").status_code == 405
    assert host.get(f"/api/games/{table['id']}/actions").status_code == 405
    for path in ("/api/", "/api/nothing", "/api/tables/", "/api/games/abc", "/api/games/-1"):
        assert host.get(path).status_code == 404, path
    assert host.get("/api/games/" + "9" * 30).status_code == 404
    assert host.post("/api/tables/" + "9" * 30 + "/join").status_code == 404


# ---------------------------------------------------------------------------------- create


def test_create_a_table_with_defaults(players):
    response = players[0].post("/api/tables", {})
    assert response.status_code == 201
    table = response.data
    game = Game.objects.get(pk=table["id"])
    assert table["status"] == "open" and table["num_players"] == 2
    assert (table["kind"], table["variant"]) == ("biblios", "biblios")
    assert table["options"] == {"medieval_bluff": False, "forbid_uncoverable_bids": False}
    assert table["private"] is False and table["spectators_allowed"] is True
    assert table["host"] == "Player 0" and table["seat"] == 0
    assert table["seats"] == [{"seat": 0, "name": "Player 0", "bot": None, "taken_over": False}]
    assert table["turn_seconds"] is None and table["rated"] is True  # people only: rated
    assert table["invite_code"] == game.invite_code
    assert game.host == players[0].user


def test_create_a_table_with_every_option(players):
    table = new_table(
        players[0],
        num_players=4,
        kind="biblios",
        variant="biblios",
        options={"medieval_bluff": True, "forbid_uncoverable_bids": True},
        private=True,
        spectators_allowed=False,
    )
    game = Game.objects.get(pk=table["id"])
    assert game.options == {"medieval_bluff": True, "forbid_uncoverable_bids": True}
    assert game.private and not game.spectators_allowed and game.num_players == 4
    scripts = new_table(players[1], num_players=2, variant="scripts_and_scribes")
    assert (scripts["kind"], scripts["variant"]) == ("biblios", "scripts_and_scribes")
    assert Game.objects.get(pk=scripts["id"]).options == {
        "medieval_bluff": False,
        "forbid_uncoverable_bids": False,
    }


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"num_players": 5}, "2, 3 or 4"),
        ({"num_players": 1}, "2, 3 or 4"),
        ({"num_players": "2"}, "num_players must be a whole number"),
        ({"num_players": 2.0}, "num_players must be a whole number"),
        ({"num_players": True}, "num_players must be a whole number"),
        ({"num_players": None}, "num_players must be a whole number"),
        ({"num_players": 10**30}, "2, 3 or 4"),
        ({"num_players": 2, "kind": "chess"}, "unknown game kind 'chess'"),
        ({"num_players": 2, "kind": 1}, "kind must be a string"),
        ({"num_players": 2, "variant": "chess"}, "unknown variant 'chess' of Biblios"),
        ({"num_players": 2, "variant": None}, "variant must be a string"),
        ({"num_players": 2, "options": []}, "options must be a JSON object"),
        ({"num_players": 2, "private": "yes"}, "private must be true or false"),
        ({"num_players": 2, "private": 1}, "private must be true or false"),
        ({"num_players": 2, "spectators_allowed": None}, "spectators_allowed must be true"),
        ({"num_players": 2, "options": {"medieval_bluff": [True]}}, "medieval_bluff must be true"),
        (
            {"num_players": 2, "options": {"forbid_uncoverable_bids": 0}},
            "forbid_uncoverable_bids must be true or false",
        ),
        ({"num_players": 2, "options": {"colour": True}}, "unknown option(s) colour"),
        ({"num_players": 2, "medieval_bluff": True}, "unknown field(s): medieval_bluff"),
        ({"num_players": 2, "colour": "red"}, "unknown field(s): colour"),
        (
            {
                "num_players": 2,
                "variant": "scripts_and_scribes",
                "options": {"medieval_bluff": True},
            },
            "Medieval bluff is a Biblios option",
        ),
        ([2], "must be a JSON object"),
        ("2", "must be a JSON object"),
        (None, "must be a JSON object"),
    ],
)
def test_create_refuses_bad_settings_with_a_clear_message(players, body, message):
    response = players[0].post("/api/tables", body)
    assert response.status_code == 400
    assert message in response.data["error"]
    assert not Game.objects.exists()


def test_create_refuses_a_body_that_is_not_json(players):
    for raw in ("num_players=2", "{", "{'num_players': 2}", '{"num_players": NaN}', "\xff"):
        response = players[0].post("/api/tables", raw=raw)
        assert response.status_code == 400, raw
    assert not Game.objects.exists()


# ------------------------------------------------------------------------------------ list


def test_list_shows_public_tables_by_status_and_private_ones_only_to_their_players(players):
    host, guest, other, _ = players
    open_public = new_table(host, num_players=3)
    hidden = new_table(host, num_players=3, private=True)
    active = started_table(players, 2)

    seen = other.get("/api/tables").data
    assert seen["status"] == "open"
    assert [t["id"] for t in seen["tables"]] == [open_public["id"]]
    listed = seen["tables"][0]
    assert (
        listed["seats"] == [{"seat": 0, "name": "Player 0", "bot": None, "taken_over": False}]
        and listed["host"] == "Player 0"
    )
    assert listed["seat"] is None and "invite_code" not in listed

    assert {t["id"] for t in host.get("/api/tables").data["tables"]} == {
        open_public["id"],
        hidden["id"],
    }
    assert guest.post(f"/api/tables/{hidden['id']}/join", hidden_code(hidden)).status_code == 200
    guest_view = {t["id"]: t for t in guest.get("/api/tables").data["tables"]}
    assert set(guest_view) == {open_public["id"], hidden["id"]}
    assert guest_view[hidden["id"]]["seat"] == 1 and "invite_code" not in guest_view[hidden["id"]]

    in_progress = other.get("/api/tables", {"status": "active"}).data["tables"]
    assert [t["id"] for t in in_progress] == [active]
    assert other.get("/api/tables", {"status": "finished"}).data["tables"] == []


def test_list_of_open_tables_shows_a_full_one_to_its_players_alone(players):
    """A full table waits for its host to start it: nobody else could join it."""
    host, guest, other, stranger = players
    full = new_table(host, num_players=2)
    assert guest.post(f"/api/tables/{full['id']}/join").status_code == 200
    filling = new_table(guest)

    def listed(player) -> list[int]:
        return [t["id"] for t in player.get("/api/tables").data["tables"]]

    assert listed(other) == [filling["id"]]
    assert other.post(f"/api/tables/{filling['id']}/join").status_code == 200
    assert listed(stranger) == []
    assert listed(host) == [full["id"]]
    assert sorted(listed(guest)) == [full["id"], filling["id"]]
    assert listed(other) == [filling["id"]]


def hidden_code(table: dict) -> dict:
    return {"invite_code": table["invite_code"]}


def test_list_is_capped_by_limit_newest_first(players):
    made = [new_table(players[i % 4])["id"] for i in range(5)]
    listed = players[0].get("/api/tables", {"limit": "3"}).data
    assert listed["limit"] == 3
    assert [t["id"] for t in listed["tables"]] == made[::-1][:3]
    assert len(players[0].get("/api/tables").data["tables"]) == 5


@pytest.mark.parametrize(
    "params",
    [
        {"status": "aborted"},
        {"status": "OPEN"},
        {"status": ""},
        {"limit": "0"},
        {"limit": "101"},
        {"limit": "-1"},
        {"limit": "ten"},
        {"limit": "1e2"},
        {"limit": "²"},
        {"limit": "9" * 5000},
    ],
)
def test_list_refuses_bad_query_parameters(players, params):
    response = players[0].get("/api/tables", params)
    assert response.status_code == 400


# ------------------------------------------------------------------------------------ join


def test_join_takes_the_next_seat_and_refuses_twice_and_when_full(players):
    table = new_table(players[0], num_players=2)
    joined = players[1].post(f"/api/tables/{table['id']}/join")
    assert joined.status_code == 200
    assert joined.data["seat"] == 1 and "invite_code" not in joined.data
    assert joined.data["seats"] == [
        {"seat": 0, "name": "Player 0", "bot": None, "taken_over": False},
        {"seat": 1, "name": "Player 1", "bot": None, "taken_over": False},
    ]
    before = snapshot(table["id"])
    again = players[1].post(f"/api/tables/{table['id']}/join")
    assert again.status_code == 409 and "already seated" in again.data["error"]
    full = players[2].post(f"/api/tables/{table['id']}/join", {})
    assert full.status_code == 409 and "full" in full.data["error"]
    assert snapshot(table["id"]) == before


def test_join_refuses_unknown_tables_bad_bodies_and_started_games(players):
    assert players[1].post("/api/tables/999999/join").status_code == 404
    table = new_table(players[0], num_players=2)
    for body in ([], {"invite_code": 5}, {"seat": 1}):
        assert players[1].post(f"/api/tables/{table['id']}/join", body).status_code == 400, body
    assert Game.objects.get(pk=table["id"]).seats.count() == 1
    game_id = started_table(players, 2)
    late = players[2].post(f"/api/tables/{game_id}/join")
    assert late.status_code == 409 and "already started" in late.data["error"]


def test_a_private_table_is_joined_only_with_its_invite_code(players):
    table = new_table(players[0], num_players=2, private=True)
    url = f"/api/tables/{table['id']}/join"
    for body in (None, {}, {"invite_code": ""}, {"invite_code": "wrong"}):
        response = players[1].post(url, body)
        assert response.status_code == 403 and "private" in response.data["error"]
    assert Game.objects.get(pk=table["id"]).seats.count() == 1
    assert players[1].post(url, hidden_code(table)).status_code == 200


# ----------------------------------------------------------------------------- start, leave


def test_only_the_host_starts_and_only_a_full_table(players):
    table = new_table(players[0], num_players=2)
    url = f"/api/tables/{table['id']}/start"
    not_full = players[0].post(url)
    assert not_full.status_code == 409 and "needs 2 players" in not_full.data["error"]
    players[1].post(f"/api/tables/{table['id']}/join")
    not_host = players[1].post(url)
    assert not_host.status_code == 403 and "only the host" in not_host.data["error"]
    assert Game.objects.get(pk=table["id"]).status == Game.Status.OPEN
    started = players[0].post(url)
    assert started.status_code == 200 and started.data["status"] == "active"
    assert players[0].post(url).status_code == 409
    assert players[0].post("/api/tables/999999/start").status_code == 404


def test_leave_frees_the_seat_and_a_leaving_host_closes_the_table(players):
    table = new_table(players[0], num_players=3)
    url = f"/api/tables/{table['id']}"
    players[1].post(f"{url}/join")
    assert players[2].post(f"{url}/leave").status_code == 409
    left = players[1].post(f"{url}/leave")
    assert left.status_code == 200 and left.data["seat"] is None
    assert left.data["seats"] == [{"seat": 0, "name": "Player 0", "bot": None, "taken_over": False}]
    closed = players[0].post(f"{url}/leave")
    assert closed.status_code == 200 and closed.data["status"] == "aborted"
    assert players[0].get(f"/api/games/{table['id']}").data["view"] is None
