"""Input that once answered 500: Unicode digits and huge numbers in form fields, NUL
bytes that PostgreSQL refuses in text, and junk bot levels that the API made open seats of; JSON
nested deeper than Python's recursion limit at every door that reads a JSON body, and what
else the site's one JSON reader (biblios_site.inputs.json_object) refuses.

Each is answered with a clear 4xx and changes nothing, on SQLite and on PostgreSQL (the test
client re-raises any server error, so a 500 fails the test with its traceback).
"""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from biblios_site import errors, inputs
from games.models import ChatMessage, Game, Report
from games.tables import services
from notifications.models import Notification
from tests.api.conftest import snapshot
from tests.play import make_users, started_game
from tests.webpush.push_service import vapid_keys
from webpush.models import PushSubscription

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# '²' passes str.isdigit() but int() refuses it; 5000 digits pass both checks but int() refuses
# more than 4300; 2**64 fits no database integer column.
BAD_NUMBERS = ["²", "9" * 5000, str(2**64)]
NUMBER_IDS = ["superscript-two", "5000-digits", "2**64"]
FCM = "https://fcm.googleapis.com/fcm/send/abc123:APA91b-example"


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


# ------------------------------------------------------------------ JSON doors

# Far deeper than Python's recursion limit: json.loads raises RecursionError on them, once a 500.
DEEP = {
    "arrays": b"[" * 100_000 + b"]" * 100_000,
    "objects": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "in-a-subscription": b'{"endpoint": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    # Small enough for any door's size limit, so that the depth itself is what is refused.
    "arrays-within-the-size-limit": b"[" * 3000 + b"]" * 3000,
    "objects-within-the-size-limit": b'{"a":' * 1000 + b"1" + b"}" * 1000,
    "just-over-the-depth-limit": b'{"a":' * 21 + b"1" + b"}" * 21,
}


@pytest.fixture
def push_on(settings):
    for name, value in vapid_keys().items():
        setattr(settings, name, value)


def stored_subscriptions() -> list:
    return list(PushSubscription.objects.values_list("user_id", "endpoint", "p256dh", "auth"))


@pytest.mark.parametrize("body", DEEP.values(), ids=DEEP.keys())
@pytest.mark.parametrize("door", ["webpush:subscribe", "webpush:unsubscribe"])
def test_deep_json_at_the_push_doors_is_a_400(users, push_on, door, body):
    PushSubscription.objects.create(user=users[0], endpoint=FCM, p256dh="a", auth="b")
    before = stored_subscriptions()
    answer = browser(users[0]).post(reverse(door), body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("The request is")
    assert stored_subscriptions() == before


@pytest.mark.parametrize("body", DEEP.values(), ids=DEEP.keys())
def test_deep_json_at_the_api_doors_is_a_400(users, body):
    game = started_game(users, 2, seed=3)
    services.create_table(users[0], services.TableSettings(2))
    before = (snapshot(game.pk), Game.objects.count(), Notification.objects.count())
    client = Client(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(users[0])[1]}")
    for path in (
        "/api/tables",
        f"/api/games/{game.pk}/actions",
        f"/api/tables/{game.pk}/leave",
        "/api/notifications/read",
    ):
        answer = client.post(path, body, content_type="application/json")
        assert answer.status_code == 400, (path, answer.json())
        assert answer.json()["error"].startswith("The request is"), path
    assert (snapshot(game.pk), Game.objects.count(), Notification.objects.count()) == before


@pytest.mark.parametrize(
    "raw, says",
    [
        (b"", "must be a JSON object"),
        (b"[1, 2]", "must be a JSON object"),
        (b"null", "must be a JSON object"),
        (b'"text"', "must be a JSON object"),
        (b"\xff\xfe{}", "not valid UTF-8"),
        ('{"a": "caf\u00e9"}'.encode("utf-16"), "not valid UTF-8"),
        (b'{"a": 1,}', "not valid JSON (line 1, column 9)"),
        (b'{"a":\n  [1 2]}', "not valid JSON (line 2, column 6)"),
        (b'{"a": NaN}', "number out of range"),
        (b'{"a": -Infinity}', "number out of range"),
        (b'{"a": 1e999}', "number out of range"),
        (b'{"a": ' + b"9" * 5000 + b"}", "number out of range"),
        (b"[" * 100_000 + b"]" * 100_000, "too large"),
        (b"[" * 3000 + b"]" * 3000, "nested too deeply"),
        (b'{"a":' * 21 + b"1" + b"}" * 21, "nested too deeply: at most 20 levels"),
        (b'{"a": "' + b"x" * (64 * 1024) + b'"}', "too large: at most 65536 bytes"),
    ],
)
def test_the_json_reader_says_what_is_wrong(raw, says):
    with pytest.raises(errors.BadRequest, match=re.escape(says)):
        inputs.json_object(raw)


def test_the_json_reader_takes_an_object_as_deep_as_its_limit():
    deep = '{"a":' * inputs.MAX_JSON_DEPTH + "[]" + "}" * inputs.MAX_JSON_DEPTH
    with pytest.raises(errors.BadRequest, match="nested too deeply"):
        inputs.json_object(deep)
    limit = '{"a":' * inputs.MAX_JSON_DEPTH + "1" + "}" * inputs.MAX_JSON_DEPTH
    assert inputs.json_object(limit.encode())["a"]["a"]
    assert inputs.json_object('{"caf\u00e9": [1.5, -2, true, null]}') == {
        "caf\u00e9": [1.5, -2, True, None]
    }


@pytest.mark.parametrize("language, says", [("fr", "trop imbriquée"), ("es", "demasiada")])
def test_the_json_reader_speaks_the_readers_language(users, push_on, language, says):
    answer = browser(users[0]).post(
        reverse("webpush:subscribe"),
        DEEP["arrays-within-the-size-limit"],
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert answer.status_code == 400 and says in answer.json()["error"]
