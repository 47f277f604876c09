"""The Ex Libris rules page (templates/exlibris/rules.html): every location, library and special
assistant by its name in the reader's language with its effect, each variant's changes, the
numbers the engine plays by."""

import re
from html import unescape

import pytest
from django.test import Client
from django.utils import translation

from games.kinds.exlibris import effects, engine, names
from games.kinds.exlibris.engine import setup
from games.kinds.exlibris.engine.cards import LIBRARIES, LOCATIONS

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "fr", "es")


def rules_page(variant: str = "standard", language: str = "en") -> str:
    response = Client(headers={"accept-language": language}).get(f"/rules/exlibris/{variant}/")
    assert response.status_code == 200
    return response.content.decode()


def text_of(html: str) -> str:
    article = html.split('<article class="rules"', 1)[1].split("</article>", 1)[0]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", article)).split())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_location_and_assistant_is_named_in_the_readers_language(language):
    """X4, X5, X35-X65: the standard page lists all 18 tiles and 12 special assistants with their
    effects, and the six categories (X2), each as that language names it."""
    text = text_of(rules_page(language=language))
    with translation.override(language):
        expected = (
            [names.location(tile) for tile in LOCATIONS]
            + [names.assistant(library) for library in LIBRARIES]
            + [names.library(library) for library in LIBRARIES]
            + [names.category(category) for category in names.CATEGORY_NAMES]
            + [effects.location_effect(tile) for tile in LOCATIONS]
            + [effects.assistant_power(library) for library in LIBRARIES]
        )
    missing = [name for name in expected if " ".join(name.split()) not in text]
    assert not missing


def test_the_default_rules_address_is_the_standard_game():
    page = Client().get("/rules/exlibris/")
    assert page.status_code == 200
    assert 'data-variant="standard"' in page.content.decode()


@pytest.mark.parametrize("language, absent", [("fr", "Draw 1 card for each"), ("es", "Rules of")])
def test_the_page_is_translated(language, absent):
    text = text_of(rules_page(language=language))
    assert absent not in text
    assert {"fr": "Préparation", "es": "Preparación"}[language] in text


@pytest.mark.parametrize("variant", engine.VARIANTS)
def test_every_variant_has_its_page_and_links_to_the_others(variant):
    html = rules_page(variant)
    for other in engine.VARIANTS:
        if other != variant:
            assert f'href="/rules/exlibris/{other}/"' in html
    assert 'aria-current="page"' in html
    assert "style=" not in html and "<script>" not in html  # the CSP allows neither


def location_headings(html: str) -> set[str]:
    return set(re.findall(r'id="location-([a-z_]+)"', html))


def test_variant_pages_drop_what_the_variant_removes():
    """X78: the beginner variant removes tiles 3, 7, 8, 9, 15, 17 and every power; X79: the
    friendly variant removes tiles 3, 7, 15, 16 and four libraries."""
    everything = set(LOCATIONS)
    numbers = {tile: LOCATIONS[tile].number for tile in LOCATIONS}
    beginner = rules_page("beginner")
    assert {numbers[t] for t in everything - location_headings(beginner)} == {3, 7, 8, 9, 15, 17}
    assert 'id="assistant-' not in beginner
    friendly = rules_page("friendly")
    assert {numbers[t] for t in everything - location_headings(friendly)} == {3, 7, 15, 16}
    assert set(re.findall(r'id="assistant-([a-z]+)"', friendly)) == set(LIBRARIES) - {
        "goblin",
        "cube",
        "snowman",
        "wisp",
    }
    both = rules_page("beginner+friendly+long")
    assert {numbers[t] for t in everything - location_headings(both)} == {3, 7, 8, 9, 15, 16, 17}
    assert location_headings(rules_page("long")) == everything


def test_the_page_says_the_numbers_the_engine_plays_by():
    """X67, X80: the end thresholds; X9, X11, X82-X85: assistants, hand, solo rounds and
    difficulties."""
    assert setup.END_THRESHOLD == {2: 16, 3: 14, 4: 12}
    assert setup.LONG_END_THRESHOLD == {2: 19, 3: 17, 4: 15}
    assert (setup.HAND_SIZE, setup.STANDARD_ASSISTANTS, setup.BEGINNER_STANDARD_ASSISTANTS) == (
        6,
        2,
        3,
    )
    assert setup.SOLO_ROUNDS == 5 and setup.SOLO_STANDARD_ASSISTANTS == 3
    standard = text_of(rules_page())
    assert "at least 16 / 14 / 12 cards in their bookshelf" in standard
    assert "Each player is dealt 6 book cards" in standard
    assert "2 standard assistants of their colour" in standard
    assert "you play 5 rounds against the Public Library" in standard
    assert "The end comes at 19, 17 or 15 shelved cards" in standard
    for level, name in setup.SOLO_DIFFICULTIES.items():
        count = "card" if level == 1 else "cards"
        assert f"{name['en']}: {level} {count}" in standard
    assert "at least 19 / 17 / 15 cards in their bookshelf" in text_of(rules_page("long"))
    assert "Each player takes 3 standard assistants" in text_of(rules_page("beginner"))


def test_location_facts_come_from_the_data():
    """X4: timing, setup cards and slots per player count, as locations.json says."""
    text = text_of(rules_page())
    assert "3. Auction House delayed · 3 cards face up · 4 bid slots" in text
    assert "13. Mysterious Cabin instant · 4 cards face down · slots: 1 / 1 / 1 · solo" in text
    assert "7. Gambling Den instant · no cards · slots: 2 / 3 / 4 Every arrival" in text
