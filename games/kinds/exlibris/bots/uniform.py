"""The Random level: any legal action, equally likely (a yardstick, and the engine's soak)."""

import random


def decide(view: dict, memory: dict | None, rng: random.Random) -> dict:
    return rng.choice(view["legal_actions"])
