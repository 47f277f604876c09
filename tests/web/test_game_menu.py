"""The create-table form's one menu of games and variants (with Ex Libris live beside
Biblios): each game's variants grouped under its name and posted as "kind/variant", so no game is
posted with another's variant; the chosen game's options box, table sizes and bots are the ones
shown (site.css, by the menu's order), without JavaScript. A post of a game with another game's
variant, or of junk, is refused on the menu and opens nothing. With one live game the menu is
its variants alone, as before.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings

from games.kinds.exlibris import engine
from games.models import Game

from .helpers import parse_tree

pytestmark = pytest.mark.django_db

SITE_CSS = (Path(settings.BASE_DIR) / "static" / "css" / "site.css").read_text()


def lobby(client) -> str:
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


def menu_of(html: str) -> str:
    """The menu's field block: its label, the select and its errors."""
    return re.search(r'<div class="field field-variant">.*?\n</div>', html, re.S).group()


def groups(select) -> list[tuple[str, list[str]]]:
    """Each optgroup of a parsed select: its label and its options' values."""
    return [
        (group.attrs["label"], [option.attrs["value"] for option in group.children])
        for group in select.children
        if group.tag == "optgroup"
    ]


def the_select(root, name: str):
    (select,) = [
        node for node in root.walk() if node.tag == "select" and node.attrs["name"] == name
    ]
    return select


def table_post(variant: str, **fields) -> dict:
    """What the lobby's form posts: the menu's entry, two seats, Biblios' and Ex Libris' boxes."""
    return {
        "variant": variant,
        "num_players": "2",
        "spectators_allowed": "on",
        "seat_2": "",
        "exlibris-difficulty": "1",
        **fields,
    }


# ------------------------------------------------------------------------------ the menu


def test_with_both_games_live_the_menu_offers_each_games_variants_under_its_name(users, clients):
    """One "Game" menu, no separate kind menu: Biblios' editions, then Ex Libris' eight variants
    (X78–X80 combined), each valued "kind/variant" and listing its game's table sizes."""
    html = lobby(clients[users[0].pk])
    menu = menu_of(html)
    assert '<label for="id_variant">Game</label>' in menu
    assert '<select name="kind"' not in html and 'name="kind" value=' not in html
    select = the_select(parse_tree(html), "variant")
    assert groups(select) == [
        ("Biblios", ["biblios/biblios", "biblios/scripts_and_scribes"]),
        ("Ex Libris", [f"exlibris/{variant}" for variant in engine.VARIANTS]),
    ]
    entries = {
        option.attrs["value"]: option.attrs
        for group in select.children
        for option in group.children
    }
    assert entries["biblios/biblios"]["data-player-counts"] == "2 3 4"
    assert entries["exlibris/beginner"]["data-player-counts"] == "1 2 3 4"
    assert "selected" in entries["biblios/biblios"], "the first game's first variant to start"
    assert ">Ex Libris · Beginner</option>" in menu


def test_the_boxes_and_each_seats_bots_follow_the_menus_order(users, clients):
    """The stylesheet matches the menu's nth game with the nth options box and each seat menu's
    nth group of bots: the form draws all three in the registry's order."""
    root = parse_tree(lobby(clients[users[0].pk]))
    menu_games = [label for label, _ in groups(the_select(root, "variant"))]
    boxes = [
        node.attrs["data-kind"]
        for node in root.walk()
        if "table-options" in node.attrs.get("class", "")
    ]
    assert menu_games == ["Biblios", "Ex Libris"] and boxes == ["biblios", "exlibris"]
    for seat in (2, 3, 4):
        select = the_select(root, f"seat_{seat}")
        assert select.children[0].attrs["value"] == "", "open for a player, whichever game"
        assert groups(select) == [
            ("Biblios", ["abbot", "novice", "scholar"]),
            ("Ex Libris", ["archivist", "random", "greedy"]),
        ]


def test_the_stylesheet_shows_the_chosen_games_box_bots_and_table_sizes_only():
    """For each of up to four games, by its place in the menu; and a table size is offered only
    if the chosen entry's data-player-counts lists it."""
    for place in (1, 2, 3, 4):
        chosen = f'select[name="variant"] > optgroup:nth-of-type({place}) > option:checked)'
        hidden = (
            f":is(.table-options:not(:nth-child({place} of .table-options)), "
            f".bot-levels:not(:nth-child({place} of .bot-levels)), "
            f'select[name^="seat_"] > optgroup:not(:nth-of-type({place})))'
        )
        assert f"{chosen} {hidden}" in SITE_CSS
        size = (
            f'select[name="variant"] option:checked:not([data-player-counts~="{place}"])) '
            f'select[name="num_players"] option[value="{place}"]'
        )
        assert size in SITE_CSS
    bluff = 'option[value="biblios/scripts_and_scribes"]:checked)\n  [data-kind="biblios"]'
    assert bluff in SITE_CSS, "Medieval bluff is still hidden with Scripts & Scribes"


