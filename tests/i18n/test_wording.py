"""The French and Spanish sentences read right, over the whole catalogue and with real values.

Every translation keeps its msgid's placeholders; French puts a space before « : ; ! ? » and
inside « »; Spanish opens its questions and exclamations; no French article is left
uncontracted (« à le », « de les », « grâce à points ») once the placeholders hold what the code
puts in them; a location named by any tile (no fixed one) is never glued to a preposition
without an article. Then the pages built from many pieces (a finished board, a whole replay log)
are read as a player reads them, in both languages.
"""

import html
import random
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.kinds.biblios import names as biblios_names
from games.kinds.biblios import presentation
from games.kinds.biblios.engine import cards as biblios_cards
from games.kinds.biblios.engine.cards import CATEGORIES
from games.kinds.exlibris import names as exlibris_names
from games.kinds.exlibris import presenter as exlibris_presenter
from games.kinds.exlibris import prompts as exlibris_prompts
from games.kinds.exlibris.engine.cards import CATEGORY_NAMES, LIBRARIES, LOCATIONS
from games.kinds.exlibris.templatetags import exlibris_board
from tests.i18n.catalogue import read_po
from tests.play import make_users, play_to_end, started_game

PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]")
# The engine's assistants: every library's special one and a standard one.
ASSISTANT_IDS = [*LIBRARIES, "standard-1"]
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
            **_assistant_forms(),
        }


def _assistant_forms() -> dict[str, list[str]]:
    """Every way the code names an Ex Libris assistant (special or standard), by placeholder
    (its owner's name, any player's, is not what these tests read)."""
    forms = [exlibris_names.assistant_forms(assistant, owner="Bob") for assistant in ASSISTANT_IDS]
    return {key: [form[key] for form in forms] for key in forms[0]}


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


# ------------------------------------------------------ Ex Libris' assistants and their articles

# A placeholder that holds an assistant's name with its article (« la Momie », « au Trasgo »).
ARTICLE_FORM = r"%\((?:to_|of_)?(?:the|owners)_assistant\)s"
# An article or a preposition that the form already holds, written before it by a translation.
DOUBLED = {
    "fr": re.compile(r"(?:\b(?:le|la|les|du|au|aux|de|à)\s|\bl’|\bd’)" + ARTICLE_FORM, re.I),
    "es": re.compile(r"\b(?:el|la|los|las|del|al|de|a)\s" + ARTICLE_FORM, re.I),
}


@pytest.mark.parametrize("language", ["fr", "es"])
def test_no_translation_writes_an_article_before_an_assistant_that_has_one(language):
    wrong = [text for _entry, text in translations(language) if DOUBLED[language].search(text)]
    assert not wrong, wrong


# Each special assistant's article, as the printed French rules write it (« la Momie », « l’Automate
# est placé », « le Gobelin sournois ») and by the gender of our Spanish names: written here, not
# read from names.py, so a wrong table there fails.
FEMININE = {"mummy", "witch"}
ELIDED_IN_FRENCH = {"automaton"}
# What may stand right before a special assistant's name in a sentence: its article (alone or
# contracted with à/de), a possessive, an opening guillemet, or nothing (a label: "Momie : …").
ARTICLES_BEFORE = {
    "en": {"m": r"the|your|\w+'s", "f": r"the|your|\w+'s"},
    "fr": {"m": r"le|au|du|votre", "f": r"la|votre", "elided": r"l’|votre"},
    "es": {"m": r"el|al|del|tu|su", "f": r"la|tu|su"},
}
# The standard assistant, one of several alike: "an assistant", « un Assistant », « un ayudante ».
STANDARD = {
    "en": ("assistant", r"an|your|\w+'s"),
    "fr": ("Assistant", r"un|votre"),
    "es": ("ayudante", r"un|tu|su"),
}


def _gender(language: str, assistant: str) -> str:
    if language == "fr" and assistant in ELIDED_IN_FRENCH:
        return "elided"
    return "f" if assistant in FEMININE else "m"


# Nothing but a guillemet: a library is named as « la Bibliothèque « … » » / «la biblioteca «…»»
# (its own article would be the name's gender, which the sentence does not know).
QUOTED_ONLY = r"(?!)"


