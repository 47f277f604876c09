"""A turn-based table (12, 24 or 72 hours per move) opened from the lobby's form and the API,
other times refused with a clear message, and its times read in hours."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Game
from games.play import rendering
from tests.api.conftest import new_table
from tests.play import started_game
from tests.turnbased.helpers import browser

pytestmark = pytest.mark.django_db

TURN_BASED = (43200, 86400, 259200)


@pytest.mark.parametrize("seconds", TURN_BASED)
def test_the_form_opens_a_turn_based_table(people, seconds):
    client = browser(people[0])
    response = client.post(
        reverse("table_create"),
        {"num_players": "2", "variant": "biblios", "turn_seconds": str(seconds)},
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.turn_seconds == seconds
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert f"Turn-based: {seconds // 3600} hours per move" in page


def test_the_form_groups_live_and_turn_based_times(people):
    page = browser(people[0]).get(reverse("home")).content.decode()
    menu = re.search(r'<select name="turn_seconds".*?</select>', page, re.S).group(0)
    groups = re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', menu, re.S)
    assert [label for label, _ in groups] == ["Live", "Turn-based"]
    assert re.findall(r'value="(\d+)"', groups[1][1]) == [str(s) for s in TURN_BASED]
    assert "24 hours per move" in groups[1][1] and "30 seconds per move" in groups[0][1]


@pytest.mark.parametrize("seconds", ["3600", "86401", "-86400"])
def test_the_form_refuses_other_times(people, seconds):
    response = browser(people[0]).post(
        reverse("table_create"),
        {"num_players": "2", "variant": "biblios", "turn_seconds": seconds},
    )
    assert response.status_code == 400 and not Game.objects.exists()
    assert f"{seconds} is not one of the available choices" in response.content.decode()


@pytest.mark.parametrize("seconds", TURN_BASED)
def test_the_api_opens_a_turn_based_table(players, seconds):
    assert new_table(players[0], turn_seconds=seconds)["turn_seconds"] == seconds


@pytest.mark.parametrize("seconds", [3600, 7200, 86401, 604800])
def test_the_api_refuses_other_times_and_says_which_are_allowed(players, seconds):
    response = players[0].post("/api/tables", {"num_players": 2, "turn_seconds": seconds})
    assert response.status_code == 400 and not Game.objects.exists()
    error = response.data["error"]
    assert "30, 60 or 180 seconds (live)" in error and "43200, 86400 or 259200 seconds" in error


@pytest.mark.parametrize(
    "seconds, text",
    [
        (86400, "24 h 0 min"),
        (43199, "11 h 59 min"),
        (3600, "1 h 0 min"),
        (3599, "59 min 59 s"),
        (125, "2 min 5 s"),
        (60, "1 min 0 s"),
        (9, "9 s"),
        (0, "0 s"),
    ],
)
def test_the_time_left_reads_in_its_largest_units(seconds, text):
    assert rendering.time_left_text(seconds) == text


def test_the_time_left_reads_in_every_language():
    with translation.override("fr"):
        assert rendering.time_left_text(43199) == "11 h 59 min"
    with translation.override("es"):
        assert rendering.time_left_text(125) == "2 min 5 s"


def test_the_game_page_shows_a_turn_based_clock_in_hours(people):
    game = started_game(people, 2, seed=5, turn_seconds=86400)
    page = browser(people[0]).get(reverse("game", args=[game.pk])).content.decode()
    clock = re.search(r'<p class="turn-clock[^"]*"([^>]*)>(.*?)</p>', page, re.S)
    assert clock, "no turn clock on a turn-based table"
    attributes, text = clock.groups()
    assert 86390 <= int(re.search(r'data-seconds-left="(\d+)"', attributes).group(1)) <= 86400
    assert re.search(r'<span class="seconds-left">(24 h 0|23 h 59) min</span>', text)
    # The script counts down with the same formats as the server (static/js/turn-clock.js).
    assert 'data-hours="%(hours)s h %(minutes)s min"' in attributes
    assert 'data-seconds="%(seconds)s s"' in attributes
