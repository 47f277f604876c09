"""Bots, turn timers and leaving through the doors: the table form, the board pages, the API,
and the profile."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.kinds.biblios import engine as biblios
from games.models import Game, Seat
from games.play import services, turns
from tests.api.conftest import new_table
from tests.play import started_game
from tests.turns.helpers import acting_seat

pytestmark = pytest.mark.django_db


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# ----------------------------------------------------------------------------- the form


def test_the_table_form_seats_bots_sets_the_timer_and_leaves_a_seat_open(people):
    response = browser(people[0]).post(
        reverse("table_create"),
        {
            "num_players": "3",
            "variant": "biblios",
            "spectators_allowed": "on",
            "turn_seconds": "60",
            "seat_2": "abbot",
            "seat_3": "",
            "seat_4": "novice",  # beyond a 3-player table: ignored
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.turn_seconds == 60 and game.rated is False  # a bot sits: unrated by default
    seats = list(game.seats.values_list("position", "user_id", "bot_level"))
    assert seats == [(0, people[0].pk, ""), (1, None, "abbot")]
    page = browser(people[0]).get(reverse("game", args=[game.pk])).content.decode()
    assert "Abbot bot" in page and "1 free seat" in page and "Turn time: 60 s" in page
    assert "Remove Abbot bot" not in page  # the host removes people, not bots


def test_the_form_rates_a_bot_game_only_when_ticked_and_refuses_unknown_choices(people):
    client = browser(people[0])
    base = {"num_players": "2", "variant": "biblios", "seat_2": "scholar"}
    client.post(reverse("table_create"), {**base, "rated": "on"})
    assert Game.objects.get().rated is True
    response = client.post(reverse("table_create"), {**base, "seat_2": "wizard"})
    assert response.status_code == 400 and Game.objects.count() == 1
    response = client.post(reverse("table_create"), {**base, "turn_seconds": "45"})
    assert response.status_code == 400 and Game.objects.count() == 1


def test_a_person_alone_starts_against_bots_and_plays_from_the_board(people):
    client = browser(people[0])
    client.post(
        reverse("table_create"),
        {"num_players": "2", "variant": "biblios", "seat_2": "novice", "turn_seconds": "30"},
    )
    game = Game.objects.get()
    assert client.post(reverse("game_start", args=[game.pk])).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.due_at is not None
    while acting_seat(game).bot_level:
        assert turns.play_due() == 1
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    clock = re.search(
        r'class="turn-clock mine" data-deadline="([^"]+)" data-seconds-left="(\d+)"', page
    )
    assert clock, "no countdown on the player's turn"
    assert clock.group(1) == game.due_at.isoformat() and 25 <= int(clock.group(2)) <= 30
    assert "Leave game" in page and "Novice bot" in page


# --------------------------------------------------------------------------- leaving


def test_leave_and_take_back_from_the_board_as_plain_posts_and_with_htmx(people):
    game = started_game(people, 2, seed=8)
    leaver, other = browser(people[1]), browser(people[0])
    response = leaver.post(reverse("game_leave_game", args=[game.pk]))
    assert response.status_code == 302
    assert game.seats.get(user=people[1]).taken_over
    seen_by_other = other.get(reverse("game", args=[game.pk])).content.decode()
    assert "left: Scholar bot plays" in seen_by_other and "who left the game" in seen_by_other
    own = leaver.get(reverse("game", args=[game.pk])).content.decode()
    assert "Take my seat back" in own and "Yes, leave the game" not in own
    response = leaver.post(
        reverse("game_take_back", args=[game.pk]), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200 and response["HX-Redirect"] == reverse(
        "game", args=[game.pk]
    )
    assert not game.seats.get(user=people[1]).taken_over
    # Leaving twice, or as an outsider, changes nothing and says why.
    outsider = browser(people[3]).post(reverse("game_leave_game", args=[game.pk]), follow=True)
    assert "You are not playing in this game." in outsider.content.decode()
    assert not game.seats.filter(abandoned=True).exists()


def test_the_profile_counts_games_left_for_everyone_to_see(people):
    game = started_game(people, 2, seed=8)
    profile = reverse("accounts:profile", args=[people[1].username])
    services.leave_game(game.pk, people[1])
    assert "Games left</dt><dd>1</dd>" in browser(people[2]).get(profile).content.decode()
    assert "Games left</dt><dd>1</dd>" in Client().get(profile).content.decode()
    services.take_seat_back(game.pk, people[1])  # came back: not a game left
    assert "Games left</dt><dd>0</dd>" in Client().get(profile).content.decode()


# ------------------------------------------------------------------------- late moves


def test_a_late_move_from_the_board_is_refused_with_a_clear_message(people):
    game = started_game(people, 2, seed=8, turn_seconds=30)
    Game.objects.filter(pk=game.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    seat = acting_seat(game)
    action = biblios.legal_actions(game.engine_state(), seat.position)[0]
    response = browser(seat.user).post(
        reverse("game_act", args=[game.pk]),
        {"version": "0", **action},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 409
    assert "Your time for this move ran out" in response.content.decode()
    assert not game.moves.exists()


# ------------------------------------------------------------------------------ the API


def test_the_api_opens_tables_with_bots_a_timer_and_the_rating_rule(players):
    table = new_table(players[0], num_players=4, bots=["novice", "abbot", None], turn_seconds=180)
    assert table["turn_seconds"] == 180 and table["rated"] is False
    assert table["seats"] == [
        {"seat": 0, "name": "Player 0", "bot": None, "taken_over": False},
        {"seat": 1, "name": "Novice bot", "bot": "novice", "taken_over": False},
        {"seat": 2, "name": "Abbot bot", "bot": "abbot", "taken_over": False},
    ]
    friendly = new_table(players[1], num_players=2, rated=False)
    assert friendly["rated"] is False and friendly["turn_seconds"] is None
    rated_bots = new_table(players[2], bots=["scholar"], rated=True)
    assert rated_bots["rated"] is True


@pytest.mark.parametrize(
    "body, message",
    [
        ({"bots": ["wizard"]}, "unknown bot level"),
        ({"bots": ["novice", "novice"]}, "seats besides the host's"),
        ({"bots": "scholar"}, "bots must be a JSON array"),
        ({"turn_seconds": 45}, "30, 60 or 180 seconds"),
        ({"turn_seconds": True}, "turn_seconds must be a whole number"),
        ({"bots": [3]}, "unknown bot level"),
    ],
)
def test_the_api_refuses_bad_bot_and_timer_settings(players, body, message):
    response = players[0].post("/api/tables", {"num_players": 2, **body})
    assert response.status_code == 400 and message in response.data["error"]
    assert not Game.objects.exists()


def test_one_person_plays_a_whole_game_against_bots_through_the_api(players):
    me = players[0]
    table = new_table(me, num_players=3, bots=["scholar", "novice"])
    assert table["status"] == Game.Status.ACTIVE, "bots in every other seat: started at once"
    assert me.post(f"/api/tables/{table['id']}/start").status_code == 409
    for _ in range(2000):
        board = me.get(f"/api/games/{table['id']}").data
        if board["status"] != Game.Status.ACTIVE:
            break
        if board["view"]["to_act"] == [0]:
            answer = me.post(
                f"/api/games/{table['id']}/actions",
                {"version": board["version"], "action": board["view"]["legal_actions"][0]},
            )
            assert answer.status_code == 200, answer.data
        else:
            assert turns.play_due() == 1
    assert board["status"] == Game.Status.FINISHED and board["view"]["result"]["winners"]


def test_the_api_leaves_a_running_game_and_takes_the_seat_back(players):
    game = started_game([p.user for p in players], 2, seed=3, turn_seconds=30)
    left = players[1].post(f"/api/games/{game.pk}/leave")
    assert left.status_code == 200
    assert left.data["seats"][1] == {
        "seat": 1,
        "name": "Player 1",
        "bot": "scholar",
        "taken_over": True,
    }
    again = players[1].post(f"/api/games/{game.pk}/leave")
    assert again.status_code == 409 and "already plays your seat" in again.data["error"]
    back = players[1].post(f"/api/games/{game.pk}/take-back")
    assert back.status_code == 200 and back.data["seats"][1]["taken_over"] is False
    outsider = players[3].post(f"/api/games/{game.pk}/take-back")
    assert outsider.status_code == 403
    board = players[0].get(f"/api/games/{game.pk}").data
    acting = Seat.objects.get(game=game, position=board["view"]["to_act"][0])
    assert board["turn_deadline"] == (
        None if acting.bot_level else Game.objects.get().due_at.isoformat()
    )


def test_a_late_move_through_the_api_is_refused(players):
    game = started_game([p.user for p in players], 2, seed=3, turn_seconds=30)
    Game.objects.filter(pk=game.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    seat = biblios.to_act(game.engine_state())[0]
    action = biblios.legal_actions(game.engine_state(), seat)[0]
    answer = players[seat].post(f"/api/games/{game.pk}/actions", {"version": 0, "action": action})
    assert answer.status_code == 409 and "time for this move ran out" in answer.data["error"]
    assert not game.moves.exists()
