"""Honesty: a bot's decision is a function of its seat's view and its own memory only.

A hidden card the seat cannot know is swapped with another hidden card (another seat's hand
against the draw pile or the cards removed at setup): the seat's view stays the same, so every
level, given the same memory and random seed, decides the same. Views are plain JSON data, so
nothing else can ride along with them.
"""

import copy
import json
import random

import pytest

from games.kinds.biblios import bots
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.bots import abbot
from games.kinds.biblios.bots.memory import seen_cards

from .helpers import positions


def swapped(state: biblios.State, seat: int, memory: dict):
    """`state` with a card of another hand, unknown to `seat`, swapped with a hidden one."""
    known = seen_cards(biblios.view(state, seat))
    for other in range(state.num_players):
        if other == seat:
            continue
        secret = [
            card
            for card in state.hands[other]
            if card not in known and card not in memory["known"][other]
        ]
        pile = "draw_pile" if state.draw_pile else "removed"
        if secret:
            changed = biblios.loads(biblios.dumps(state))
            mine, theirs = secret[0], getattr(changed, pile)[-1]
            changed.hands[other] = [theirs if c == mine else c for c in changed.hands[other]]
            setattr(changed, pile, [mine if c == theirs else c for c in getattr(changed, pile)])
            return changed
    return None


def decisions(view: dict, memory: dict) -> list:
    """Each level's decision from this view, with a copy of the memory and a fixed seed."""
    made = [
        bots.choose(level, view, copy.deepcopy(memory), random.Random(7))
        for level in ("novice", "scholar")
    ]
    made.append(abbot.decide(view, copy.deepcopy(memory), random.Random(7), rounds=4))
    return made


@pytest.mark.parametrize("num_players, seed", [(2, 11), (3, 12), (4, 13)])
def test_a_hidden_card_the_bot_cannot_know_changes_nothing(num_players, seed):
    probed = 0
    for state, memories in positions(num_players, seed, every=23):
        seat = biblios.to_act(state)[0]
        changed = swapped(state, seat, memories[seat])
        if changed is None:
            continue
        assert changed.hands != state.hands
        view, other_view = biblios.view(state, seat), biblios.view(changed, seat)
        assert view == other_view
        assert decisions(view, memories[seat]) == decisions(other_view, memories[seat])
        probed += 1
    assert probed >= 3


def test_bots_decide_from_plain_json_data():
    state, memories = next(positions(3, 5, every=40))
    seat = biblios.to_act(state)[0]
    view = biblios.view(state, seat)
    plain_view = json.loads(json.dumps(view))
    plain_memory = json.loads(json.dumps(memories[seat]))
    assert decisions(plain_view, plain_memory) == decisions(view, memories[seat])
