"""The French and Spanish sentences read right, over the whole catalogue and with real values.

Every translation keeps its msgid's placeholders; French puts a space before « : ; ! ? » and
inside « »; Spanish opens its questions and exclamations; no French article is left
uncontracted (« à le », « de les », « grâce à points ») once the placeholders hold what the code
puts in them; a location named by any tile (no fixed one) is never glued to a preposition
without an article. Then the pages built from many pieces (a finished board, a whole replay log)
are read as a player reads them, in both languages.
"""

import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.engine import cards as biblios_cards
from games.engine.cards import CATEGORIES
from games.engine.exlibris.cards import CATEGORY_NAMES, LIBRARIES, LOCATIONS
from games.kinds.biblios import names as biblios_names
from games.kinds.biblios import presentation
from games.kinds.exlibris import names as exlibris_names
from tests.i18n.catalogue import read_po
from tests.play import make_users, play_to_end, started_game

PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")
LOCALE = Path(settings.BASE_DIR) / "locale"


def catalogue(language: str):
    return read_po(LOCALE / language / "LC_MESSAGES" / "django.po")


def translations(language: str):
    """(entry, msgstr) for every form of every entry."""
    return [(entry, text) for entry in catalogue(language) for text in entry.msgstr.values()]


def visible(text: str) -> str:
    """The words a reader sees: no tags, code, entities or addresses; a placeholder reads as a
    word."""
    text = re.sub(r"<code>.*?</code>|<[^>]+>", "x", text)
    text = re.sub(r"&\w+;|https?://\S+", "x", text)
    return PLACEHOLDER.sub("X", text)


# ------------------------------------------------------------------------ the catalogue


@pytest.mark.parametrize("language", ["fr", "es"])
def test_every_translation_keeps_the_placeholders_of_its_msgid(language):
    wrong = []
    for entry in catalogue(language):
        wanted = set(PLACEHOLDER.findall(entry.msgid + (entry.msgid_plural or "")))
        for text in entry.msgstr.values():
            if set(PLACEHOLDER.findall(text)) != wanted:
                wrong.append((entry.msgid, text))
    assert not wrong, wrong[:10]


# A character that needs a space before it in French, and what may stand after it.
FRENCH_SPACED = re.compile(r"[^\s\u00a0\u202f(][:;!?](?=\s|$|»|\))")


def test_french_puts_a_space_before_double_punctuation_and_inside_guillemets():
    wrong = []
    for _entry, text in translations("fr"):
        seen = visible(text)
        if FRENCH_SPACED.search(seen) or re.search(r"«\S|\S»", seen):
            wrong.append(text)
    assert not wrong, wrong[:10]


def test_spanish_opens_its_questions_and_exclamations():
    wrong = []
    for _entry, text in translations("es"):
        seen = re.sub(r"«\?»", "", visible(text))  # a mark quoted as a mark ("marked «?»")
        if seen.count("?") != seen.count("¿") or seen.count("!") != seen.count("¡"):
            wrong.append(text)
    assert not wrong, wrong[:10]


def _names(language: str) -> dict[str, list[str]]:
    """What the code puts in each name placeholder, in `language`: every printed name of the
    two games (the placeholders not listed hold a number here)."""
    with translation.override(language):
        editions = ("biblios", "scripts_and_scribes")
        categories = [biblios_names.category_label(c, e) for c in CATEGORIES for e in editions]
        categories += [exlibris_names.category(c) for c in CATEGORY_NAMES]
        steps = ["vp", "gold"] + [f"{c}_{what}" for c in CATEGORIES for what in ("total", "x")]
        return {
            "card": [biblios_names.card_label(c, e) for c in biblios_cards.CARDS for e in editions],
            "category": categories,
            "monks": [biblios_names.category_label("monks", e) for e in editions],
            "first": [biblios_names.category_label("monks", e) for e in editions],
            "gold": [biblios_names.gold_label()],
            "church": [biblios_names.church_label(e) for e in editions],
            "board": [biblios_names.dice_board_label(e) for e in editions],
            "on_step": [presentation.ahead_on_words(s, e) for s in steps for e in editions],
            "tile": [exlibris_names.location(t) for t in LOCATIONS],
            "library": [exlibris_names.library(lib) for lib in LIBRARIES],
        }


