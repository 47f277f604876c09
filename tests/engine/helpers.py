"""Shared helpers for engine tests: scripted decks and driving a game by hand."""

import random

from games.engine import biblios
from games.engine.cards import CARD_IDS, GOLD_BY_VALUE

FIXED_GOLD = biblios.FIXED_GOLD_REMOVED


def scripted_deck(num_players: int, top: list[str]) -> list[str]:
    """A legal draw pile (R1) whose first cards are `top`, the rest filled in deck order.

    The fixed Gold of a 2- or 3-player game is left out of the fill, so the result is a pile
    some shuffle could have produced.
    """
    if len(set(top)) != len(top):
        raise ValueError("a card is named twice in the scripted top")
    keep_out = set(top)
    fixed = FIXED_GOLD[num_players]
    for value in (1, 2, 3):
        spare = [card for card in GOLD_BY_VALUE[value] if card not in keep_out]
        keep_out.update(spare[:fixed])
    fill = [card for card in CARD_IDS if card not in keep_out]
    deck = list(top) + fill
    return deck[: biblios.DRAW_PILE_SIZE[num_players]]


def scripted_game(num_players: int, top: list[str], **kwargs) -> biblios.State:
    """A new game whose draw pile starts with `top`; seat 0 starts unless told otherwise."""
    kwargs.setdefault("first_player", 0)
    kwargs.setdefault("seed", 1)
    return biblios.new_game(num_players, deck=scripted_deck(num_players, top), **kwargs)


def act(state: biblios.State, *moves) -> biblios.State:
    """Apply (seat, action) pairs in order, checking each is listed by legal_actions."""
    for seat, action in moves:
        assert action in biblios.legal_actions(state, seat) or action["type"] == "pay", (
            f"{action} not listed for seat {seat}: {biblios.legal_actions(state, seat)}"
        )
        state = biblios.apply_action(state, seat, action)
    return state


def random_playout(state: biblios.State, rng: random.Random, stop=None):
    """Play uniformly random legal actions; yields (state, seat, action) before each action.

    Stops at the end of the game or when `stop(state)` is true.
    """
    while biblios.to_act(state) and not (stop and stop(state)):
        seat = biblios.to_act(state)[0]
        action = rng.choice(biblios.legal_actions(state, seat))
        yield state, seat, action
        state = biblios.apply_action(state, seat, action)
    yield state, None, None


def play_randomly(state: biblios.State, rng: random.Random, stop=None) -> biblios.State:
    """The state reached by random legal play (to the end, or until `stop(state)`)."""
    for state, _, _ in random_playout(state, rng, stop):
        pass
    return state


def place(to: str) -> dict:
    return {"type": "place", "to": to}


def pick(card: str) -> dict:
    return {"type": "pick", "card": card}


def bid(amount: int) -> dict:
    return {"type": "bid", "amount": amount}


PASS = {"type": "pass"}
REFUSE = {"type": "refuse"}
DISCARD_CHURCH = {"type": "discard_church"}