def misnamed(text: str, language: str, standard: bool = False) -> list[str]:
    """Where `text` names a special assistant (or, with `standard`, the standard one) with no
    article, or with one of the wrong gender: « placez Momie », « le Momie », « el Bruja »; or,
    in French and Spanish, a library bare: « Vous prenez Pyramide de la prose »."""
    wanted = [
        (exlibris_names.assistant(a), ARTICLES_BEFORE[language][_gender(language, a)])
        for a in LIBRARIES
    ]
    if standard:
        wanted.append(STANDARD[language])
    if language != "en":
        wanted += [(exlibris_names.library(library), QUOTED_ONLY) for library in LIBRARIES]
    wrong = []
    for name, articles in wanted:
        for found in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text):
            before = text[: found.start()]
            if not re.search(rf"(?:^|(?<!\w)(?:{articles})\s?|«\s?)$", before, re.I):
                wrong.append(text[max(0, found.start() - 25) : found.end()])
    return wrong


def _words(line) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", str(line)))


# The log lines that name any assistant the event carries, special or standard.
ANY_ASSISTANT = ("placed", "returned", "moved_home", "guild_move")


def _log_lines(assistant: str):
    """(event type, line) for every log line, as each of two seats reads it, about `assistant`
    wherever an event names one: a placement on a location and on a library, Bob's or Carla's."""
    for kind in exlibris_board.LINES:
        for seat in (0, 1):
            for target in ("hut", "library"):
                event = {
                    "type": kind,
                    "seat": seat,
                    "assistant": assistant,
                    "target": target,
                    "tile": "hut",
                    "owner": 1 - seat,
                    "victim": 1 - seat,
                    "to": 1 - seat,
                    "category": "reference_texts",
                    "library": assistant if assistant in LIBRARIES else "mummy",
                }
                context = {"names": ["Bob", "Carla"], "me": 0}
                yield kind, _words(exlibris_board.log_line(context, event))


def _decisions():
    """Every prompt (Bob asked, Carla the owner of the assistant or the seller), every "now: …"
    of a waiting seat in the banner's sentence, and every button naming an assistant."""
    fields = {"owner": 1, "to": 1, "seller": 1, "tile": "hut", "category": "reference_texts"}
    for kind in exlibris_prompts.PROMPTS:
        yield exlibris_presenter._prompt({"pending": {"kind": kind, **fields}}, ["Bob", "Carla"])
    for kind in exlibris_prompts.DOING:
        view = {
            "phase": "placement",
            "solo": None,
            "round": 2,
            "final_round": False,
            "seat": 0,
            "to_act": [1],
            "legal_actions": [],
            "pending": {"kind": kind},
        }
        yield exlibris_presenter._banner(view, ["Bob", "Carla"])["text"]
    yield from (str(words) for words in exlibris_presenter.PLAIN.values())


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_every_ex_libris_sentence_names_an_assistant_with_its_own_article(language):
    """« Vous placez la Momie », « Colocas el Trasgo taimado », « La Momie de Carla revient »,
    « réponde au Cube », never « le Momie », « placez Momie » nor « à le », « de el »."""
    wrong = []
    with translation.override(language):
        for assistant in ASSISTANT_IDS:
            name = (
                STANDARD[language][0]
                if assistant.startswith("standard-")
                else exlibris_names.assistant(assistant)
            )
            for kind, line in _log_lines(assistant):
                named = misnamed(line, language, standard=assistant.startswith("standard-"))
                if kind in ANY_ASSISTANT and not re.search(rf"(?<!\w){re.escape(name)}", line):
                    named.append(f"{line} (no {name})")
                wrong += named
                if language != "en" and UNCONTRACTED[language].search(line):
                    wrong.append(line)
        for sentence in _decisions():
            wrong += misnamed(sentence, language)
            if language != "en" and UNCONTRACTED[language].search(sentence):
                wrong.append(sentence)
    assert not wrong, sorted(set(wrong))


# What a waiting seat is doing follows « doit » / « debe »: an infinitive.
INFINITIVE_AFTER = {
    "fr": re.compile(r"\bdoit (\w+)"),
    "es": re.compile(r"\bdebe (\w+)"),
}


@pytest.mark.parametrize("language", ["fr", "es"])
def test_what_a_waiting_seat_is_doing_reads_as_an_infinitive(language):
    """« En attente : Bob doit répondre au Cube gélatineux », not « doit réponde »."""
    with translation.override(language):
        verbs = [
            INFINITIVE_AFTER[language].search(sentence).group(1)
            for sentence in _decisions()
            if INFINITIVE_AFTER[language].search(sentence)
        ]
    assert len(verbs) == len(exlibris_prompts.DOING)
    endings = ("er", "ir", "re") if language == "fr" else ("ar", "er", "ir", "arse", "erse", "irse")
    assert [verb for verb in verbs if not verb.endswith(endings)] == []
