"""Ex Libris' names in each language the site speaks (names.py): the printed French, the data's
English, our Spanish renderings, and the variants' names."""

import json
import random
import re
from html import unescape
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from games.kinds.exlibris import effects, engine, names, presenter, prompts
from games.kinds.exlibris.engine import setup
from games.kinds.exlibris.engine.cards import CARDS, DATA_DIR, LIBRARIES, LOCATIONS
from games.kinds.exlibris.kind import KIND
from games.kinds.exlibris.templatetags.exlibris_board import log_line

from .helpers import SEEDED_GAMES

LANGUAGES = ("en", "fr", "es")


def table(name: str, key: str) -> list[dict]:
    with (DATA_DIR / name).open(encoding="utf-8") as data:
        return json.load(data)[key]


CATEGORY_ROWS = table("categories.json", "categories")
LOCATION_ROWS = table("locations.json", "locations")
LIBRARY_ROWS = table("libraries.json", "libraries")


def named_everything() -> list[str]:
    return (
        [names.category(row["id"]) for row in CATEGORY_ROWS]
        + [names.location(row["id"]) for row in LOCATION_ROWS]
        + [names.library(row["id"]) for row in LIBRARY_ROWS]
        + [names.assistant(row["id"]) for row in LIBRARY_ROWS]
        + [names.difficulty(level) for level in setup.SOLO_DIFFICULTIES]
        + [names.standard_assistant()]
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_category_location_library_and_assistant_has_a_name(language):
    """X2, X4, X5, X85: all 6 categories, 18 tiles, 12 libraries and their assistants, 7 levels."""
    with translation.override(language):
        found = named_everything()
    assert len(found) == 6 + 18 + 12 + 12 + 7 + 1
    assert all(isinstance(name, str) and name.strip() for name in found)


def test_french_names_are_the_printed_ones():
    with translation.override("fr"):
        assert [names.category(r["id"]) for r in CATEGORY_ROWS] == [r["fr"] for r in CATEGORY_ROWS]
        assert [names.location(r["id"]) for r in LOCATION_ROWS] == [r["fr"] for r in LOCATION_ROWS]
        assert [names.library(r["id"]) for r in LIBRARY_ROWS] == [r["fr"] for r in LIBRARY_ROWS]
        assert [names.assistant(r["id"]) for r in LIBRARY_ROWS] == [
            r["assistant"]["fr"] for r in LIBRARY_ROWS
        ]
        assert names.difficulty(1) == "Initié"


def test_english_names_are_the_datas():
    with translation.override("en"):
        assert names.category("spells_and_potions") == "Spells & Potions"
        assert names.location("hut") == "Diviner's Hut"
        assert names.library("golem") == "Scrapyard Scriptorium"
        assert names.assistant("wisp") == "Will-o'-the-Wisp"


def test_spanish_names_are_our_own_and_distinct():
    """Spanish has a rendering of its own for every row, never the English or a duplicate."""
    with translation.override("es"):
        locations = [names.location(r["id"]) for r in LOCATION_ROWS]
        libraries = [names.library(r["id"]) for r in LIBRARY_ROWS]
        categories = [names.category(r["id"]) for r in CATEGORY_ROWS]
        assert names.location("hut") == "Choza del adivino"
    for found in (locations, libraries, categories):
        assert len(set(found)) == len(found)
    assert not set(locations) & {r["en"] for r in LOCATION_ROWS}
    assert not set(categories) & {r["en"] for r in CATEGORY_ROWS}


def test_a_regional_language_uses_its_base_names():
    with translation.override("fr-ca"):
        assert names.location("hut") == "Tente du devin"


def test_assistant_name_covers_the_engines_assistant_ids():
    with translation.override("en"):
        assert names.assistant_name("standard-2") == "Assistant"
        assert names.assistant_name("ghost") == "Ghost"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_engine_variant_has_a_name_in_each_language(language):
    """X78-X80: the variants combine freely; each combination reads as the game's name and its
    parts joined."""
    with translation.override(language):
        found = [str(names.variant_name(slug)) for slug in engine.VARIANTS]
        assert [str(v.name) for v in KIND.variants] == found
    assert len(set(found)) == len(engine.VARIANTS) == 8
    assert all(found)
    assert found[0] == "Ex Libris"
    beginner, friendly, long_game = (found[i].removeprefix("Ex Libris · ") for i in (1, 2, 4))
    assert found[-1] == f"Ex Libris · {beginner} + {friendly} + {long_game}"


def test_variant_names_are_translated_when_read():
    """The kind's entry names its variants at import, so the names must wait for the reader's
    language."""
    with translation.override("fr"):
        assert str(KIND.variant_name("standard")) == "Ex Libris"
        assert str(KIND.variant_name("beginner+long")) == "Ex Libris · Débutant + Partie longue"
    with translation.override("es"):
        assert str(KIND.variant_name("friendly")) == "Ex Libris · Amistoso"


def test_rules_names_follow_the_variant():
    """X78, X79: the beginner and friendly variants remove tiles; friendly removes 4 libraries;
    X67, X80: the end thresholds."""
    with translation.override("en"):
        standard = names.rules_names("standard")
        friendly = names.rules_names("friendly")
        beginner_long = names.rules_names("beginner+long")
    numbers = {row["id"]: row["number"] for row in LOCATION_ROWS}

    def removed(found):
        return set(numbers.values()) - {tile["number"] for tile in found["locations"]}

    assert removed(standard) == set()
    assert removed(friendly) == {3, 7, 15, 16}
    assert removed(beginner_long) == {3, 7, 8, 9, 15, 17}
    assert {lib["id"] for lib in standard["libraries"]} - {
        lib["id"] for lib in friendly["libraries"]
    } == {"goblin", "cube", "snowman", "wisp"}
    assert standard["removed_by"]["friendly"] == [
        "Auction House",
        "Gambling Den",
        "Assistants Guild",
        "Tax Collector",
    ]
    assert (standard["end"], beginner_long["end"]) == ("16 / 14 / 12", "19 / 17 / 15")
    assert standard["location"]["hut"] == "Diviner's Hut"
    assert standard["categories"][0]["name"] == "Corrupted Codices"
    assert standard["variant_part"]["long"] == "Long game"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_effect_and_power_reads_in_each_language(language):
    """X35-X52, X54-X65: each tile's effect and each power, translated, with the names it
    mentions filled in as that language says them."""
    with translation.override(language):
        found = [effects.location_effect(row["id"]) for row in LOCATION_ROWS]
        found += [effects.assistant_power(row["id"]) for row in LIBRARY_ROWS]
        ghost = names.assistant("ghost")
    with translation.override("en"):
        english = [effects.location_effect(row["id"]) for row in LOCATION_ROWS]
    assert len(found) == 30 and all(text.strip() and "%(" not in text for text in found)
    assert ghost in found[0]  # the Hut bans the Ghost
    if language != "en":
        assert not set(found) & set(english)


# ------------------------------------------------------------ game names inside sentences
# A sentence read on the board in French or Spanish names the game's things as names.py does
# in that language: never in English, never in a form of its own ("Gobelin" for the Goblin
# Sneak, a typographic apostrophe the printed name does not have).

READERS = ["Ada", "Bertrand", "Clémence", "Dario"]
GAME = SimpleNamespace(pk=1, status="active", variant_name="Standard", variant="standard")

# The special assistant or location each decision is about (X35-X65), by its kind.
ABOUT = {
    "cube": ("assistant", "cube"),
    "sasquatch": ("assistant", "sasquatch"),
    "goblin": ("assistant", "goblin"),
    "goblin_give": ("assistant", "goblin"),
    "wisp": ("assistant", "wisp"),
    "bookworm": ("assistant", "bookworm"),
    "witch": ("assistant", "witch"),
    "golem": ("assistant", "golem"),
    "swap_give": ("location", "swap"),
    "community_give": ("location", "community"),
    "cabin_name": ("location", "cabin"),
    "cabin_take": ("location", "cabin"),
    "run_start": ("location", "shelfmasons"),
    "run_end": ("location", "shelfmasons"),
    "run_dest": ("location", "shelfmasons"),
    "auction_pay": ("location", "auction"),
    "den_name": ("location", "den"),
    "lodge_part": ("location", "lodge"),
    "lodge_assistant": ("location", "lodge"),
    "lodge_shelf": ("location", "lodge"),
    "lodge_exchange": ("location", "lodge"),
    "lodge_swap": ("location", "lodge"),
    "lodge_reshelve": ("location", "lodge"),
    "dump_name": ("location", "dump"),
    "dump_take": ("location", "dump"),
    "tavern_pick": ("location", "tavern"),
    "guild_assistant": ("location", "guild"),
    "guild_slot": ("location", "guild"),
    "tax_pay": ("location", "tax"),
    "tax_discard": ("location", "tax"),
    "tax_take": ("location", "tax"),
    "yard_reveal": ("location", "yard_sale"),
    "yard_claim": ("location", "yard_sale"),
}
NAMERS = {"assistant": names.assistant, "location": names.location}

# A log line (X35-X65) about one assistant or location: its event, as the engine writes it.
CARD = next(iter(CARDS))
LOGGED = [
    ({"type": "named", "seat": 0, "victim": 1, "category": "historic_volumes"}, "goblin"),
    ({"type": "contest", "revealed": [CARD], "winner": None}, "den"),
    ({"type": "contest", "revealed": [CARD], "winner": 1, "won": [CARD]}, "den"),
    ({"type": "cube_card", "seat": 0, "owner": 1, "card": CARD}, "cube"),
    ({"type": "cube_home_actions", "seat": 0, "owner": 1}, "cube"),
    ({"type": "guild_move", "seat": 0, "assistant": "standard-1"}, "guild"),
    ({"type": "claimed_to_shelve", "seat": 0, "card": CARD}, "yard_sale"),
    ({"type": "paid", "seat": 0, "card": CARD}, "tax"),
    ({"type": "collector_count", "seat": 0, "books": 4}, "collector"),
    ({"type": "witch_kept", "seat": 0, "discarded": CARD}, "witch"),
    ({"type": "witch_nothing", "seat": 0}, "witch"),
]

ATTRIBUTE = re.compile(r'\b(?:title|aria-label|alt|placeholder)="([^"]*)"')


def english_only(language: str) -> list[str]:
    """The English names of assistants, locations and libraries that this language names
    otherwise (the Sasquatch is the Sasquatch in all three)."""

    def all_names():
        return [names.assistant(i) for i in LIBRARIES] + [
            *(names.location(i) for i in LOCATIONS),
            *(names.library(i) for i in LIBRARIES),
        ]

    with translation.override("en"):
        english = all_names()
    with translation.override(language):
        local = all_names()
    return sorted({en for en, there in zip(english, local, strict=True) if en != there})


def read(html: str) -> str:
    """What a reader reads of some HTML: its text and the words of its attributes."""
    words = " ".join(ATTRIBUTE.findall(html))
    return " ".join(unescape(f"{re.sub(r'<[^>]+>', ' ', html)} {words}").split())


def assert_no_english_name(text: str, language: str, where: str) -> None:
    found = [name for name in english_only(language) if name in text]
    assert not found, f"{where} in {language} names {found}: {text[:300]}"


def test_english_only_names_are_the_ones_that_differ():
    """The list the checks below look for: English names, the shared ones left out."""
    found = english_only("fr")
    assert "Gelatinous Cube" in found and "Tax Collector" in found
    assert "Sasquatch" not in found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_prompt_and_waiting_line_names_its_assistant_or_location_as_names_does(language):
    """Spec §0, X86: each decision's prompt and what the others read while a seat decides (the
    players' region and the banner's "Waiting for …"), filled as the board fills them, name
    the assistant or location the decision is about exactly as names.py does."""
    with translation.override(language):
        pending = {
            "owner": 1,
            "to": 1,
            "seller": 1,
            "tile": "well",
            "category": "historic_volumes",
            "card": CARD,
        }
        texts = {
            (kind, "prompt"): presenter._prompt({"pending": {**pending, "kind": kind}}, READERS)
            for kind in prompts.PROMPTS
        }
        texts |= {(kind, "doing"): str(doing) for kind, doing in prompts.DOING.items()}
        expected = {kind: NAMERS[what](thing) for kind, (what, thing) in ABOUT.items()}
    assert set(ABOUT) <= set(prompts.PROMPTS)
    for (kind, which), text in texts.items():
        assert "%(" not in text, f"{kind} {which}: {text}"
        if kind in expected:
            assert expected[kind] in text, f"{kind} {which} in {language}: {text}"
        if language != "en":
            assert_no_english_name(text, language, f"{kind} {which}")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("event, thing", LOGGED, ids=[event["type"] for event, _ in LOGGED])
def test_every_log_line_names_its_assistant_or_location_as_names_does(language, event, thing):
    """Both the actor (seat 0: "you") and the others read it named as names.py does."""
    namer = names.assistant if thing in LIBRARIES else names.location
    for me in (0, 1, None):
        with translation.override(language):
            text = read(str(log_line({"names": READERS[:2], "me": me}, event)))
            expected = namer(thing)
        assert expected in text, f"{event['type']} for {me} in {language}: {text}"
        if language != "en":
            assert_no_english_name(text, language, f"{event['type']} log line")


def boards_of_seeded_games():
    """(state, seat, log) for the first two states asking each decision kind, and each game's
    end, in seeded random games of every size (the powers owner-wide, as in
    test_decisions.py, so that they come up often); `log` is the seat's newest events."""
    seen: dict[str, int] = {}
    for players, seed in SEEDED_GAMES:
        rng = random.Random(seed)
        options = {"owner_wide_powers": True} if players > 1 else None
        state = engine.new_game(players, seed=seed, options=options)
        logs = {seat: [] for seat in range(players)}
        while True:
            for seat, log in logs.items():
                logs[seat] = [*reversed(engine.events_for(state, seat)), *log][:30]
            if not engine.to_act(state):
                yield from ((state, seat, log) for seat, log in logs.items())
                break
            seat = engine.to_act(state)[0]
            kind = state["pending"][-1]["kind"]
            if seen.get(kind, 0) < 2:
                seen[kind] = seen.get(kind, 0) + 1
                yield state, seat, logs[seat]
                other = (seat + 1) % players
                yield state, other, logs[other]
            state = engine.apply_action(state, seat, rng.choice(engine.legal_actions(state, seat)))


def test_boards_of_whole_games_name_nothing_in_english_in_french_and_spanish():
    """What a player reads on the board (banner, players, town, tiles, buttons, bookshelves,
    hand, inspection and the log, with the words of their attributes), for the seat asked and
    one it keeps waiting, names no assistant, location or library in English."""
    kinds = set()
    for state, seat, log in boards_of_seeded_games():
        kinds.add(state["pending"][-1]["kind"] if state["pending"] else "over")
        view = engine.view(state, seat)
        for language in ("fr", "es"):
            with translation.override(language):
                context = presenter.view_context(GAME, view, READERS[: state["players"]])
                context.update(log=log, turn={}, message="")
                html = render_to_string("exlibris/board.html#board", context)
            assert_no_english_name(read(html), language, f"the board of seat {seat}")
    assert set(ABOUT) <= kinds, "every decision about an assistant or location is drawn"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_rules_page_names_nothing_in_english(language):
    """Every variant's rules page (its effects, powers and variant notes name tiles and
    assistants through names.py)."""
    client = Client(headers={"accept-language": language})
    for variant in engine.VARIANTS:
        page = client.get(f"/rules/exlibris/{variant}/")
        assert page.status_code == 200
        article = page.content.decode().split('<article class="rules"', 1)[1]
        assert_no_english_name(read(article.split("</article>", 1)[0]), language, variant)
