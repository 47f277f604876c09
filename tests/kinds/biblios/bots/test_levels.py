"""Every level plays whole games at 2, 3 and 4 players, in both editions, only ever choosing
an action its own view lists (bots.choose is given nothing but that view and its memory)."""

import pytest

from benchmarks.arena import play_game
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.bots.novice import means

from .helpers import TINY_BUDGET

# Every level sits at every table size in both editions; seats differ from game to game.
TABLES = [
    (["novice", "abbot"], "biblios", {"medieval_bluff": True}),
    (["scholar", "novice"], "biblios", {}),
    (["abbot", "scholar"], "scripts_and_scribes", {}),
    (["novice", "scholar"], "scripts_and_scribes", {"forbid_uncoverable_bids": True}),
    (["scholar", "abbot", "novice"], "biblios", {}),
    (["abbot", "novice", "scholar"], "scripts_and_scribes", {}),
    (["novice", "scholar", "abbot", "novice"], "biblios", {"forbid_uncoverable_bids": True}),
    (["scholar", "novice", "scholar", "abbot"], "scripts_and_scribes", {}),
]


@pytest.mark.parametrize("seed, table", list(enumerate(TABLES)))
def test_bots_play_whole_games_with_listed_actions(seed, table):
    levels, edition, options = table
    refusals = []

    def watch(state, seat, view, action):
        assert action in view["legal_actions"], (levels[seat], action, view["legal_actions"])
        level = levels[seat]
        if action["type"] == "bid":
            assert action["amount"] <= means(view), f"{level} bid beyond its means"
        if action["type"] == "refuse" and len(view["legal_actions"]) > 1:
            refusals.append(level)

    state, timing = play_game(levels, seed, edition, TINY_BUDGET, options=options, watch=watch)
    assert state.phase == "over"
    assert biblios.result(state)["winners"]
    assert all(timing[level][0] > 0 for level in levels)
    assert refusals == [], "only the Abbot's search may consider a refusal, and it never should"
