"""The conformance suite's games: every kind the registry knows, and the games it plays.

`KINDS` are the registered kinds, alpha ones included (`games.kinds.registry`), read when the
suite is collected: a kind registered by then goes through every test here. `ENGINES` maps each
slug to its pure engine module (`games/kinds/protocol.py`), `FALLBACKS` to the bot that plays a
seat whose player timed out or left, as the turn worker calls it, `BOT_LEVELS` to every level's.
"""

import random
from dataclasses import dataclass
from functools import partial

import pytest

from games.kinds import registry

from .toy.kind import KIND as TOY

# Beside the installed kinds, the toy (tests/kinds/toy/), which the platform never imports: a
# game in a folder of its own meets the same contract.
KINDS = {kind.slug: kind for kind in [*registry.kinds(include_alpha=True), TOY]}

ENGINES = {slug: kind.engine for slug, kind in KINDS.items()}

# Per kind: the fallback bot, `(view, memory, rng) -> action` (the kind's stand-in level), and
# the bot memory of a seat: `new_memory(seat, players)`, `observe(memory, view)`.
SEARCH_ROUNDS = 3

FALLBACKS = {
    slug: (partial(kind.bots.choose, kind.stand_in), kind.bots.new_memory, kind.bots.observe)
    for slug, kind in KINDS.items()
}

# Per kind: every bot level, `(level, view, memory, rng) -> action`, a searching one held to a
# few rounds so that it chooses the same each time it is asked the same.
BOT_LEVELS = {
    slug: [
        (level.slug, partial(kind.bots.choose, level.slug, rounds=SEARCH_ROUNDS))
        for level in kind.bot_levels
    ]
    for slug, kind in KINDS.items()
}

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


@pytest.fixture
def toy_on_the_site(settings):
    """The toy installed on the site for one test, the way a real game is: its package an app
    (so its templates and template tags load) and its entry in the registry. Both are taken
    back afterwards, so no other test ever meets it."""
    settings.INSTALLED_APPS = [*settings.INSTALLED_APPS, "tests.kinds.toy"]
    registry.register(TOY)
    yield TOY
    registry.unregister(TOY.slug)
