"""The conformance suite's engines and the games it plays with them.

`ENGINES` maps a game kind's slug to its pure engine module (`games/engine/protocol.py`); the
game registry will feed this list, so every kind it registers meets the same contract.
"""

import random
from dataclasses import dataclass

import pytest

from games import bots
from games.engine import biblios
from games.services import STAND_IN_LEVEL

ENGINES = {"biblios": biblios}


def biblios_fallback(view: dict, memory: dict, rng: random.Random) -> dict:
    """What plays a Biblios seat whose player timed out or left (the turn worker's stand-in)."""
    return bots.choose(STAND_IN_LEVEL, view, memory, rng)


# Per kind: the fallback bot, `(view, memory, rng) -> action`, and a new memory for a seat.
FALLBACKS = {"biblios": (biblios_fallback, bots.new_memory, bots.observe)}

MAX_MOVES = 5_000  # a random game longer than this never ends


def tables(engine) -> list[tuple[int, str, dict]]:
    """(players, variant, options) for every player count and variant, each with no option,
    each option alone and all of them, keeping the combinations `new_game` accepts."""
    names = list(engine.OPTIONS)
    choices = [{}] + [{name: True} for name in names] + [dict.fromkeys(names, True)]
    choices = [dict(c) for c in {tuple(sorted(c.items())) for c in choices}]
    found = []
    for players in engine.PLAYER_COUNTS:
        for variant in engine.VARIANTS:
            for options in sorted(choices, key=lambda c: sorted(c)):
                try:
                    engine.new_game(players, seed=0, variant=variant, options=options)
                except engine.IllegalAction:
                    continue
                found.append((players, variant, options))
    return found


def table_id(table) -> str:
    players, variant, options = table
    return f"{players}p-{variant}-{'+'.join(sorted(options)) or 'plain'}"


def engine_tables():
    return [
        pytest.param((engine, table), id=f"{slug}-{table_id(table)}")
        for slug, engine in ENGINES.items()
        for table in tables(engine)
    ]


def play(engine, state, rng: random.Random):
    """A random legal game from `state`: the states (first to last) and the (seat, action)
    moves between them."""
    states, moves = [state], []
    while seats := engine.to_act(state):
        assert len(moves) < MAX_MOVES, "the game does not end"
        seat = rng.choice(seats)
        actions = engine.legal_actions(state, seat)
        assert actions, f"seat {seat} is to act but has no legal action"
        action = rng.choice(actions)
        state = engine.apply_action(state, seat, action)
        states.append(state)
        moves.append((seat, action))
    return states, moves


@dataclass(frozen=True)
class Played:
    """One random game: its table, every state from the deal to the end, and the moves."""

    engine: object
    players: int
    variant: str
    options: dict
    states: list
    moves: list


@pytest.fixture(scope="module")
def played(request) -> Played:
    """One random game per (engine, table), shared by the module's tests."""
    engine, (players, variant, options) = request.param
    state = engine.new_game(players, seed=players, variant=variant, options=options)
    states, moves = play(engine, state, random.Random(f"{variant}/{players}/{sorted(options)}"))
    return Played(engine, players, variant, options, states, moves)
