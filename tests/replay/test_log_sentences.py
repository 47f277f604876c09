"""The log lines of one move read as sentences one after the other, in every language: a line
that ends a sentence keeps its stop, the others get one, and nothing doubles (".;", "..")."""

import re

import pytest
from django.test import Client
from django.utils import translation

from games.play import wording

from .conftest import finished_game
from .test_replay import url

pytestmark = pytest.mark.django_db


def test_a_line_that_ends_a_sentence_is_not_given_a_second_stop():
    joined = wording.sentences(["The game began with 2 players; Bob starts.", "Bob drew a card"])
    assert joined == "The game began with 2 players; Bob starts. Bob drew a card."


def test_lines_ending_in_markup_or_a_question_keep_their_own_end():
    chip = '<span class="card">Gold 3</span>'
    joined = wording.sentences([f"You drew {chip}", "Where does it go?", "« Fin. »", "  "])
    assert joined == f"You drew {chip}. Where does it go? « Fin. »"


def test_the_label_colon_is_the_readers():
    with translation.override("fr"):
        assert wording.labelled("Coup 3", "Ada a pioché") == "Coup 3 : Ada a pioché"
    with translation.override("es"):
        assert wording.labelled("Jugada 3", "Ada robó") == "Jugada 3: Ada robó"


def log_text(html: str) -> str:
    log = html[html.index('<section class="region replay-log"') :]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", log))


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_the_replay_log_has_no_doubled_punctuation(users, language):
    game = finished_game(users, 3, 21)
    reader = Client(headers={"accept-language": language})
    reader.force_login(users[0])
    html = reader.get(url(game, move=game.version)).content.decode()
    assert f'lang="{language}"' in html
    text = log_text(html)
    doubled = re.findall(r".{30}[.!?] ?[;,.:].{10}", text)
    assert not doubled, doubled[:5]
    # Every move's lines end with a stop: one sentence per line, none left open.
    moves = re.findall(r"(?:Move|Coup|Jugada) \d+ ?:(.*?)(?=(?:Move|Coup|Jugada) \d+ ?:|$)", text)
    assert len(moves) >= game.version - 1
    assert all(move.strip()[-1] in ".!?" for move in moves), [m for m in moves if m][:3]
