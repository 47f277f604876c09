"""The weight of the Ex Libris board beyond its budget over whole games
(tests/kinds/test_board_weight.py): how its multiplayer discard pile stays public and light."""

import random
import re

import pytest
from django.contrib.auth import get_user_model

from games.kinds.exlibris import bots, engine
from games.kinds.exlibris.card_faces import CODES
from games.kinds.exlibris.engine.cards import CARDS, CATEGORIES
from games.play import services

from .helpers import live_board, open_table

pytestmark = pytest.mark.django_db


def test_the_discard_pile_is_its_newest_cards_and_an_index_by_category():
    """X30: the whole multiplayer discard pile stays public on a light board: its count, its
    top card, its five newest cards as faces, and every card by name under each category it
    holds (what a Town Dump, X45, searches for)."""
    users = [
        get_user_model().objects.create_user(f"pile{i}", display_name=f"Pile {i}") for i in range(2)
    ]
    game = open_table(users, 2, seed=5)
    rng = random.Random(5)
    state = game.engine_state()
    while len(state["discard"]) < 12:
        seat = engine.to_act(state)[0]
        action = bots.choose("random", engine.view(state, seat), None, rng)
        services.submit_action(game.pk, users[seat], action, version=state["version"])
        game.refresh_from_db()
        state = game.engine_state()
    html = live_board(game, users[0])
    town = html[html.rindex('<section id="board-town"') :]
    town = town[: town.index("</section>")]
    pile = state["discard"]
    assert f"Discard pile: {len(pile)} cards" in town
    newest = town[
        town.index('class="xl-discard-newest"') : town.index(
            "</p>", town.index("xl-discard-newest")
        )
    ]
    assert re.findall(r'data-card="([^"]+)"', newest) == pile[:-6:-1]
    index = dict(
        re.findall(
            r'<span class="xl-category k-(\w+)">.*?</span> \(\d+\)</dt><dd>([^<]*)</dd>', town
        )
    )
    for card in pile:
        name = f"{CARDS[card].letter} {CARDS[card].ordinal}"
        for category in CATEGORIES:
            listed = name in index[CODES[category]].split(", ")
            assert listed == (category in CARDS[card].books), (card, category)
