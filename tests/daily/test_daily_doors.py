"""No door shows a daily deal's game to anyone who has not finished their own game of that
deal: not its board, log, chat, sockets, replay, record, review or API while it runs or once it
is over, not even with the table's invite link; once their own game is over, its record and
replay (and only those: it takes no spectators) open to them."""

import random

import pytest
from django.contrib.auth import get_user_model

from games import access
from games.daily import services
from games.models import Game
from tests.access.test_access import Person, api_doors, socket_doors, web_doors
from tests.daily.test_daily_deal import finish
from tests.live.conftest import own_channel_layer  # noqa: F401  (autouse fixture)


def made(name: str):
    return get_user_model().objects.create_user(name, password="x", display_name=name.title())


def record_doors(game: Game, visitor: Person) -> dict:
    return {
        "replay": visitor.browser.get(f"/games/{game.pk}/replay/?as=open").status_code,
        "download": visitor.browser.get(f"/games/{game.pk}/record/").status_code,
        "review": visitor.browser.get(f"/games/{game.pk}/review/").status_code,
        "api analysis": visitor.api.get(f"/api/games/{game.pk}/analysis").status_code,
        **api_doors(game, visitor),
    }


@pytest.mark.django_db(transaction=True)
def test_a_running_daily_game_shows_at_no_door_but_its_players(people_of_a_deal):
    game, outsider, invited, finished = people_of_a_deal
    for who in (outsider, invited, finished):
        doors = {**web_doors(game, who), **api_doors(game, who), **socket_doors(game, who)}
        assert doors == dict.fromkeys(doors, 403), who.user


@pytest.mark.django_db(transaction=True)
def test_a_finished_daily_game_reads_only_to_those_whose_own_game_of_the_deal_is_over(
    people_of_a_deal,
):
    game, outsider, invited, finished = people_of_a_deal
    finish(game, random.Random(8))
    for who in (outsider, invited):
        doors = record_doors(game, who)
        assert doors == dict.fromkeys(doors, 403), who.user
        assert not access.may_read_record(game, access.Visitor.of(game, who.user, invited=True))
    doors = record_doors(game, finished)
    assert doors.pop("api analysis") == 404  # readable, but nobody has asked for its review
    assert doors.pop("api board") == 403  # the live board: it takes no spectators
    assert doors == dict.fromkeys(doors, 200)


@pytest.fixture
def people_of_a_deal():
    """A running daily game, and three people who did not play it: one who never played the
    deal, one holding the table's invite link, one whose own game of the deal is over."""
    host, outsider, invited, finished = (made(name) for name in ("host", "out", "inv", "fin"))
    game = services.play_daily(host, "biblios")
    finish(services.play_daily(finished, "biblios"), random.Random(9))
    return (
        game,
        Person(outsider, game, invited=False),
        Person(invited, game, invited=True),
        Person(finished, game, invited=False),
    )
