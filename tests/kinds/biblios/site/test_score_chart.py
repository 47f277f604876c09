"""The end-of-game score chart: every category's name fits under its bars without touching its
neighbours or the chart's edges, in every language and edition and at every table size; each
player's mark on the bars is their own; and the SVG's numbers are never written the reader's way.
"""

import random
import re

import pytest
from django.utils import translation

from games.access import Visitor
from games.kinds.biblios import presentation
from games.kinds.biblios.engine import scoring
from games.play import rendering
from tests.play import play_to_end, started_game

# The label's bold 8.5px (board.css .chart-label) is at most 0.7 of its size a letter wide on
# average in the page's fonts for our names (DejaVu Sans Bold: "Iluminadores" 62.6px, 0.61).
LETTER_PX = 0.7 * 8.5
GAP_PX = 4

COORDINATES = re.compile(r'\s(x|y|x1|x2|y1|y2|width|height|dy)="([^"]*)"')
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
VIEW_BOX = re.compile(r'viewBox="([^"]*)"')

HANDS = [["monks-A", "pigments-A"], ["holy_books-A"], ["manuscripts-A"], ["forbidden_tomes-A"]]


def result_for(players: int) -> dict:
    return scoring.score(HANDS[:players], [3] * 5)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("edition", ["biblios", "scripts_and_scribes"])
@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_every_category_name_fits_under_its_bars(language, edition, players):
    names = ["Ada", "Basil", "Cyril", "Dora"][:players]
    with translation.override(language):
        chart = presentation.score_chart(result_for(players), names, edition)
    room = []  # (left edge, right edge) each label line needs, centred under its group
    for group in chart["groups"]:
        assert " ".join(group["label_lines"]) == group["name"]
        half = max(len(line) for line in group["label_lines"]) * LETTER_PX / 2
        room.append((group["center"] - half, group["center"] + half))
    assert room[0][0] >= 0 and room[-1][1] <= chart["width"], (room, chart["width"])
    for (_, right), (left, _) in zip(room, room[1:], strict=False):
        assert left - right >= GAP_PX, f"{language} {edition}: names meet: {room}"


def test_the_longest_names_are_the_ones_the_test_measures():
    """The first Scripts & Scribes category has the longest names under the chart."""
    longest = {}
    for language in ("en", "fr", "es"):
        with translation.override(language):
            chart = presentation.score_chart(result_for(2), ["A", "B"], "scripts_and_scribes")
        longest[language] = chart["groups"][0]["label_lines"]
    assert longest == {"en": ["Illuminators"], "fr": ["Enlumineurs"], "es": ["Iluminadores"]}


@pytest.mark.parametrize(
    "names, marks",
    [
        (["Ada", "Basil", "Cyril"], ["A", "B", "C"]),
        (["Alice", "Bob", "Anna"], ["Al", "Bo", "An"]),
        (["Brother 0", "Brother 1", "Sister"], ["1", "2", "3"]),
        (["ann", "Ann"], ["1", "2"]),
    ],
)
def test_each_player_has_their_own_mark_on_the_bars_and_in_the_legend(names, marks):
    chart = presentation.score_chart(result_for(len(names)), names, "biblios")
    assert [entry["initial"] for entry in chart["legend"]] == marks
    for group in chart["groups"]:
        assert [bar["initial"] for bar in group["bars"]] == marks
    assert [entry["name"] for entry in chart["legend"]] == names


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_score_section_writes_plain_numbers_in_french_and_spanish(users, language):
    game = play_to_end(started_game(users, 3, seed=21), random.Random(5))
    with translation.override(language):
        html = rendering.board_html(game, Visitor.of(game, users[0]), oob=False)
    score = html.split('id="board-score"', 1)[1].split('id="board-log"', 1)[0]
    drawings = re.findall(r"<svg\b.*?</svg>", score, re.S)
    assert drawings
    for drawing in drawings:
        for name, value in COORDINATES.findall(drawing):
            assert NUMBER.fullmatch(value), f'{name}="{value}"'
        for box in VIEW_BOX.findall(drawing):
            assert all(NUMBER.fullmatch(number) for number in box.split()), box
        assert not re.search(r'="[^"]*\d,\d[^"]*"', drawing), drawing
