"""The registries: each decision kind, each location's effect and each "then" step, by name.

A decision kind is one `Decision` record: its rule tag, its choices and its effect. The
`decision` decorator on the effect registers it, beside its choices function. A location's
module registers its effect with `effect`, or `delayed` for a tile resolved later (X25). A
"then" step is the rest of an effect, run once the decisions it waits for are answered (`then`,
X88). Who is asked (`to_act`) and what they may choose (`_listed`) are read from here.
"""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Decision:
    """One kind of decision (X86, X87): the rule it applies (named in refusals), what it offers
    (`choices(state, seat, top)`, `top` its pending entry), what an answer does
    (`effect(state, seat, action)`, which takes its entry off the stack), and the fields of its
    entry a view shows everyone (X77; the owner's own card aside, `view`)."""

    kind: str
    rule: str
    choices: Callable[[dict, int, dict], list[dict]]
    effect: Callable[[dict, int, dict], None]
    shown: tuple[str, ...] = ()


DECISIONS: dict[str, Decision] = {}
# X23 step 4: every location's effect at arrival, by tile id; a delayed tile's does nothing
# then, its effect being in DELAYED, run at Resolution step (a) once per visit (X25, X26).
EFFECTS: dict[str, Callable[[dict, int], None]] = {}
DELAYED: dict[str, Callable[[dict, int], None]] = {}


# The rest of an effect after the decisions it waits for (`_proceed`, pending kind "then").
THEN: dict[str, Callable[[dict, dict], None]] = {}


def decision(kind: str, *, rule: str, choices, shown: tuple[str, ...] = ()):
    """Register the decorated function as the effect of the decision `kind`."""

    def register(effect):
        DECISIONS[kind] = Decision(kind, rule, choices, effect, shown)
        return effect

    return register


def effect(tile: str):
    """Register the decorated function as `tile`'s effect at arrival (X23 step 4)."""

    def register(function):
        EFFECTS[tile] = function
        return function

    return register


def delayed(tile: str):
    """Register the decorated function as `tile`'s delayed effect (X25 (a)); its arrival does
    nothing (`_wait`)."""

    def register(function):
        EFFECTS[tile] = _wait
        DELAYED[tile] = function
        return function

    return register


def _wait(state: dict, seat: int) -> None:
    """X23 step 4 on a delayed tile: nothing yet, its effect waits for Resolution (X25)."""


def then(step: str):
    """Register the decorated function as the "then" step `step` (`_proceed`)."""

    def register(function):
        THEN[step] = function
        return function

    return register


def to_act(state: dict) -> list[int]:
    """X86: the seats that must answer now: one, or every unfinished seat during the pre-scoring
    flip (X68); [] exactly when the game is over."""
    if not state["pending"]:
        return []
    top = state["pending"][-1]
    if top["kind"] == "flip":
        return list(top["seats"])
    return [top["seat"]]


def _asked(state: dict, seat) -> bool:
    """`seat in to_act(state)`, without building the list."""
    if not state["pending"]:
        return False
    top = state["pending"][-1]
    if top["kind"] == "flip":
        return seat in top["seats"]
    return seat == top["seat"]


def _listed(state: dict, seat: int) -> list[dict]:
    """`legal_actions` for a seat asked now: what its decision offers."""
    top = state["pending"][-1]
    return DECISIONS[top["kind"]].choices(state, seat, top)


def _rule(top: dict) -> str:
    """The rules a refused answer to `top` breaks: the effect's, then the step's."""
    rule = DECISIONS[top["kind"]].rule
    if top.get("rule") and top["rule"] != rule:
        rule = f"{top['rule']}, {rule}"
    return rule
