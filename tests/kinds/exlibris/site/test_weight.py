"""The weight of the Ex Libris board: the game page's HTML and every board push a player's
socket receives, over whole games, within the budget of its player count.

Each game is played to the scored end through the services, every seat a person whose moves a
bot chooses (greedy and random seats: random ones hoard cards, the heaviest boards). After every
move the seats asked something get their push as the consumer renders it (the move buttons are
much of a board's weight), every seat its push every few moves and at the end, and the acting
seat loads the game page every few moves and at the end. Bytes are the UTF-8 bytes of the HTML,
as the socket frame or the document carries it (uncompressed). The first board over the budget
fails the game at once.

The budget: Biblios' 30 KB alone, 48 KB with 2–4 players. A multiplayer board draws
every seat's bookshelf (up to four of ~20 cards, each card's books as symbols), the locations'
cards, a hand of up to 30 and, at the end, each player's form and a chart: about three times the
cards of a Biblios board, already drawn as lightly as the look allows (the other seats' shelves
without spoken names, their books counted once; turned-down cards and final hands by name; move
buttons' JSON unescaped). Measured peaks: docs/performance.md.
"""

import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.kinds.exlibris import bots, engine
from games.kinds.exlibris.card_faces import CODES
from games.kinds.exlibris.engine.cards import CARDS, CATEGORIES
from games.play import services

from .helpers import live_board, open_table

pytestmark = pytest.mark.django_db

KB = 1024
SOLO_BUDGET = 30 * KB
BUDGET = 48 * KB
# Every seat's push and the page are weighed every this many moves (and at the end).
EVERY_SEAT_EVERY = 10


def play_a_whole_game_within_the_budget(players: int, seed: int) -> None:
    """Play one seeded game to its end, weighing pushes and pages as it goes."""
    users = [
        get_user_model().objects.create_user(f"weigh{seed}-{i}", display_name=f"Reader {seed}-{i}")
        for i in range(players)
    ]
    browsers = []
    for user in users:
        browser = Client()
        browser.force_login(user)
        browsers.append(browser)
    table = {"options": {"difficulty": 3}} if players == 1 else {}
    game = open_table(users, players, seed=seed, **table)
    rng = random.Random(seed)
    levels = ["greedy" if seat % 2 == 0 else "random" for seat in range(players)]
    budget = SOLO_BUDGET if players == 1 else BUDGET
    state = game.engine_state()
    while state["phase"] != "over":
        seat = engine.to_act(state)[0]
        action = bots.choose(levels[seat], engine.view(state, seat), None, rng)
        services.submit_action(game.pk, users[seat], action, version=state["version"])
        game.refresh_from_db()
        state = game.engine_state()
        over = state["phase"] == "over"
        every_seat = over or state["version"] % EVERY_SEAT_EVERY == 0
        for reader in range(players) if every_seat else engine.to_act(state):
            size = len(live_board(game, users[reader]).encode())
            assert size < budget, (
                f"{players} players, seed {seed}: seat {reader}'s push at v{state['version']}"
                f" is {size / KB:.1f} KB"
            )
        if every_seat:
            reader = 0 if over else engine.to_act(state)[0]
            size = len(browsers[reader].get(f"/games/{game.pk}/").content)
            assert size < budget, (
                f"{players} players, seed {seed}: seat {reader}'s page at v{state['version']}"
                f" is {size / KB:.1f} KB"
            )


@pytest.mark.slow(seconds=12)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_the_page_and_every_push_stay_within_the_budget_over_whole_games(players):
    """X30, X83: the multiplayer discard pile stays public on the board (its count, newest
    cards and an index by category) without a face per card; solo shows its top card only."""
    for seed in (players, 10 + players):
        play_a_whole_game_within_the_budget(players, seed)


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
