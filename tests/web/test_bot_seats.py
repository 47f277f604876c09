"""Bots a player can tell apart and choose: the create form says what each level is like, two
bots of one level at a table get names of their own, and a table whose other seats are all bots
starts at once, with no invite link nobody could use."""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from biblios_site.errors import Conflict
from games.kinds import registry
from games.models import Game
from games.play.selectors import seat_names
from games.tables import services

pytestmark = pytest.mark.django_db

TAGS = re.compile(r"<[^>]+>")


def text(html: str) -> str:
    return " ".join(TAGS.sub(" ", html).split())


def table(host, num_players, bots, **settings):
    return services.create_table(
        host, services.TableSettings(num_players, bots=tuple(bots), **settings)
    )


def bot_lists(page: str) -> dict[str, list[str]]:
    """The create form's list of bots per game, each line as a reader sees it."""
    return {
        kind: [text(line) for line in re.findall(r"<li>(.*?)</li>", items, re.S)]
        for kind, items in re.findall(
            r'<ul class="bot-levels" data-kind="(\w+)"[^>]*>(.*?)</ul>', page, re.S
        )
    }


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            {
                "biblios": [
                    "Abbot bot: thinks ahead.",
                    "Novice bot: plays at random.",
                    "Scholar bot: takes the best move in sight.",
                ],
                "exlibris": [
                    "Archivist bot: thinks ahead.",
                    "Random bot: plays at random.",
                    "Greedy bot: takes the best move in sight.",
                ],
            },
        ),
        ("fr", None),
        ("es", None),
    ],
)
def test_the_create_form_says_in_a_line_what_each_bot_is_like(users, language, expected):
    """Every level of every live game has its line, in the reader's language, in the order of
    the seats' menus, so the stylesheet can show the chosen game's list by its place."""
    browser = Client(headers={"accept-language": language})
    browser.force_login(users[0])
    lists = bot_lists(browser.get("/").content.decode())
    kinds = registry.kinds()
    assert list(lists) == [kind.slug for kind in kinds]
    for kind in kinds:
        assert len(lists[kind.slug]) == len(kind.bot_levels)
        for line, level in zip(lists[kind.slug], kind.offered_bots, strict=True):
            with translation.override(language):
                label, description = str(level.label), str(level.description)
            with translation.override("en"):
                english = str(level.description)
            assert label in line and description in line, line
            assert (description == english) == (language == "en"), "a line left untranslated"
    if expected:
        assert lists == expected


def seat_menu(page: str) -> dict[str, list[tuple[str, str]]]:
    """The first seat menu's bot entries (value, text) per game, in their order."""
    menu = re.search(r'<select name="seat_2".*?</select>', page, re.S).group(0)
    return {
        kind: re.findall(r'<option value="(\w+)">([^<]*)</option>', group)
        for kind, group in re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', menu, re.S)
    }


@pytest.mark.parametrize(
    ("language", "recommended"),
    [
        ("en", "Archivist bot (recommended)"),
        ("fr", "Bot Archiviste (recommandé)"),
        ("es", "Bot Archivero (recomendado)"),
    ],
)
def test_a_table_offers_the_searching_bot_first_and_says_so(users, language, recommended):
    """The level each game offers by default (its `default_bot`, the one that thinks ahead)
    comes first in every seat's menu, marked, and the others follow from the weakest up."""
    browser = Client(headers={"accept-language": language})
    browser.force_login(users[0])
    menus = seat_menu(browser.get("/").content.decode())
    assert {name: [value for value, _ in entries] for name, entries in menus.items()} == {
        "Biblios": ["abbot", "novice", "scholar"],
        "Ex Libris": ["archivist", "random", "greedy"],
    }
    assert menus["Ex Libris"][0][1] == recommended
    assert all("(" not in label for _, label in menus["Ex Libris"][1:])
    for kind in registry.kinds():
        assert kind.default_bot == kind.offered_bots[0].slug
        assert kind.offered_bots[0].description == registry.THINKS_AHEAD


