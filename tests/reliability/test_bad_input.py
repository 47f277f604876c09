"""Input that once answered 500 (issue 15): Unicode digits and huge numbers in form fields, NUL
bytes that PostgreSQL refuses in text, and junk bot levels that the API made open seats of.

Each is answered with a clear 4xx and changes nothing, on SQLite and on PostgreSQL (the test
client re-raises any server error, so a 500 fails the test with its traceback).
"""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from biblios_site import errors
from games import services
from games.models import ChatMessage, Game, Report
from tests.api.conftest import snapshot
from tests.play import make_users, started_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# '²' passes str.isdigit() but int() refuses it; 5000 digits pass both checks but int() refuses
# more than 4300; 2**64 fits no database integer column.
BAD_NUMBERS = ["²", "9" * 5000, str(2**64)]
NUMBER_IDS = ["superscript-two", "5000-digits", "2**64"]


@pytest.fixture
def users(django_user_model):
    return make_users(django_user_model, "monk", 5)


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("version", BAD_NUMBERS, ids=NUMBER_IDS)
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_an_unreadable_board_version_is_refused(users, version, htmx):
    game = started_game(users, 2, seed=3)
    before = snapshot(game.pk)
    for client in (browser(), browser(users[0]), browser(users[1])):
        data = {"version": version, "type": "place", "to": "self"}
        answer = client.post(f"/games/{game.pk}/act/", data, **(HTMX if htmx else {}))
        assert answer.status_code in ((400, 403) if htmx else (302,)), answer.status_code
    assert snapshot(game.pk) == before


@pytest.mark.parametrize("amount", BAD_NUMBERS[:2], ids=NUMBER_IDS[:2])
def test_an_unreadable_bid_is_refused(users, amount):
    game = started_game(users, 2, seed=3)
    before = snapshot(game.pk)
    data = {"version": "0", "type": "bid", "amount": amount}
    for user in users[:2]:
        answer = browser(user).post(f"/games/{game.pk}/act/", data, **HTMX)
        assert answer.status_code == 400, answer.status_code
    assert snapshot(game.pk) == before


@pytest.mark.parametrize("user_id", BAD_NUMBERS, ids=NUMBER_IDS)
def test_removing_an_unreadable_player_id_is_refused(users, user_id):
    table = services.create_table(users[0], services.TableSettings(3))
    services.join_table(table.pk, users[1])
    before = snapshot(table.pk)
    answer = browser(users[0]).post(f"/games/{table.pk}/remove/", {"user": user_id}, follow=True)
    assert answer.status_code == 200
    assert "choose a player to remove" in answer.content.decode().lower()
    assert snapshot(table.pk) == before


def test_nul_bytes_in_chat_and_reports_are_refused(users):
    game = started_game(users, 2)
    ChatMessage.objects.create(
        game=game, user=users[1], channel="players", text="hello", move_number=0
    )
    message = ChatMessage.objects.get()
    client = browser(users[0])
    said = client.post(reverse("game_chat", args=[game.pk]), {"text": "a\x00b"}, **HTMX)
    assert said.status_code == 400 and "null characters" in said.content.decode().lower()
    for target in ({"message": message.pk}, {"user": users[1].pk}):
        answer = client.post(
            reverse("game_report", args=[game.pk]), {"reason": "rude\x00", **target}, **HTMX
        )
        assert answer.status_code == 400 and "null characters" in answer.content.decode().lower()
    assert ChatMessage.objects.count() == 1 and Report.objects.count() == 0


@pytest.mark.parametrize(
    "path",
    [
        "/join/%00/",
        "/join/a%00b/",
        "/accounts/u/%00/",
        "/accounts/u/monk0%00/",
        "/players/%00/games/",
        "/players/monk0%00/games/",
        "/rules/%00/",
    ],
)
def test_a_nul_byte_in_a_url_is_a_404(users, path):
    for client in (browser(), browser(users[0])):
        assert client.get(path).status_code == 404, path
        assert client.post(path).status_code in (404, 405), path


@pytest.mark.parametrize("entry", [{}, [], 0, False, "", 1, "Novice", "x" * 40])
def test_the_api_refuses_junk_bot_levels(users, entry):
    client = Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(users[0])[1]}")
    answer = client.post(
        "/api/tables", {"num_players": 2, "bots": [entry]}, content_type="application/json"
    )
    assert answer.status_code == 400, answer.json()
    assert "bots[0]" in answer.json()["error"]
    assert not Game.objects.exists()


def test_the_api_still_takes_bot_levels_and_open_seats(users):
    client = Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(users[0])[1]}")
    answer = client.post(
        "/api/tables",
        {"num_players": 4, "bots": ["novice", None, "abbot"]},
        content_type="application/json",
    )
    assert answer.status_code == 201, answer.json()
    assert [seat["bot"] for seat in answer.json()["seats"]] == [None, "novice", "abbot"]


@pytest.mark.parametrize("entry", [{}, [], 0, False])
def test_the_service_refuses_junk_bot_levels_from_any_edge(users, entry):
    with pytest.raises(errors.ServiceError, match="bot level"):
        services.create_table(users[0], services.TableSettings(2, bots=(entry,)))
    assert not Game.objects.exists()


@pytest.mark.parametrize("move", BAD_NUMBERS, ids=NUMBER_IDS)
def test_the_replay_and_the_inspector_refuse_an_unreadable_move(users, django_user_model, move):
    game = started_game(users, 2, seed=3)
    moderator = django_user_model.objects.create_superuser("abbot", password="x")
    replay = browser(moderator).get(f"/games/{game.pk}/replay/", {"move": move})
    assert replay.status_code == 400
    inspector = reverse("admin:games_game_inspect", args=[game.pk])
    assert browser(moderator).get(inspector, {"move": move}).status_code == 200
