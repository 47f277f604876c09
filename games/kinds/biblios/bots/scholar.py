"""The Scholar: greedy play on the values of `valuation.Outlook`.

- Gift phase, placing (R3): each drawn card goes where it is worth most, counting what the
  slots still open are likely to be worth for the cards still to come (a few futures are drawn
  from the unseen cards). The self slot is worth what the card adds to the Scholar's lead; the
  public space costs what the card gives the opponent it helps most; the auction pile is half of
  each (the Scholar may buy it back, and only it knows the card is there).
- Picking (R5): the public card worth most to it, plus a part of what it denies the others.
- Church cards (R17): the use that raises its lead most (raising dice of categories it is likely
  to win, lowering those others lead), or no use when none helps.
- Bidding (R9–R12): the card's worth to it (and part of what it denies the others) priced in
  Gold at the outlook's rate, which rises as the auctions run out; it raises by one while the
  price stays under that and under what it can pay, else passes. For a Gold card the price is the
  cards it would discard, cheapest first. It never bids more than it can pay, so it never
  defaults; it pays with the least overpay (then the fewest cards) and discards its least useful
  cards.
"""

import random

from games.kinds.biblios.engine.cards import CATEGORIES, DECK_ORDER, KIND, VALUE

from .memory import Knowledge
from .valuation import SCHOLAR, Outlook, Style, outlook_from_view

SCHOLAR_FUTURES = 12


def decide(view: dict, memory: dict | None, rng: random.Random, style: Style = SCHOLAR) -> dict:
    """The Scholar's action for the seat of `view` (with the Abbot's weights, its first idea)."""
    legal = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    knowledge = Knowledge(view, memory)
    outlook = outlook_from_view(view, knowledge, style)
    me, step = view["seat"], view["awaiting"]["step"]
    if step == "place":
        gift = view["gift"]
        open_slots = {a["to"] for a in legal}
        to_come = view["num_players"] - gift["placed"]
        public_left = view["num_players"] - 1 - len(view["public_space"])
        futures = [
            rng.sample(knowledge.unknown, min(to_come, len(knowledge.unknown)))
            for _ in range(SCHOLAR_FUTURES)
        ]
        to = place(outlook, me, gift["drawing"], open_slots, public_left, futures)
        return {"type": "place", "to": to}
    if step == "pick":
        return {"type": "pick", "card": pick(outlook, me, view["public_space"])}
    if step == "church":
        return church(outlook, me, view["church"]["card"])
    if step == "bid":
        auction = view["auction"]
        limit = bid_limit(outlook, me, auction["card"], view["hand"])
        amount = auction["high_bid"] + 1
        return {"type": "bid", "amount": amount} if amount <= limit else {"type": "pass"}
    if step == "pay":
        return cheapest_payment(legal)
    return give(outlook, me, view["hand"], legal)


def place(outlook: Outlook, me: int, card: str, open_slots: set, public_left: int, futures):
    """Where to put the drawn card, given the slots open and sampled cards still to come."""
    slots = {"self": "self" in open_slots, "auction": "auction" in open_slots}
    if len(open_slots) == 1:
        return next(iter(open_slots))
    worth = _slot_values(outlook, me)
    now = worth(card)
    best, best_value = None, None
    for to in sorted(open_slots):
        rest = dict(slots)
        public = public_left
        if to == "public":
            public -= 1
        else:
            rest[to] = False
        future = sum(_best_assignment(map(worth, cards), rest) for cards in futures)
        value = now[to] + future / max(len(futures), 1)
        if best_value is None or value > best_value:
            best, best_value = to, value
    return best


def _slot_values(outlook: Outlook, me: int):
    cache = {}
    mix = outlook.style.auction_mix

    def worth(card: str) -> dict:
        if card not in cache:
            keep = outlook.effect(me, me, card)
            give_away = outlook.worst_taker(me, card)
            cache[card] = {
                "self": keep,
                "public": give_away,
                "auction": mix * keep + (1 - mix) * give_away,
            }
        return cache[card]

    return worth


def _best_assignment(values, slots: dict) -> float:
    """Best total for future cards: at most one to self, one to auction (if open), rest public."""
    values = list(values)
    base = sum(v["public"] for v in values)
    gains = {to: [v[to] - v["public"] for v in values] for to in ("self", "auction") if slots[to]}
    if not gains:
        return base
    if len(gains) == 1:
        (column,) = gains.values()
        return base + max(column)
    best = None
    for i, a in enumerate(gains["self"]):
        for j, b in enumerate(gains["auction"]):
            if i != j and (best is None or a + b > best):
                best = a + b
    return base + (best if best is not None else max(gains["self"]))


def pick(outlook: Outlook, me: int, cards) -> str:
    denial = outlook.style.pick_denial
    return max(
        cards,
        key=lambda card: outlook.effect(me, me, card) - denial * outlook.worst_taker(me, card),
    )


def church(outlook: Outlook, me: int, card: str) -> dict:
    use, _ = outlook.best_use(me, card)
    if use is None:
        return {"type": "discard_church"}
    return {
        "type": "use_church",
        "dice": [CATEGORIES[c] for c, _ in use],
        "delta": use[0][1],
    }


def bid_limit(outlook: Outlook, me: int, card: str, hand) -> int:
    """The highest bid worth making for `card`, never above what `me` can pay."""
    denied = -outlook.style.denial * outlook.worst_taker(me, card)
    if KIND[card] == "gold":
        gain = outlook.effect(me, me, card) + denied
        costs = sorted(outlook.keep_value(me, held) for held in hand)
        limit = 0
        for cost in costs:
            gain -= cost
            if gain <= 0:
                break
            limit += 1
        return limit
    worth = outlook.effect(me, me, card) + denied
    if worth <= 0:
        return 0
    means = sum(VALUE[held] for held in hand if KIND[held] == "gold")
    return min(means, int(worth / max(outlook.gold_vp, 1e-6)))


def cheapest_payment(legal) -> dict:
    """R11: the payment with the least overpay, then the fewest cards; refuse only if none."""
    payments = [a for a in legal if a["type"] == "pay"]
    if not payments:
        return {"type": "refuse"}
    return min(payments, key=lambda a: (sum(VALUE[c] for c in a["cards"]), len(a["cards"])))


def give(outlook: Outlook, me: int, hand, legal) -> dict:
    if not any(a["type"] == "give" for a in legal):
        return {"type": "refuse"}
    return {"type": "give", "card": least_useful(outlook, me, hand)}


def least_useful(outlook: Outlook, me: int, hand) -> str:
    """The card of the hand whose loss costs the least (R12: discarded for a Gold card)."""
    return min(hand, key=lambda held: (outlook.keep_value(me, held), DECK_ORDER[held]))
