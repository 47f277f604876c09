"""Which locations the board draws open and which folded to their names: open where the reader's
game is (a placement it may make there, an assistant of its own there, the decision awaited
there), folded elsewhere; decided from the reader's view alone, so a fold tells nothing the view
does not (X77)."""

import random
import re

import pytest
from django.template.loader import render_to_string

from games.kinds.exlibris import engine, presenter

NAMES = ["Ada", "Bede", "Cuth"]
SEEDS = (3, 11)


def tiles_for(state, seat) -> list[dict]:
    return presenter.view_context(None, engine.view(state, seat), NAMES)["tiles"]


def mine_at(state, seat) -> set[str]:
    return {
        tile
        for tile, record in state["tiles"].items()
        if any(holder and holder["seat"] == seat for holder in record["slots"])
    }


def walk(seed: int):
    """Every state of a seeded three-player game of random legal moves."""
    state = engine.new_game(3, seed=seed)
    rng = random.Random(seed)
    while state["phase"] != "over":
        yield state
        seat = engine.to_act(state)[0]
        state = engine.apply_action(state, seat, rng.choice(engine.legal_actions(state, seat)))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_location_is_open_where_the_readers_game_is_and_folded_elsewhere(seed):
    folded = opened_for_pieces = 0
    for state in walk(seed):
        awaited = (engine.view(state, None)["pending"] or {}).get("tile")
        for seat in (0, 1, 2):
            legal = engine.legal_actions(state, seat) if seat in engine.to_act(state) else []
            named = {action.get(key) for action in legal for key in ("tile", "target")}
            for tile in tiles_for(state, seat):
                expected = tile["id"] in named | mine_at(state, seat) | {awaited}
                assert tile["open"] == expected, (state["version"], seat, tile["id"])
                if tile["placements"]:
                    assert tile["open"], "a placement's buttons are never folded away"
                folded += not tile["open"]
                opened_for_pieces += tile["open"] and not tile["placements"]
        # A spectator has no pieces nor moves: only the location the decision is about opens.
        for tile in tiles_for(state, None):
            assert tile["open"] == (tile["id"] == awaited)
    assert folded and opened_for_pieces, "the game never folded, or never opened for pieces"


def test_a_past_step_shows_every_location_open():
    """The replay viewer, the lesson and the inspector draw a step (`step_table`): a reader
    studying it has no decision there, and no script keeps their folds."""
    readers = (0, None, "all")
    state = next(
        state
        for state in walk(SEEDS[0])
        if all(not all(tile["open"] for tile in tiles_for(state, seat)) for seat in readers)
    )  # a live board would fold some location for each reader
    for seat in readers:
        context = presenter.view_context(None, engine.view(state, seat), NAMES)
        html = render_to_string("exlibris/board.html#step_table", context)
        folds = re.findall(r"<details data-fold=\"[^\"]+\"( open)?", html)
        assert len(folds) == len(context["tiles"]) and all(folds), (seat, folds)
