"""What a game review asks of Biblios' bots: the moves worth comparing at a decision, and the
final place each would bring its seat, judged from that seat's view and memory only.

The measure is the expected final place (1 the best; a shared place counts as that place): in a
heads-up game it is one plus the chance of losing, the measure chess sites grade by. Each action
is applied in the same worlds sampled from the seat's view and memory (`abbot.sampled_world`, the
Abbot's own: other hands favour the cards players keep) and played out to the end by the same
policies as the Abbot's playouts (the seat with the Abbot's weights, the others the Scholar's),
so the differences between actions, which grades read, are far steadier than the places.
"""

import random

from games.kinds.biblios import engine as biblios

from . import abbot
from .memory import Knowledge
from .playout import Playout
from .valuation import SCHOLAR, outlook_from_view

ALL_OF = 6  # a decision with at most this many legal moves compares every one of them


def review_moves(view: dict, memory: dict | None, rng: random.Random) -> list[dict]:
    """The moves a review compares at this decision, the Abbot's first idea first: every legal
    move when there are few, else the ones the Abbot searches (every pick and payment, pass or
    the lowest raise, the best church uses, the cards it would most readily give)."""
    legal = view["legal_actions"]
    if len(legal) < 2:
        return []
    mine = abbot.ABBOT_STYLES[view["num_players"]]
    if len(legal) <= ALL_OF:
        first = abbot.greedy_move(view, memory, rng, mine)
        return [first] + [action for action in legal if action != first]
    return abbot.searched_moves(view, memory, rng, mine)


def sampled_world(view: dict, memory: dict | None, rng: random.Random) -> biblios.State:
    """One world the seat's view and memory allow, sampled as the Abbot samples them."""
    mine = abbot.ABBOT_STYLES[view["num_players"]]
    outlook = outlook_from_view(view, Knowledge(view, memory), mine)
    return abbot.sampled_world(view, memory, rng, outlook)[0]


def expected_places(
    view: dict, memory: dict | None, actions: list[dict], rng: random.Random, rounds: int
) -> list[list[float]]:
    """For each of `actions`, the seat's final place in each of `rounds` sampled worlds (the
    same worlds for every action)."""
    me, players = view["seat"], view["num_players"]
    mine = abbot.ABBOT_STYLES[players]
    outlook = outlook_from_view(view, Knowledge(view, memory), mine)
    styles = [mine if seat == me else SCHOLAR for seat in range(players)]
    places = [[] for _ in actions]
    for _ in range(rounds):
        world, public = abbot.sampled_world(view, memory, rng, outlook)
        for found, action in zip(places, actions, strict=True):
            state = biblios.apply_action(world, me, action)
            outcome = Playout(state, public=public, styles=styles).run()
            found.append(float(outcome["players"][me]["place"]))
    return places


def final_place(result: dict, seat: int) -> float:
    """What the measure came to: the seat's final place."""
    return float(next(row["place"] for row in result["players"] if row["seat"] == seat))
