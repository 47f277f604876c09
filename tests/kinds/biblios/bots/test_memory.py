"""A bot's memory: what the game log showed its seat, and nothing it was not shown."""

import random

from games.kinds.biblios import bots
from games.kinds.biblios import engine as biblios

from .helpers import positions


def test_memory_follows_cards_into_hands_and_counts_unseen_departures():
    for state, memories in positions(3, 31, every=5):
        given_face_down = [0, 0, 0]
        for _, knowers in state.hidden_discard:
            given_face_down[knowers[0]] += 1
        for observer, memory in enumerate(memories):
            for seat in range(3):
                if seat == observer:
                    continue
                # Scholars never default, so a card leaves a hand unseen only as a Gold payment.
                assert set(memory["known"][seat]) <= set(state.hands[seat]) | {
                    card for card, _ in state.hidden_discard
                }
                assert memory["lost"][seat] == given_face_down[seat]


def test_memory_learns_each_action_once():
    state = biblios.new_game(2, seed=4, first_player=0)
    state = biblios.apply_action(state, 0, {"type": "place", "to": "public"})
    state = biblios.apply_action(state, 0, biblios.legal_actions(state, 0)[0])
    state = biblios.apply_action(state, 0, biblios.legal_actions(state, 0)[0])
    (card,) = state.public_space
    state = biblios.apply_action(state, 1, {"type": "pick", "card": card})
    memory = bots.new_memory(0, 2)
    seen = {"version": state.version, "events": biblios.events_for(state, 0)}
    bots.observe(memory, seen)
    bots.observe(memory, seen)  # the same view shown twice
    bots.observe(memory, {"version": 1, "events": seen["events"]})  # an older one
    assert memory["known"] == [[], [card]]


def test_a_bot_without_memory_still_plays_from_its_view():
    for state, _ in positions(4, 32, every=37):
        seat = biblios.to_act(state)[0]
        view = biblios.view(state, seat)
        for level in bots.LEVELS:
            action = bots.choose(level, view, None, random.Random(3), budget_s=0.01)
            assert action in view["legal_actions"]