def test_with_one_live_game_the_menu_is_its_variants_beside_a_hidden_kind(
    users, clients, biblios_alone
):
    """Biblios alone: a "Variant" menu of its editions by slug, no groups, the kind hidden; the
    seat menus list its bots ungrouped."""
    html = lobby(clients[users[0].pk])
    menu = menu_of(html)
    assert '<label for="id_variant">Variant</label>' in menu and "<optgroup" not in menu
    assert '<input type="hidden" name="kind" value="biblios"' in html
    root = parse_tree(html)
    options = the_select(root, "variant").children
    assert [option.attrs["value"] for option in options] == ["biblios", "scripts_and_scribes"]
    assert {option.attrs["data-player-counts"] for option in options} == {"2 3 4"}
    assert "selected" in options[0].attrs
    seat = the_select(root, "seat_2")
    assert [option.attrs["value"] for option in seat.children] == ["", "abbot", "novice", "scholar"]


# ------------------------------------------------------------------------------ posting


def test_a_post_of_an_ex_libris_entry_opens_that_table(users, clients):
    """The beginner variant (X78), from the menu's one value, with Ex Libris' own option."""
    posted = table_post("exlibris/beginner", **{"exlibris-owner_wide_powers": "on"})
    response = clients[users[0].pk].post("/tables/new/", posted)
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.kind, game.variant, game.num_players) == ("exlibris", "beginner", 2)
    assert game.options == {"owner_wide_powers": True}


def test_a_post_of_a_biblios_entry_reads_biblios_options_only(users, clients):
    posted = table_post(
        "biblios/scripts_and_scribes",
        **{"biblios-forbid_uncoverable_bids": "on", "exlibris-owner_wide_powers": "on"},
    )
    assert clients[users[0].pk].post("/tables/new/", posted).status_code == 302
    game = Game.objects.get()
    assert (game.kind, game.variant) == ("biblios", "scripts_and_scribes")
    assert game.options == {"medieval_bluff": False, "forbid_uncoverable_bids": True}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"variant": "exlibris/scripts_and_scribes"},
            "Ex Libris has no variant “Scripts &amp; Scribes”: choose a game and variant",
        ),
        ({"variant": "biblios/beginner"}, "Biblios has no variant “Ex Libris · Beginner”"),
        (
            {"kind": "exlibris", "variant": "scripts_and_scribes"},
            "Ex Libris has no variant “Scripts &amp; Scribes”",
        ),
        ({"variant": "beginner"}, "Biblios has no variant “Ex Libris · Beginner”"),
        (
            {"kind": "biblios", "variant": "exlibris/beginner"},
            "Select a valid choice. exlibris/beginner is not one of the available choices.",
        ),
        ({"variant": "exlibris/chess"}, "Select a valid choice. exlibris/chess is not one"),
        ({"variant": "chess/standard"}, "Select a valid choice. chess/standard is not one"),
        ({"variant": "exlibris/"}, "Select a valid choice. exlibris/ is not one"),
        ({"variant": "exlibris/beginner/x"}, "Select a valid choice."),
        ({"variant": "<b>exlibris</b>"}, "&lt;b&gt;exlibris&lt;/b&gt; is not one"),
    ],
    ids=[
        "ex-libris-with-s-and-s",
        "biblios-with-beginner",
        "kind-field-with-s-and-s",
        "bare-beginner-is-biblios",
        "kind-against-the-entry",
        "unknown-variant",
        "unknown-game",
        "no-variant",
        "too-many-parts",
        "markup",
    ],
)
def test_a_game_with_another_games_variant_or_junk_is_refused_on_the_menu(
    users, clients, fields, message
):
    """The refusal is written under the menu, the page keeps both games' boxes, nothing opens."""
    response = clients[users[0].pk].post("/tables/new/", table_post(**fields))
    assert response.status_code == 400
    html = response.content.decode()
    assert message in menu_of(html)
    assert 'data-kind="exlibris"' in html and 'data-kind="biblios"' in html
    assert not Game.objects.exists()


def test_a_refused_table_comes_back_with_its_entry_chosen(users, clients):
    """An engine refusal (X78: the beginner variant needs two to four players) redraws the form
    with the posted entry selected, so the stylesheet shows Ex Libris' box again."""
    response = clients[users[0].pk].post(
        "/tables/new/", table_post("exlibris/beginner", num_players="1")
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "The beginner variant is for two to four players" in html
    entry = re.search(r'<option value="exlibris/beginner"[^>]*>', html).group()
    assert "selected" in entry
    assert not Game.objects.exists()
