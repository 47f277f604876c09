"""The banner at the end of a game names the winner(s) and, to a player, where they finished;
a spectator reads only the winners."""

import random

import pytest
from django.utils import translation

from games.access import Visitor
from games.kinds.biblios import engine as biblios
from games.kinds.biblios import presenter
from games.kinds.biblios.engine import scoring
from games.play import rendering, selectors
from tests.play import play_to_end, seated_users, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_game(users):
    return play_to_end(started_game(users, 3, seed=21), random.Random(5))


def banner_text(game, user) -> str:
    return str(rendering.board_context(game, Visitor.of(game, user))["banner"]["text"])


def banner_of(game, user) -> str:
    with translation.override("en"):
        return banner_text(game, user)


def test_each_player_reads_who_won_and_their_own_place(finished_game, users):
    result = finished_game.result
    names = selectors.seat_names(finished_game)
    (winner,) = result["winners"]  # this seed has one winner
    for seat, user in seated_users(finished_game).items():
        text = banner_of(finished_game, user)
        if seat == winner:
            assert text == "You win!"
        else:
            place = {2: "2nd", 3: "3rd"}[result["players"][seat]["place"]]
            assert text == f"{names[winner]} wins. You finished {place} of 3."


def test_a_spectator_reads_only_the_winners(finished_game, users):
    (winner,) = finished_game.result["winners"]
    names = selectors.seat_names(finished_game)
    assert banner_of(finished_game, users[4]) == f"{names[winner]} wins."


@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_end_banner_is_translated(finished_game, users, language):
    with translation.override(language):
        texts = [banner_text(finished_game, user) for user in seated_users(finished_game).values()]
    assert not any("wins" in text or "You " in text for text in texts), texts


def test_a_shared_win_names_the_others_to_each_winner(finished_game):
    names = ["Ada", "Basil", "Cyril"]
    shared = scoring.score([[], [], []], [3] * 5)  # nobody holds anything: all share the win
    state = finished_game.engine_state()
    with translation.override("en"):
        for seat, expected in [
            (0, "You share the win with Basil, Cyril."),
            (None, "Shared win: Ada, Basil, Cyril."),
        ]:
            view = {**biblios.view(state, seat), "result": shared}
            banner = presenter.view_context(finished_game, view, names)["banner"]
            assert banner["text"] == expected
