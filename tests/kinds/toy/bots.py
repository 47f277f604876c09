"""High card's one bot level: a player that plays any legal card, which is all the stand-in
that plays a timed-out or absent seat needs to be (it must always find a legal move)."""

import random

LEVELS = ("random",)


def new_memory(seat: int, players: int) -> dict:
    """The contract's per-seat memory; a random player remembers nothing."""
    return {}


def observe(memory: dict, view: dict) -> None:
    """The contract's log of what the seat saw; a random player needs none of it."""


def choose(
    level: str,
    view: dict,
    memory: dict | None,
    rng: random.Random,
    budget_s: float | None = None,
    rounds: int | None = None,
) -> dict:
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if not view["legal_actions"]:
        raise ValueError("choose: this seat has nothing to do now")
    return rng.choice(view["legal_actions"])
