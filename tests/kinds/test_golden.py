"""Golden transcripts: fixed-seed games that each engine must reproduce exactly.

Each file under `golden/<kind>/` holds one game: its table and seed, its moves, every seat's
and a spectator's view at a few checkpoints, and the result. The engine replays the moves (each
must still be legal), and must show exactly those views and that result: a change in what an
engine does or shows, even one no rule test pins, fails here. Each variant has a game at the
fewest players with no option and one at the most players with every option it accepts.

When a change of behaviour is meant, rewrite the files and review their diff:

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/kinds/test_golden.py
"""

import json
import os
import random
from pathlib import Path

import pytest

from .conftest import ENGINES, play, tables

GOLDEN = Path(__file__).with_name("golden")
CHECKPOINTS = 4  # the deal, the end, and evenly spaced steps between
SPECTATOR = "spectator"


def golden_cases(engine) -> list[tuple[str, int, str, dict]]:
    """(name, players, variant, options): per variant, the fewest players with no option, the
    most players with the most options `new_game` accepts together, and each player count in
    between with one option on (in turn, from the last)."""
    accepted = tables(engine)
    cases = []
    for variant in engine.VARIANTS:
        mine = [(players, options) for players, v, options in accepted if v == variant]
        fewest = min(mine, key=lambda table: (table[0], len(table[1])))
        most = max(mine, key=lambda table: (table[0], len(table[1])))
        singles = [options for players, options in mine if players == most[0] and len(options) == 1]
        between = sorted({players for players, _ in mine} - {fewest[0], most[0]})
        middle = [
            (players, singles[-1 - i % len(singles)] if singles else {})
            for i, players in enumerate(between)
        ]
        for players, options in (fewest, *middle, most):
            name = f"{variant}-{players}p-{'+'.join(sorted(options)) or 'plain'}"
            cases.append((name, players, variant, options))
    return cases


# Modes a kind sets with an option that is not a switch, beyond `golden_cases`: Ex Libris solo
# at each difficulty (X85).
EXTRA_CASES = {
    "exlibris": [
        (f"standard-1p-difficulty{level}", 1, "standard", {"difficulty": level})
        for level in range(1, 8)
    ],
}

CASES = [
    pytest.param(slug, engine, *case, id=f"{slug}-{case[0]}")
    for slug, engine in ENGINES.items()
    for case in [*golden_cases(engine), *EXTRA_CASES.get(slug, [])]
]


def as_json(value):
    return json.loads(json.dumps(value))


def transcript(engine, name: str, players: int, variant: str, options: dict) -> dict:
    """A new golden game: seeded by its name, played by a random policy seeded the same way."""
    seed = sum(name.encode())  # a fixed whole number: every engine takes those
    state = engine.new_game(players, seed=seed, variant=variant, options=options)
    states, moves = play(engine, state, random.Random(name))
    last = len(states) - 1
    steps = sorted({round(last * i / (CHECKPOINTS - 1)) for i in range(CHECKPOINTS)})
    return {
        "players": players,
        "variant": variant,
        "options": options,
        "seed": seed,
        "moves": [[seat, action] for seat, action in moves],
        "checkpoints": {
            str(step): {
                SPECTATOR if seat is None else str(seat): engine.view(states[step], seat)
                for seat in [*range(players), None]
            }
            for step in steps
        },
        "result": engine.result(states[-1]),
    }


def write(path: Path, data: dict) -> None:
    """One move per line, views compact: small files whose diffs read move by move."""
    lines = [json.dumps(move, separators=(",", ":")) for move in data["moves"]]
    head = {key: value for key, value in data.items() if key != "moves"}
    text = json.dumps(head, separators=(",", ":"), sort_keys=True)
    text = text[:-1] + ',"moves":[\n' + ",\n".join(lines) + "\n]}\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize(("slug", "engine", "name", "players", "variant", "options"), CASES)
def test_the_engine_reproduces_its_golden_games(slug, engine, name, players, variant, options):
    path = GOLDEN / slug / f"{name}.json"
    if os.environ.get("UPDATE_GOLDEN"):
        write(path, as_json(transcript(engine, name, players, variant, options)))
        pytest.skip(f"rewrote {path.relative_to(GOLDEN.parent)}")
    assert path.exists(), f"no golden game {path.name}: run with UPDATE_GOLDEN=1 (docstring)"
    golden = json.loads(path.read_text(encoding="utf-8"))
    state = engine.new_game(
        golden["players"], seed=golden["seed"], variant=golden["variant"], options=golden["options"]
    )
    moves = [(seat, action) for seat, action in golden["moves"]]
    states = list(engine.steps(engine.setup_of(state), moves))
    assert states[0] == state
    for (seat, action), before in zip(moves, states, strict=False):
        assert action in engine.legal_actions(before, seat)
    assert engine.to_act(states[-1]) == []
    for step, views in golden["checkpoints"].items():
        for seat, seen in views.items():
            observer = None if seat == SPECTATOR else int(seat)
            assert as_json(engine.view(states[int(step)], observer)) == seen, (step, seat)
    assert as_json(engine.result(states[-1])) == golden["result"]
