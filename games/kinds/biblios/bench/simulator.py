"""A plain mutable Biblios simulator: the yardstick for the engine's public API.

Uniformly random 4-player (or 2, 3) games of Biblios with the default table options, written
the straightforward fast way: cards are ints, hands and piles are lists changed in place, one
random draw per decision, nothing listed that the choice does not need, no events, no copies.
Every decision offers the same choices as the engine's `legal_actions` (the same bid cap, the
same minimal payments, refusals, church uses), so a uniform choice gives games of the same
length and the two are timed on the same work. Only the benchmark uses it: the engine stays the
one source of the rules.
"""

import random

from games.kinds.biblios.engine.cards import (
    CARD_IDS,
    CHURCH_DELTAS,
    CHURCH_DICE,
    GOLD_BY_VALUE,
    KIND,
    VALUE,
)
from games.kinds.biblios.engine.state import DIE_START, FIXED_GOLD_REMOVED, RANDOM_REMOVED

_GOLD, _BOOK, _CHURCH = 0, 1, 2
_KIND = [{"gold": _GOLD, "church": _CHURCH}.get(KIND[c], _BOOK) for c in CARD_IDS]
_VALUE = [VALUE[c] for c in CARD_IDS]
_DICE = [CHURCH_DICE.get(c, 0) for c in CARD_IDS]
_DELTAS = [CHURCH_DELTAS.get(c, ()) for c in CARD_IDS]
_INDEX = {c: i for i, c in enumerate(CARD_IDS)}
_FIXED = {
    n: [_INDEX[c] for v in (1, 2, 3) for c in GOLD_BY_VALUE[v][:removed]]
    for n, removed in FIXED_GOLD_REMOVED.items()
}


def play(num_players: int, seed: int) -> int:
    """One uniformly random game to its end; returns the number of decisions taken."""
    rng = random.Random(seed)
    rand = rng.random
    n = num_players
    fixed = set(_FIXED[n])
    pile = [c for c in range(len(CARD_IDS)) if c not in fixed]
    rng.shuffle(pile)
    del pile[: RANDOM_REMOVED[n]]
    hands = [[] for _ in range(n)]
    dice = [DIE_START] * 5
    auction = []
    actions = 0

    def church(card):
        """Resolve a church card: a random use among the legal ones, or discard it."""
        uses = []
        for delta in _DELTAS[card]:
            movable = [i for i in range(5) if 1 <= dice[i] + delta <= 6]
            if _DICE[card] == 1:
                uses += [((i,), delta) for i in movable]
            else:
                uses += [((a, b), delta) for k, a in enumerate(movable) for b in movable[k + 1 :]]
        pick = int(rand() * (len(uses) + 1))
        if pick < len(uses):
            moved, delta = uses[pick]
            for i in moved:
                dice[i] += delta

    active = rng.randrange(n)
    first = active
    while pile:  # the gift phase, a turn per seat in turn
        self_used = auction_used = False
        public = []
        kept = None
        for _ in range(n + 1):
            card = pile.pop(0)
            room = len(public) < n - 1
            options = (not self_used) + (not auction_used) + room
            pick = int(rand() * options)
            actions += 1
            if not self_used and pick == 0:
                self_used = True
                if _KIND[card] == _CHURCH:
                    actions += 1
                    church(card)
                else:
                    kept = card
            elif not auction_used and pick == (not self_used):
                auction_used = True
                auction.append(card)
            else:
                public.append(card)
        if kept is not None:
            hands[active].append(kept)
        for k in range(1, n):
            card = public.pop(int(rand() * len(public)))
            actions += 1
            if _KIND[card] == _CHURCH:
                actions += 1
                church(card)
            else:
                hands[(active + k) % n].append(card)
        active = (active + 1) % n

    rng.shuffle(auction)
    active = first
    for card in auction:  # the auctions, each card until it is sold or nobody bids
        gold_card = _KIND[card] == _GOLD
        excluded = []
        while True:
            high, winner, passed = 0, None, []
            bidder = active
            while True:
                in_play = [s for s in range(n) if s not in passed and s not in excluded]
                if winner is not None and len(in_play) == 1:
                    break
                if not in_play:
                    break
                bidder = (bidder + 1) % n
                while bidder not in in_play:
                    bidder = (bidder + 1) % n
                size = len(hands[bidder])
                cap = max(high + 1, size if gold_card else 3 * size)
                choice = int(rand() * (cap - high + 1))
                actions += 1
                if choice == cap - high:
                    passed.append(bidder)
                else:
                    high, winner = high + 1 + choice, bidder
            if winner is None:
                break  # unsold: discarded
            hand = hands[winner]
            if gold_card:
                paid = _give(hand, high, rand)
                actions += paid[1]
                ok = paid[0]
            else:
                ok = _pay(hand, high, rand)
                actions += 1
            if ok:
                if _KIND[card] == _CHURCH:
                    actions += 1
                    church(card)
                else:
                    hand.append(card)
                break
            for k in range(1, n):  # R14: refused, the others take cards at random
                if not hand:
                    break
                hands[(winner + k) % n].append(hand.pop(rng.randrange(len(hand))))
            excluded.append(winner)
        active = (active + 1) % n
    return actions


def _pay(hand, bid, rand) -> bool:
    """A random choice among the minimal payments and refusing; True when paid."""
    gold = {1: [], 2: [], 3: []}
    for card in hand:
        if _KIND[card] == _GOLD:
            gold[_VALUE[card]].append(card)
    payments = []
    for threes in range(len(gold[3]) + 1):
        for twos in range(len(gold[2]) + 1):
            partial = 3 * threes + 2 * twos
            ones = max(0, bid - partial)
            if ones > len(gold[1]):
                continue
            smallest = 1 if ones else (2 if twos else 3)
            if partial + ones < bid or partial + ones - smallest >= bid:
                continue
            payments.append(gold[1][:ones] + gold[2][:twos] + gold[3][:threes])
    pick = int(rand() * (len(payments) + 1))
    if pick == len(payments):
        return False
    for paid in payments[pick]:
        hand.remove(paid)
    return True


def _give(hand, bid, rand) -> tuple[bool, int]:
    """Cards discarded one decision at a time (refusing only before the first); (paid,
    decisions)."""
    if len(hand) < bid:
        return False, 1
    for given in range(bid):
        options = len(hand) + (given == 0)
        pick = int(rand() * options)
        if pick == len(hand):
            return False, 1
        hand.pop(pick)
    return True, bid
