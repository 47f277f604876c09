"""Random Ex Libris games at every player count and variant (X86, X89): they end, replay,
keep every card once (X3), show each seat only what it may know (X77), and refuse what they do
not list."""

import random

import pytest

from games.kinds.exlibris import engine as E
from games.kinds.exlibris.engine import IllegalAction
from games.kinds.exlibris.engine.cards import LIBRARIES

from .helpers import (
    GAMES,
    act,
    all_cards,
    check_view,
    only,
    placement_state,
    playout,
)


@pytest.mark.parametrize("players,variant,seed", GAMES)
def test_x86_x89_random_playouts_always_end(players, variant, seed):
    """X86, X89: random games at 1-4 players and every variant end; to_act is never answered
    by an empty list and others get none; §0's bounds hold; the result is defined; every card
    is still exactly once somewhere (X3)."""
    state, moves = playout(players, variant, seed)
    outcome = E.result(state)
    assert sorted(p["seat"] for p in outcome["players"]) == list(range(players))
    assert set(outcome["winners"]) <= set(range(players))
    cards = all_cards(state)
    assert len(cards) == len(set(cards)) == 152


@pytest.mark.parametrize(
    "players,variant,seed",
    [(1, "friendly", 3), (2, "standard", 1), (3, "long", 2), (4, "friendly+long", 5)],
)
def test_x86_replay_persistence_and_views_along_a_game(players, variant, seed):
    """X86: replay(setup_of(s), moves) == s; loads(dumps(s)) == s; steps resumes; applying an
    action leaves its input unchanged; X77: no view shows another seat's hand or focus, the deck
    or hidden tile cards, at any step."""
    state, moves = playout(players, variant, seed, check_views=True)
    assert E.replay(E.setup_of(state), moves) == state
    assert E.loads(E.dumps(state)) == state
    assert state.version == len(moves) and E.loads(E.dumps(state)).version == len(moves)
    half = len(moves) // 2
    middle = E.replay(E.setup_of(state), moves[:half])
    assert E.loads(E.dumps(middle)) == middle
    frozen = E.dumps(middle)
    E.apply_action(middle, *moves[half])
    assert E.dumps(middle) == frozen
    resumed = list(E.steps(E.setup_of(state), moves[half:], resume=middle))
    assert resumed[-1] == state and len(resumed) == len(moves) - half
    check_view(state, None)
    for seat in range(players):
        check_view(state, seat)
    assert E.view(state, "all")["deck"] == state["deck"]


@pytest.mark.parametrize("players,variant,seed", [(1, "standard", 4), (3, "standard", 6)])
def test_x77_redrawing_what_a_seat_cannot_know_leaves_its_view_unchanged(players, variant, seed):
    """X77 (the contract's non-interference check): dealing anew the deck, other hands, other
    foci, face-down tile cards, categories out and solo secrets changes nothing `seat` sees;
    after the game, open hands show every hand and focus."""
    state, moves = playout(players, variant, seed)
    rng = random.Random(seed)
    for k in range(0, len(moves), max(1, len(moves) // 12)):
        middle = E.replay(E.setup_of(state), moves[:k])
        for seat in [*range(players), None]:
            redrawn = E.redraw_hidden(middle, seat, rng)
            assert E.view(redrawn, seat) == E.view(middle, seat)
            assert E.events_for(redrawn, seat) == E.events_for(middle, seat)
            assert sorted(all_cards(redrawn)) == sorted(all_cards(middle))
        if players > 1 and middle["phase"] != "over":
            others = [c for r in middle["seats"][1:] for c in r["hand"]] + middle["deck"]
            changed = E.redraw_hidden(middle, 0, random.Random(1))
            assert [c for r in changed["seats"][1:] for c in r["hand"]] + changed["deck"] != others
    first = E.replay(E.setup_of(state), [])
    opened = E.open_hands_view([first, state], 0)
    spectator = E.view(first, None)
    assert {key: opened[key] for key in spectator} == spectator
    assert opened["open_hands"] == [r["hand"] for r in first["seats"]]
    assert opened["open_foci"] == [r["focus"] for r in first["seats"]]
    assert "open_hands" not in E.open_hands_view([first], 0)  # not before the end


def test_x86_illegal_actions_name_the_decision_rule():
    """X86: anything not in legal_actions raises IllegalAction naming the rule; a finished game
    refuses every action."""
    state = placement_state(players=2, seed=30)
    seat = only(state)
    for bad in (
        {"type": "place", "assistant": "standard", "target": "flea"},
        {"type": "place", "assistant": "special", "target": "attic"},
        {"type": "draw"},
        "place",
    ):
        with pytest.raises(IllegalAction, match="X20-X21"):
            act(state, seat, bad)
    finished, _ = playout(2, "standard", 30)
    with pytest.raises(IllegalAction, match="X67"):
        act(finished, 0, {"type": "done"})


def test_x86_same_setup_and_moves_same_game():
    """X86: chance comes from the seed only: two runs of one log give equal states, and a
    different seed gives a different deal."""
    a, moves = playout(3, "standard", 31)
    b = E.replay(E.setup_of(a), moves)
    assert E.dumps(a) == E.dumps(b)
    other = E.new_game(3, seed=32, variant="standard", options={})
    assert other["deck"] != E.new_game(3, seed=31, variant="standard", options={})["deck"]


def test_x53_every_special_assistant_joins_its_owners_supply():
    """X9, X53-X65: every power is implemented (POWERS holds all 12), so each drafted special
    assistant joins its owner's supply and is offered for placement beside the standard ones
    (a special assistant without its power would stay off the board: `_assistants`)."""
    assert frozenset(LIBRARIES) == E.POWERS
    state = placement_state(players=4, seed=33)
    for record in state["seats"]:
        assert record["special_assistant"] in LIBRARIES
        assert record["special_assistant"] in record["supply"]
    seat = only(state)
    assert {a["assistant"] for a in E.legal_actions(state, seat)} == {"standard", "special"}
