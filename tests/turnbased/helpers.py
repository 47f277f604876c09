"""Checks shared by the turn-based tests: the "Your turn" list against the engine itself."""

import re

from django.test import Client
from django.urls import reverse

from games.kinds import registry
from games.models import Game
from games.play import selectors


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def waiting_on(game: Game) -> set:
    """The users the engine waits on in `game` who play their seat themselves."""
    game.refresh_from_db()
    if game.status != Game.Status.ACTIVE:
        return set()
    to_act = registry.of(game).engine.to_act(game.engine_state())
    seats = game.seats.select_related("user").filter(position__in=to_act, bot_level="")
    return {seat.user for seat in seats if seat.user_id}


def assert_lists_follow_the_engine(game: Game, others=()) -> None:
    """Each player's list and count hold `game` exactly when the engine waits on them; the
    `others` (spectators, strangers) have none."""
    waiting = waiting_on(game)
    for seat in game.seats.select_related("user").exclude(user=None):
        expected = [game.pk] if seat.user in waiting else []
        assert [g.pk for g in selectors.your_turn_games(seat.user)] == expected, seat
        assert selectors.your_turn_count(seat.user) == len(expected), seat
    for user in others:
        assert selectors.your_turn_games(user) == [] and selectors.your_turn_count(user) == 0


NAV_LINK = re.compile(
    r'class="your-turn-link">Your turn <span id="nav-turns"(?: class="nav-count")?>(\d*)</span></a>'
)


def nav_count(user) -> int:
    """The count the navigation shows `user` beside "Your turn" (0: none shown)."""
    page = browser(user).get(reverse("rules")).content.decode()
    link = NAV_LINK.search(page)
    assert link, "no Your turn link in the navigation"
    return int(link.group(1) or 0)
