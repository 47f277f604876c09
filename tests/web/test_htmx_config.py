"""htmx reads the first `htmx-config` meta of a page only, so each page has exactly one: the
base's, which keeps htmx within the Content-Security-Policy everywhere, extended on the game
page with the refusals it swaps in (their board or chat panel says why)."""

import json
import re
from html import unescape

import pytest

from games.tables import services
from tests.play import started_game

pytestmark = pytest.mark.django_db

META = re.compile(r"<meta name=\"htmx-config\" content='([^']*)'>")


def config_of(html: str) -> dict:
    found = META.findall(html)
    assert len(found) == 1, f"{len(found)} htmx-config metas"
    return json.loads(unescape(found[0]))  # as the browser reads the attribute


def swapped_codes(config: dict) -> set[str]:
    """The statuses of the refusals (4xx) the page swaps in, from its responseHandling."""
    swapped = set()
    for code in ("400", "403", "409", "429", "404", "500"):
        rule = next(r for r in config["responseHandling"] if re.fullmatch(r["code"], code))
        if rule["swap"] and not rule.get("error"):
            swapped.add(code)
    return swapped


def test_the_game_page_has_one_config_that_swaps_its_refusals(users, clients):
    game = started_game(users, 2)
    waiting = services.create_table(users[0], services.TableSettings(2))
    for url in (f"/games/{game.pk}/", f"/games/{waiting.pk}/"):
        config = config_of(clients[users[0].pk].get(url).content.decode())
        assert config["includeIndicatorStyles"] is False and config["allowEval"] is False
        assert swapped_codes(config) == {"400", "403", "409", "429"}


@pytest.mark.parametrize("url", ["/", "/history/", "/notifications/", "/friends/", "/learn/"])
def test_other_pages_keep_the_one_base_config(url, users, clients):
    config = config_of(clients[users[0].pk].get(url).content.decode())
    assert config == {
        "includeIndicatorStyles": False,
        "allowEval": False,
        "attributesToSettle": ["class", "width", "height"],  # never "style": the CSP refuses it
    }
