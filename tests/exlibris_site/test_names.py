"""Ex Libris' names in each language the site speaks (names.py): the printed French, the data's
English, our Spanish renderings, and the variants' names."""

import json

import pytest
from django.utils import translation

from games.engine.exlibris import engine, setup
from games.engine.exlibris.cards import DATA_DIR
from games.kinds.exlibris import effects, names
from games.kinds.exlibris.kind import KIND

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
