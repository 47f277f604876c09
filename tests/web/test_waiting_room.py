"""What the waiting room says about its table: one true line on who may join, only the options
the table's variant has, and each seat on a line of its own with its marks."""

import re

import pytest

from games.tables import services

pytestmark = pytest.mark.django_db

OPTIONS = re.compile(r'<ul class="table-options">(.*?)</ul>', re.DOTALL)
SEATS = re.compile(r'<ol class="waiting-seats">(.*?)</ol>', re.DOTALL)
TAGS = re.compile(r"<[^>]+>")
WHO_MAY_JOIN = (
    "Open to everyone",
    "Private (invite link only)",
    "Friends of the host only",
    "Private: friends of the host, by invite link only",
)


def table(host, num_players=2, **settings):
    return services.create_table(host, services.TableSettings(num_players, **settings))


def text(html: str) -> str:
    return " ".join(TAGS.sub(" ", html).split())


def option_lines(client, game) -> list[str]:
    """The lines of the table's list of settings, as a reader sees them."""
    page = client.get(f"/games/{game.pk}/").content.decode()
    (options,) = OPTIONS.findall(page)
    return [text(line) for line in re.findall(r"<li>(.*?)</li>", options, re.DOTALL)]


@pytest.mark.parametrize(
    ("private", "friends_only", "line"),
    [
        (False, False, "Open to everyone"),
        (True, False, "Private (invite link only)"),
        (False, True, "Friends of the host only"),
        (True, True, "Private: friends of the host, by invite link only"),
    ],
)
def test_one_line_says_who_may_join(users, clients, private, friends_only, line):
    game = table(users[0], private=private, friends_only=friends_only)
    lines = option_lines(clients[users[0].pk], game)
    assert [said for said in lines if said in WHO_MAY_JOIN] == [line]


def test_a_scripts_and_scribes_table_lists_only_the_options_of_its_edition(users, clients):
    """R15: Medieval bluff is a Biblios option; the original edition's table never lists it, even
    stored off (as every Scripts & Scribes table stores it)."""
    forbid = {"forbid_uncoverable_bids": True}
    scripts = table(users[0], variant="scripts_and_scribes", options=forbid)
    assert scripts.options["medieval_bluff"] is False
    lines = option_lines(clients[users[0].pk], scripts)
    assert "Forbid bids a player cannot cover: on" in lines
    assert not [line for line in lines if "Medieval bluff" in line]
    biblios = table(users[1], variant="biblios")
    assert "Medieval bluff: off" in option_lines(clients[users[1].pk], biblios)


def test_each_seat_is_a_list_item_of_its_own_with_its_marks(users, clients):
    game = table(users[0], 4, bots=(None, "scholar", "novice"))
    services.join_table(game.pk, users[1])
    page = clients[users[1].pk].get(f"/games/{game.pk}/").content.decode()
    (seats,) = SEATS.findall(page)
    items = re.findall(r"<li data-seat=\"\d\">(.*?)</li>", seats, re.DOTALL)
    marks = [re.findall(r'<span class="seat-mark">(.*?)</span>', item) for item in items]
    names = [text(re.search(r'<span class="seat-name">(.*?)</span>', item)[1]) for item in items]
    assert names == ["Brother 0", "Brother 1", "Scholar bot", "Novice bot"]
    assert marks == [["(host)"], ["(you)"], [], []]
