"""Ex Libris tables: opened and joined from the lobby's form (a plain POST) and from
the API, at 2, 3 and 4 players and solo with its difficulty (X82, X85), in every variant (X78–X80)
with owner-wide powers or not (X81), bot seats, private tables, spectators and turn times. A bad
option gets a clear message and opens nothing; a solo table starts at once and is never rated.
"""

import json
import random
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import ApiToken
from games.kinds.exlibris import engine, forms
from games.kinds.exlibris.engine.setup import SOLO_DIFFICULTIES
from games.models import Game
from ratings.models import Rating

pytestmark = pytest.mark.django_db

# Every table the engine deals: each variant at 2, 3 and 4 players, and solo in the variants a
# solo game takes (X78 and X80 do not apply to it).
SOLO_VARIANTS = [v for v in engine.VARIANTS if not {"beginner", "long"} & set(v.split("+"))]
TABLES = [(players, variant) for players in (2, 3, 4) for variant in engine.VARIANTS] + [
    (1, variant) for variant in SOLO_VARIANTS
]
BOTS = ["random", "greedy", "random"]


class Visitor:
    """A user with a logged-in browser and an API token."""

    def __init__(self, user):
        self.user = user
        self.browser = Client()
        self.browser.force_login(user)
        _, token = ApiToken.issue(user, "tests")
        self.api = Client(headers={"Authorization": f"Bearer {token}"})

    def post(self, path: str, body=None):
        data = "" if body is None else json.dumps(body)
        return self.api.post(path, data, content_type="application/json")

    def get(self, path: str) -> dict:
        response = self.api.get(path)
        assert response.status_code == 200, response.content[:300]
        return response.json()


@pytest.fixture
def visitors(django_user_model):
    return [
        Visitor(django_user_model.objects.create_user(f"reader{i}", display_name=f"Reader {i}"))
        for i in range(3)
    ]


def lobby_post(players: int, variant: str, kind: str = "exlibris", **fields) -> dict:
    """What the lobby's form posts for a table of `kind` (Ex Libris unless said): the game menu's
    "kind/variant" entry and every other field it draws, the hidden ones included (the seats
    beyond the table's size, the solo difficulty at a bigger table)."""
    posted = {
        "variant": f"{kind}/{variant}",
        "num_players": str(players),
        "spectators_allowed": "on",
        "turn_seconds": "",
        "exlibris-difficulty": "1",
        **{f"seat_{n}": "" for n in (2, 3, 4)},
    }
    posted.update(fields)
    return posted


def started_state(game: Game):
    """The game the engine dealt for a table whose other seats are all bots: it started as
    it was opened, nobody else being able to join."""
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE, "a table of bots waited for its host"
    return game.engine_state()


# ----------------------------------------------------------------------------- the lobby


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=[f"{p}p-{v}" for p, v in TABLES])
def test_the_lobby_opens_every_mode_and_its_table_starts(visitors, players, variant):
    """A plain POST of the lobby's form opens the table, its other seats bots, which starts at
    once; the engine deals exactly that game (X78–X82). A solo table stores its
    difficulty (X85); a bigger one ignores the hidden difficulty field the form always posts."""
    host = visitors[0]
    seats = {f"seat_{n}": BOTS[n - 2] for n in range(2, players + 1)}
    posted = lobby_post(players, variant, **seats, **{"exlibris-difficulty": "3"})
    response = host.browser.post(reverse("table_create"), posted)
    assert response.status_code == 302, response.content.decode()[-2000:]
    game = Game.objects.get(host=host.user)
    assert (game.kind, game.variant, game.num_players) == ("exlibris", variant, players)
    solo = {"difficulty": 3} if players == 1 else {}
    assert game.options == {"owner_wide_powers": False, **solo}
    assert list(game.seats.values_list("bot_level", flat=True)) == ["", *BOTS[: players - 1]]
    assert not game.rated, "a bot at the table, or a solo game: unrated"
    state = started_state(game)
    assert (state["players"], state["setup"]["variant"]) == (players, variant)
    assert state["options"] == game.options