def test_two_bots_of_one_level_have_names_of_their_own_a_lone_one_keeps_its_plain_name(users):
    game = table(users[0], 4, ["greedy", "random", "greedy"], kind="exlibris")
    assert game.status == Game.Status.ACTIVE
    assert seat_names(game)[1:] == ["Greedy bot 1", "Random bot", "Greedy bot 2"]
    with translation.override("es"):
        assert seat_names(game)[1:] == ["Bot Voraz 1", "Bot Aleatorio", "Bot Voraz 2"]


def test_bot_names_at_a_table_are_always_distinct():
    """Over random tables of every size and mix of levels, open seats among them."""
    rng = random.Random(3)
    for _ in range(500):
        levels = [rng.choice(["", "novice", "scholar", "abbot"]) for _ in range(rng.randint(1, 3))]
        numbers = services.bot_numbers(levels)
        names = [(level, number) for level, number in zip(levels, numbers, strict=True) if level]
        assert len(set(names)) == len(names), (levels, numbers)
        for level, number in names:
            assert (number == 0) == (levels.count(level) == 1), (levels, numbers)


def test_bots_keep_their_names_when_a_person_who_left_made_the_seats_move(users):
    """Seats are compacted when the game starts; a bot's number was given at the table's
    opening and does not depend on its seat."""
    game = table(users[0], 4, [None, "novice", "novice"])
    services.join_table(game.pk, users[1])
    services.leave_table(game.pk, users[1])
    services.join_table(game.pk, users[2])
    game = services.start_game(game.pk, users[0])
    assert sorted(seat_names(game)) == sorted(
        ["Brother 0", "Brother 2", "Novice bot 1", "Novice bot 2"]
    )


@pytest.mark.parametrize(
    ("kind", "bots"), [("biblios", ["abbot"]), ("exlibris", ["greedy", "random"])]
)
def test_a_table_whose_other_seats_are_all_bots_starts_at_once_without_an_invite_link(
    users, clients, kind, bots
):
    """Through the lobby's form, as a person opens it: the host lands on the board, the game
    dealt from the table's seed, and nothing offers a seat nobody can take."""
    host = clients[users[0].pk]
    posted = {
        "kind": kind,
        "variant": registry.get(kind).default_variant,
        "num_players": len(bots) + 1,
    }
    posted.update({f"seat_{n}": level for n, level in enumerate(bots, start=2)})
    response = host.post(reverse("table_create"), posted)
    assert response.status_code == 302, response.content.decode()[-2000:]
    game = Game.objects.get(host=users[0])
    assert game.status == Game.Status.ACTIVE and game.started_at is not None
    engine = registry.of(game).engine
    dealt = engine.new_game(
        game.num_players, seed=game.seed, variant=game.variant, options=game.options
    )
    assert game.setup == engine.setup_of(dealt)
    page = host.get(response["Location"]).content.decode()
    assert 'id="invite-link"' not in page and "Start the game" not in page
    with pytest.raises(Conflict):
        services.start_game(game.pk, users[0])


def test_a_table_with_a_seat_left_to_people_waits_for_them_with_its_invite_link(users, clients):
    game = table(users[0], 3, ["scholar"])
    assert game.status == Game.Status.OPEN
    page = clients[users[0].pk].get(f"/games/{game.pk}/").content.decode()
    assert 'id="invite-link"' in page
    services.join_table(game.pk, users[1])
    full = clients[users[0].pk].get(f"/games/{game.pk}/").content.decode()
    assert 'id="invite-link"' not in full and "Start the game" in full


def test_a_table_opened_with_a_seed_deals_that_game(users):
    """The seed a caller gives (a deal everyone plays alike) is the one the engine deals from."""
    first = services.create_table(users[0], services.TableSettings(2, bots=("novice",)), seed=42)
    second = services.create_table(users[1], services.TableSettings(2, bots=("novice",)), seed=42)
    assert first.seed == second.seed == 42 and first.setup == second.setup
