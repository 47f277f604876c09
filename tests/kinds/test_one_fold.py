"""The platform walks a game through its move log in one place: the engine's `steps`.

Replays, the game log, the integrity check and the admin's inspector each used to apply the
log move by move themselves; three copies of one loop drift apart (one caches, one checks
hashes, one stops at a gap). Outside the engines and the bots, only the service layer applies an
action, and that is one live move at a time; a game's review tells a move that was never
played by the first event it would have shown its player, which walks no log; and its "what if"
branches play moves never played, in a sampled world, after walking the log with `steps`.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games" / "kinds"
PLATFORM = [
    *sorted(path for path in (ROOT / "games").rglob("*.py") if not path.is_relative_to(GAMES)),
    *sorted((ROOT / "ratings").rglob("*.py")),
    *sorted((ROOT / "accounts").rglob("*.py")),
]
LIVE_MOVES = {ROOT / "games" / "play" / "services.py"}
MOVES_NEVER_PLAYED = {
    ROOT / "games" / "analysis" / "review_page.py",  # `first_event`
    ROOT / "games" / "analysis" / "what_if.py",  # `branch_from`
}


def applies_actions(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        (isinstance(node, ast.Attribute) and node.attr == "apply_action")
        or (isinstance(node, ast.Name) and node.id == "apply_action")
        for node in ast.walk(tree)
    )


def test_only_the_service_layer_applies_an_action_outside_the_engines():
    assert ROOT / "games" / "history" / "replay.py" in PLATFORM
    assert set(PLATFORM) >= LIVE_MOVES | MOVES_NEVER_PLAYED
    folding = [
        str(path.relative_to(ROOT))
        for path in PLATFORM
        if "migrations" not in path.parts
        and path not in LIVE_MOVES | MOVES_NEVER_PLAYED
        and applies_actions(path)
    ]
    assert folding == [], "replay the log with the engine's steps(setup, moves)"