def test_the_lobby_sets_private_spectators_turn_time_and_owner_wide_powers(visitors):
    """The platform's settings and the kind's own option (X81) from one form, with the person's
    seats left open: a table of people only is rated."""
    host = visitors[0]
    posted = lobby_post(3, "friendly+long", **{"exlibris-owner_wide_powers": "on"})
    posted.update(private="on", turn_seconds="60")
    del posted["spectators_allowed"]  # an unticked box is not posted
    assert host.browser.post(reverse("table_create"), posted).status_code == 302
    game = Game.objects.get()
    assert game.options == {"owner_wide_powers": True}
    assert (game.private, game.spectators_allowed, game.turn_seconds) == (True, False, 60)
    assert game.rated and game.seats.count() == 1


def test_a_solo_table_from_the_lobby_ignores_a_rated_tick_and_says_it_is_never_rated(visitors):
    """The form hides "Rated game" at one seat (site.css); a tick left there changes nothing.
    The table starts at once (nobody else can join) and its board names the difficulty (X85)."""
    host = visitors[0]
    posted = lobby_post(1, "friendly", rated="on", **{"exlibris-difficulty": "4"})
    assert host.browser.post(reverse("table_create"), posted).status_code == 302
    game = Game.objects.get()
    assert not game.rated and game.options["difficulty"] == 4
    assert game.status == Game.Status.ACTIVE
    page = host.browser.get(reverse("game", args=[game.pk])).content.decode()
    assert "Scholar (difficulty 4)" in page
    assert "Start the game" not in page and 'id="invite-link"' not in page


@pytest.mark.parametrize(
    ("players", "variant", "fields", "message"),
    [
        (1, "standard", {"exlibris-difficulty": "9"}, "goes from 1 (Initiate) to 7 (Demiurge)"),
        (1, "standard", {"exlibris-difficulty": "hard"}, "goes from 1 (Initiate) to 7"),
        (1, "beginner", {}, "The beginner variant is for two to four players"),
        (1, "friendly+long", {}, "A solo game always lasts five rounds"),
        (5, "standard", {}, "Select a valid choice"),
        (2, "biblios", {}, "Ex Libris has no variant “Biblios”"),
        (2, "standard", {"seat_2": "scholar"}, "unknown bot level &#x27;scholar&#x27;"),
    ],
    ids=["difficulty-9", "difficulty-word", "beginner-solo", "long-solo", "five", "biblios", "bot"],
)
def test_the_lobby_refuses_bad_settings_with_a_message(visitors, players, variant, fields, message):
    """X85's seven levels, X78 and X80 not in solo (X82), the kind's own player counts, variants
    and bot levels: the form comes back with the reason and no table is opened."""
    host = visitors[0]
    response = host.browser.post(reverse("table_create"), lobby_post(players, variant, **fields))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.exists()


def test_a_biblios_table_from_the_same_form_ignores_the_ex_libris_fields(visitors):
    """Both games live: the form posts both option sets; the chosen game's alone are read."""
    posted = lobby_post(2, "scripts_and_scribes", kind="biblios")
    posted["exlibris-owner_wide_powers"] = "on"
    assert visitors[0].browser.post(reverse("table_create"), posted).status_code == 302
    game = Game.objects.get()
    assert (game.kind, game.variant, game.num_players) == ("biblios", "scripts_and_scribes", 2)
    assert game.options == {"medieval_bluff": False, "forbid_uncoverable_bids": False}


def test_the_lobby_draws_the_options_with_the_difficulty_for_one_seat_only(visitors):
    """Ex Libris' fieldset holds owner-wide powers (X81) and the difficulty (X85), whose box says
    it is for one seat: the stylesheet hides it at the other sizes (tests/web's look tests)."""
    page = visitors[0].browser.get("/").content.decode()
    start = page.index('<fieldset class="table-options" data-kind="exlibris">')
    fieldset = page[start : page.index("</fieldset>", start)]
    assert 'name="exlibris-owner_wide_powers"' in fieldset
    assert 'name="exlibris-difficulty"' in fieldset and 'data-players="1"' in fieldset
    for level, name in (1, "Initiate"), (7, "Demiurge"):
        assert f'<option value="{level}"' in fieldset and f"{level} · {name}" in fieldset
    assert '<option value="1">1 player</option>' in page
    assert "A solo game never is." in page, "the rating box says a solo game is never rated"


