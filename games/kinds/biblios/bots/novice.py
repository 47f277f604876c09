"""The Novice: a uniformly random legal action, minus the absurd ones.

It never bids more than its hand can pay (the Gold value in hand for a non-Gold card, the number
of cards in hand for a Gold card: R11, R12), and having bid only what it can pay, it never
refuses to pay. Everything else (placements, picks, church uses, which covering payment, which
card to discard) is drawn uniformly from the legal actions.
"""

import random

from games.kinds.biblios.engine.cards import KIND, VALUE


def means(view: dict) -> int:
    """What the seat can pay for the card on auction: Gold value, or cards for Gold (R11, R12)."""
    hand = view["hand"]
    if view["auction"]["gold"]:
        return len(hand)
    return sum(VALUE[card] for card in hand if KIND[card] == "gold")


def decide(view: dict, memory: dict | None, rng: random.Random) -> dict:
    legal = view["legal_actions"]
    step = view["awaiting"]["step"]
    if step == "bid":
        can_pay = means(view)
        legal = [a for a in legal if a["type"] == "pass" or a["amount"] <= can_pay]
    elif step in ("pay", "give") and len(legal) > 1:
        legal = [a for a in legal if a["type"] != "refuse"]
    return rng.choice(legal)
