"""Numbers drawn into SVG are machine numbers in every language: a French or Spanish page must
not write a coordinate "16,0" (the browser rejects the attribute and logs an error)."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from ratings.services import rate_game
from tests.ratings.conftest import finished_rows

pytestmark = pytest.mark.django_db

SVG = re.compile(r"<svg\b.*?</svg>", re.S)
ATTRIBUTE = re.compile(r'\s([a-zA-Z][a-zA-Z0-9-]*)="([^"]*)"')
# Attributes whose whole value is one number.
NUMBER_ATTRIBUTES = {
    "x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "dx", "dy", "width", "height",
    "stroke-width", "font-size", "opacity",
}  # fmt: skip
NUMBER = r"-?\d+(?:\.\d+)?"
POINTS = re.compile(rf"{NUMBER},{NUMBER}(?:\s+{NUMBER},{NUMBER})*")
VIEW_BOX = re.compile(rf"{NUMBER}(?:\s+{NUMBER}){{3}}")


def svg_number_problems(html: str) -> list[str]:
    """Every numeric attribute of the page's SVG that is not a plain (dot-decimal) number."""
    problems = []
    for drawing in SVG.findall(html):
        for name, value in ATTRIBUTE.findall(drawing):
            if name in NUMBER_ATTRIBUTES and value != "100%":
                if not re.fullmatch(NUMBER, value):
                    problems.append(f'{name}="{value}"')
            elif name == "points" and not POINTS.fullmatch(value.strip()):
                problems.append(f'points="{value}"')
            elif name == "viewBox" and not VIEW_BOX.fullmatch(value.strip()):
                problems.append(f'viewBox="{value}"')
    return problems


@pytest.fixture
def rated_player(players):
    """Ada, with rated games whose changes have decimals (her chart's points have some too)."""
    ada, basil, clio = players[:3]
    for places in ([1, 2, 3], [3, 1, 2], [2, 3, 1], [1, 2, 3]):
        rate_game(finished_rows([ada, basil, clio], places))
    return ada


def test_the_checker_catches_a_decimal_comma():
    page = '<svg viewBox="0 0 320 160"><line y1="16,0"/><polyline points="44,0,92,7"/></svg>'
    assert svg_number_problems(page) == ['y1="16,0"', 'points="44,0,92,7"']


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_the_profiles_rating_chart_writes_plain_numbers(client, rated_player, language):
    with translation.override(language):
        url = reverse("accounts:profile", args=[rated_player.username])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<html lang="{language}"' in html
    assert '<svg class="rating-chart"' in html
    assert re.search(r'points="[^"]*\.\d', html), "the chart should have decimal coordinates"
    assert svg_number_problems(html) == []


@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_leaderboard_writes_plain_numbers(client, rated_player, language):
    client.force_login(rated_player)
    html = client.get(reverse("ratings:leaderboard"), HTTP_ACCEPT_LANGUAGE=language).content
    html = html.decode()
    assert f'<html lang="{language}"' in html and "Ada" in html
    assert svg_number_problems(html) == []