def test_the_stylesheet_asks_the_difficulty_and_no_rating_at_one_seat_only():
    """Without JavaScript: at one seat the other seats and "Rated game" are hidden, and a field
    marked for some sizes (the difficulty's data-players="1") is hidden at every other size."""
    css = (Path(settings.BASE_DIR) / "static" / "css" / "site.css").read_text()
    one_seat = 'select[name="num_players"] option[value="1"]:checked)'
    assert (
        f"{one_seat} :is(.field-seat_2, .field-seat_3, .field-seat_4, .bot-levels, .field-rated)"
        in css
    )
    for players in (1, 2, 3, 4):
        chosen = f'select[name="num_players"] option[value="{players}"]:checked)'
        marked_for_others = f'.field:has([data-players]:not([data-players~="{players}"]))'
        assert f"{chosen} {marked_for_others}" in css


# -------------------------------------------------------------------------------- the API


@pytest.mark.parametrize(("players", "variant"), TABLES, ids=[f"{p}p-{v}" for p, v in TABLES])
def test_the_api_opens_every_mode(visitors, players, variant):
    """`POST /api/tables` with the same settings as the lobby, owner-wide powers on (X81) and,
    solo, the hardest difficulty (X85); the table starts with the engine's game."""
    host = visitors[0]
    options = {"owner_wide_powers": True} | ({"difficulty": 7} if players == 1 else {})
    body = {
        "kind": "exlibris",
        "variant": variant,
        "num_players": players,
        "options": options,
        "bots": BOTS[: players - 1],
        "turn_seconds": 30,
        "private": True,
        "spectators_allowed": False,
    }
    response = host.post("/api/tables", body)
    assert response.status_code == 201, response.content[:300]
    table = response.json()
    assert (table["kind"], table["variant"], table["num_players"]) == ("exlibris", variant, players)
    assert table["options"] == options
    assert [seat["bot"] for seat in table["seats"]] == [None, *BOTS[: players - 1]]
    assert (table["turn_seconds"], table["private"], table["spectators_allowed"]) == (
        30,
        True,
        False,
    )
    assert table["rated"] is False
    assert started_state(Game.objects.get(pk=table["id"]))["options"] == options


def test_the_api_fills_in_the_defaults(visitors):
    """No option given: owner-wide powers off (X81) and, solo, Initiate (X85)."""
    host = visitors[0]
    solo = host.post("/api/tables", {"kind": "exlibris", "num_players": 1}).json()
    assert (solo["variant"], solo["options"]) == (
        "standard",
        {"owner_wide_powers": False, "difficulty": 1},
    )
    duel = host.post("/api/tables", {"kind": "exlibris", "num_players": 2}).json()
    assert duel["options"] == {"owner_wide_powers": False} and duel["rated"] is True


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"options": {"colour": True}},
            "unknown option(s) colour; Ex Libris has owner_wide_powers",
        ),
        (
            {"num_players": 3, "options": {"difficulty": 2}},
            "option difficulty does not apply at a table of 3",
        ),
        ({"options": {"difficulty": 9}}, "goes from 1 (Initiate) to 7 (Demiurge)"),
        ({"options": {"difficulty": 0}}, "goes from 1 (Initiate) to 7 (Demiurge)"),
        ({"options": {"difficulty": "4"}}, "option difficulty must be a whole number"),
        ({"options": {"difficulty": 4.0}}, "goes from 1 (Initiate) to 7"),
        ({"options": {"difficulty": True}}, "goes from 1 (Initiate) to 7"),
        ({"options": {"owner_wide_powers": 1}}, "option owner_wide_powers must be true or false"),
        ({"options": {"owner_wide_powers": "yes"}}, "owner_wide_powers must be true or false"),
        ({"variant": "beginner"}, "The beginner variant is for two to four players"),
        ({"variant": "long"}, "A solo game always lasts five rounds"),
        ({"rated": True}, "a solo game is never rated"),
        ({"num_players": 5}, "Ex Libris is played by 1, 2, 3 or 4 players"),
        ({"bots": ["random"]}, "a table of 1 has 0 seats besides the host's"),
        ({"num_players": 2, "bots": ["abbot"]}, "unknown bot level 'abbot'"),
    ],
    ids=[
        "unknown",
        "difficulty-multiplayer",
        "difficulty-9",
        "difficulty-0",
        "difficulty-string",
        "difficulty-float",
        "difficulty-bool",
        "switch-number",
        "switch-string",
        "beginner-solo",
        "long-solo",
        "rated-solo",
        "five",
        "solo-bot",
        "other-kinds-bot",
    ],
)
def test_the_api_refuses_bad_options_with_a_message(visitors, body, message):
    """A solo table (the default here) or the size given: the 400 says what is wrong (X78, X80,
    X82, X85, X81) and nothing is opened."""
    table = {"kind": "exlibris", "num_players": 1, **body}
    response = visitors[0].post("/api/tables", table)
    assert response.status_code == 400, response.content[:300]
    assert message in response.json()["error"]
    assert not Game.objects.exists()