def rendered(entry, text: str, names: dict[str, list[str]]):
    """`text` with each name placeholder holding, in turn, every value the code may put there.
    A msgid naming its location or assistant with "the" ("at the %(tile)s") is about one fixed
    tile, whose gender its translation follows: those keep the first name only."""
    fields = set(PLACEHOLDER.findall(text))
    for field in fields & names.keys():
        fixed = f"the %({field})s" in entry.msgid
        for value in names[field][:1] if fixed else names[field]:
            values = {name: names[name][0] if name in names else 7 for name in fields}
            yield text % {**values, field: value}
    if not fields & names.keys():
        yield text % {name: 7 for name in fields}


UNCONTRACTED = {
    # (« de le dire », « à les voir »: a pronoun before a verb is no article.)
    "fr": re.compile(
        r"\b(?:à|de) les?\s(?!\w+(?:er|ir|re)\b)|\bgrâce à (?!la\b|l’|une?\b)[a-zà-ÿ]"
        r"|\bde [AEIOUÉÈÊŒ]\w"
    ),
    "es": re.compile(r"\b(?:a|de) el\s"),
}
# A name that carries its own capital article ("Le collectionneur", "El coleccionista") after a
# preposition: « chez Le collectionneur », « de El coleccionista ».
ARTICLE_IN_A_NAME = {
    "fr": re.compile(r"\b(?:à|de|du|au|sur|chez|par|dans|le|la) (?:Le|La|Les)\s"),
    "es": re.compile(r"\b(?:a|de|del|al|en|el|la) (?:El|La|Los|Las)\s"),
}


@pytest.mark.parametrize("language", ["fr", "es"])
def test_articles_contract_with_every_value_a_placeholder_takes(language):
    names = _names(language)
    wrong = []
    for entry, text in translations(language):
        for sentence in rendered(entry, text, names):
            seen = visible(sentence)
            if UNCONTRACTED[language].search(seen) or ARTICLE_IN_A_NAME[language].search(seen):
                wrong.append(sentence)
    assert not wrong, sorted(set(wrong))


# A preposition right before a location that may be any tile: it needs the tile's own article,
# which a translation cannot know, so it names the tile as "the location «…»".
BARE_TILE = {
    "fr": re.compile(r"\b(?:à|de|sur|chez|dans|par|en|depuis) %\(tile\)s"),
    "es": re.compile(r"\b(?:a|de|en|con|desde|por) %\(tile\)s"),
}


@pytest.mark.parametrize("language", ["fr", "es"])
def test_any_tile_is_named_with_an_article(language):
    wrong = [
        text
        for entry, text in translations(language)
        if "the %(tile)s" not in entry.msgid and BARE_TILE[language].search(text)
    ]
    assert not wrong, wrong


# ---------------------------------------------------------------------- pages read whole


def page_text(html: str) -> str:
    """A page's words as a reader sees them (no scripts, styles, tags or entities)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    text = text.replace("&nbsp;", " ").replace("&#x27;", "'").replace("&amp;", "&")
    return re.sub(r"\s+", " ", text)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "es"])
def test_a_finished_game_and_its_replay_read_right(django_user_model, language):
    """The finished board (ranking, tie-breaks, score) and the whole replay log, built from many
    translated pieces, read with the reader's punctuation and articles."""
    users = make_users(django_user_model, "reader", 2)
    game = play_to_end(started_game(users, 2, seed=17), random.Random(17))
    reader = Client(headers={"accept-language": language})
    reader.force_login(users[0])
    board = page_text(reader.get(f"/games/{game.pk}/").content.decode())
    replay = page_text(
        reader.get(f"/games/{game.pk}/replay/?as=open&move={game.version}").content.decode()
    )
    ahead = {"fr": "devant le joueur suivant grâce aux points de victoire", "es": "gracias a los"}
    assert ahead[language] in board
    for text in (board, replay):
        assert not re.findall(r".{20}[.!?] ?[;.].{10}", text)  # no ".;" where lines meet
        assert not UNCONTRACTED[language].search(text), UNCONTRACTED[language].search(text)
        if language == "fr":
            wrong = re.findall(r".{20}" + FRENCH_SPACED.pattern + r".{0,20}", text)
            assert not wrong, wrong[:5]
