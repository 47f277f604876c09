"""The rules page says what the engine does: the random removals per player count (R1), a kept
church card using the keeper's own slot (R4), the active player passing left after each
auction card (R9), and what the uncoverable-bids option does (R13, docs/engine.md "Bid cap")."""

import re
from html import unescape

import pytest
from django.test import Client

from games.kinds.biblios.engine import FIXED_GOLD_REMOVED, RANDOM_REMOVED

pytestmark = pytest.mark.django_db


def rules_text(edition: str, language: str = "en") -> str:
    html = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/rules/biblios/{edition}/")
    assert html.status_code == 200
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html.content.decode())).split())


@pytest.mark.parametrize("edition", ["biblios", "scripts_and_scribes"])
def test_the_rules_page_tells_what_the_engine_does(edition):
    text = rules_text(edition)
    assert FIXED_GOLD_REMOVED == {2: 2, 3: 1, 4: 0} and RANDOM_REMOVED == {2: 21, 3: 12, 4: 7}
    assert "cards drawn at random: 21 with two players, 12 with three, 7 with four" in text
    church = "Church" if edition == "biblios" else "Bishop"
    assert (
        f"A {church} card you keep for yourself is used at once and takes your face-down slot"
        in text
    )
    assert (
        "After each card, the player on the left of the active player becomes the active player"
        in text
    )
    assert "not checked against your hand" not in text
    assert "You may bid more than you can pay" in text
    assert "“Forbid bids a player cannot cover” offers only the bids you can pay" in text


@pytest.mark.parametrize(
    "language, words",
    [
        ("fr", ["21 à deux joueurs, 12 à trois, 7 à quatre", "Interdire les enchères"]),
        ("es", ["21 con dos jugadores, 12 con tres, 7 con cuatro", "Prohibir las pujas"]),
    ],
)
def test_the_new_rules_are_translated(language, words):
    text = rules_text("biblios", language)
    for phrase in words:
        assert phrase in text
    assert "You may bid" not in text and "After each card" not in text