# ---------------------------------------------------------------------- joining and playing


def test_people_join_from_the_lobby_and_the_api_and_the_game_is_rated(visitors):
    """A 3-player table of people: one joins with the lobby's button, one through the API; the
    host starts it, and a table of people only is rated."""
    host, by_page, by_api = visitors
    table = {"kind": "exlibris", "num_players": 3, "options": {"owner_wide_powers": True}}
    opened = host.post("/api/tables", table).json()
    lobby = by_page.browser.get("/").content.decode()
    row = lobby[lobby.index(f'<tr data-game="{opened["id"]}">') :].split("</tr>")[0]
    assert "1/3" in row and "Owner-wide powers." in row, "the open table and its X81 option"
    assert by_page.browser.post(reverse("game_join", args=[opened["id"]])).status_code == 302
    assert by_api.post(f"/api/tables/{opened['id']}/join").status_code == 200
    assert host.post(f"/api/tables/{opened['id']}/start").status_code == 200
    game = Game.objects.get(pk=opened["id"])
    assert game.status == Game.Status.ACTIVE and game.rated
    seated = [visitor.get(f"/api/games/{game.pk}")["seat"] for visitor in visitors]
    assert sorted(seated) == [0, 1, 2]


def test_a_solo_game_starts_from_its_page_and_is_played_to_the_end_unrated(visitors):
    """The host starts a solo table with the page's button (no one else to wait for), plays it
    through the API against the game itself to the end (5 rounds, X83) and the finish changes
    no rating (X84's win or loss against the Public Library is no rated game)."""
    host = visitors[0]
    opened = host.post(
        "/api/tables", {"kind": "exlibris", "num_players": 1, "options": {"difficulty": 2}}
    ).json()
    assert host.browser.post(reverse("game_start", args=[opened["id"]])).status_code == 302
    game = Game.objects.get(pk=opened["id"])
    assert game.status == Game.Status.ACTIVE and not game.rated
    assert game.engine_state()["solo"]["difficulty"] == 2
    pick = random.Random(opened["id"])
    while game.status == Game.Status.ACTIVE:
        view = host.get(f"/api/games/{game.pk}")["view"]
        move = {"version": view["version"], "action": pick.choice(view["legal_actions"])}
        response = host.post(f"/api/games/{game.pk}/actions", move)
        assert response.status_code == 200, response.content[:300]
        game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and not game.rated
    assert game.result["solo"] and game.result["players"][0]["place"] == 1
    assert game.seats.get().won == (game.result["winners"] == [0]), "X84: won if above the PL"
    assert not Rating.objects.exists()


def test_the_difficulty_offers_every_level_by_its_printed_name():
    """X85's seven levels, each with its name (the rulebook's in French)."""
    form = forms.OptionsForm("standard", players=1)
    assert [level for level, _ in form.fields["difficulty"].choices] == list(SOLO_DIFFICULTIES)
    with translation.override("fr"):
        labels = dict(forms.OptionsForm("standard", players=1).fields["difficulty"].choices)
    assert (labels[1], labels[4], labels[7]) == ("1 · Initié", "4 · Érudit", "7 · Démiurge")
