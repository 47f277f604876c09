"""How much a card, a die move or a Gold point is worth to a seat, as a change of its lead.

An `Outlook` holds each seat's expected category totals and Gold, the dice, and how much is
still to be dealt out. From it:
- each seat's chance of winning each category: the product, over the other seats, of a logistic
  in the difference of totals, scaled by how much of that category is still unallocated (plus the
  uncertainty of cards hidden in hands); a category's die times that chance is its expected VP;
- a seat's lead: its expected VP minus a blend of the best and the average other seat's (the
  game is won by the most VP, so a card that an opponent would otherwise get counts too);
- the price of Gold (`gold_vp`): VP a Gold point can still buy, from the auctions left and the
  Gold in play; it falls to nothing once no card is left to buy.

An outlook is built from a view and the seat's `Knowledge`: hidden hand cards count as the
average unknown card.
"""

import math
from dataclasses import dataclass

from games.kinds.biblios.engine.cards import CATEGORIES, CATEGORY, CATEGORY_INDEX, KIND, VALUE

from .memory import Knowledge

CHURCH_MOVES = {
    "church-up1-1": (1, (1,)),
    "church-up1-2": (1, (1,)),
    "church-down1-1": (1, (-1,)),
    "church-down1-2": (1, (-1,)),
    "church-up2-1": (2, (1,)),
    "church-up2-2": (2, (1,)),
    "church-down2-1": (2, (-1,)),
    "church-down2-2": (2, (-1,)),
    "church-either1-1": (1, (1, -1)),
}
CATS = range(len(CATEGORIES))
CARD_CAT = {card: CATEGORY_INDEX[cat] for card, cat in CATEGORY.items() if cat is not None}


@dataclass(frozen=True)
class Style:
    """The weights of the greedy policy. The Scholar plays `SCHOLAR`; the Abbot's own moves use
    weights tuned by playing against it (`abbot.ABBOT_STYLES`)."""

    average_card_vp: float = 0.3  # share of a die that an average bought card is worth to its buyer
    best_weight: float = 0.7  # a lead is against 0.7 × the best other seat + 0.3 × their average
    spread_base: float = 0.6  # uncertainty of a category's final totals: base + scale × √unsettled
    spread_scale: float = 0.55
    auction_mix: float = (
        0.5  # an auction-pile card is worth this share of keeping it (rest: giving)
    )
    denial: float = 0.5  # share of an opponent's gain a bid is also worth
    pick_denial: float = 0.3  # the same for a pick


SCHOLAR = Style()


def _worth_key(card: str) -> tuple:
    """Cards worth the same to everyone share a key (same category and value, Gold of one value,
    church cards with the same moves), so that an outlook works each worth out once."""
    kind = KIND[card]
    if kind == "category":
        return kind, CARD_CAT[card], VALUE[card]
    return (kind, VALUE[card]) if kind == "gold" else (kind, CHURCH_MOVES[card])


WORTH_KEY = {card: _worth_key(card) for card in KIND}


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class Outlook:
    def __init__(
        self, dice, totals, gold, unsettled, auctions_left, gold_in_play, style: Style = SCHOLAR
    ):
        """`unsettled[c]`: category value still to be dealt plus the variance of hidden hands."""
        self.style = style
        self.n = len(totals)
        self.dice = list(dice)
        self.totals = totals
        self.gold = gold
        base, scale = style.spread_base, style.spread_scale
        self.spread = [base + scale * math.sqrt(max(u, 0.0)) for u in unsettled]
        self.chances = [self._chances(c, [row[c] for row in totals]) for c in CATS]
        self.ev = [sum(self.dice[c] * self.chances[c][s] for c in CATS) for s in range(self.n)]
        self.leads = [self.lead(seat, self.ev) for seat in range(self.n)]
        self._effects = {}
        self._keep_values = {}
        average_die = sum(self.dice) / len(self.dice)
        self.gold_vp = style.average_card_vp * average_die * auctions_left / max(gold_in_play, 3.0)

    def _chances(self, c: int, column: list) -> list:
        """Each seat's chance of the most `c` at the end: a product of pairwise logistics."""
        spread, n = self.spread[c], self.n
        if n == 2:
            ahead = _sigmoid((column[0] - column[1]) / spread)
            return [ahead, 1.0 - ahead]
        chances = [1.0] * n
        exp = math.exp
        for s in range(n):
            mine = column[s]
            for t in range(s + 1, n):
                x = (mine - column[t]) / spread  # _sigmoid(x) inline: the playouts' hot spot
                ahead = 0.0 if x < -30 else 1.0 / (1.0 + exp(-x))
                chances[s] *= ahead
                chances[t] *= 1.0 - ahead
        return chances

    def lead(self, seat: int, ev: list) -> float:
        others = ev[:seat] + ev[seat + 1 :]
        best = self.style.best_weight
        return ev[seat] - best * max(others) - (1 - best) * sum(others) / len(others)

    def category_effect(self, seat: int, getter: int, c: int, value: float) -> float:
        """Change of `seat`'s lead when `getter` adds `value` to category `c`."""
        column = [row[c] for row in self.totals]
        column[getter] += value
        after = self._chances(c, column)
        die, before = self.dice[c], self.chances[c]
        ev = [self.ev[t] + die * (after[t] - before[t]) for t in range(self.n)]
        return self.lead(seat, ev) - self.leads[seat]

    def dice_effect(self, seat: int, moves) -> float:
        """Change of `seat`'s lead when the dice of categories `moves` move by their deltas."""
        ev = self.ev[:]
        for c, delta in moves:
            for t in range(self.n):
                ev[t] += delta * self.chances[c][t]
        return self.lead(seat, ev) - self.leads[seat]

    def church_uses(self, card: str) -> list:
        """Every legal use of a church card: tuples of (category index, delta) (R17, R18)."""
        count, deltas = CHURCH_MOVES[card]
        uses = []
        for delta in deltas:
            movable = [c for c in CATS if 1 <= self.dice[c] + delta <= 6]
            if count == 1:
                uses += [((c, delta),) for c in movable]
            else:
                uses += [
                    ((a, delta), (b, delta))
                    for i, a in enumerate(movable)
                    for b in movable[i + 1 :]
                ]
        return uses

    def best_use(self, seat: int, card: str):
        """The use of a church card best for `seat`, and its gain (None, 0.0 if none helps)."""
        best, gain = None, 0.0
        for use in self.church_uses(card):
            value = self.dice_effect(seat, use)
            if value > gain:
                best, gain = use, value
        return best, gain

    def effect(self, seat: int, getter: int, card: str) -> float:
        """Change of `seat`'s lead when `getter` takes `card` into hand (or resolves it)."""
        key = (seat, getter, WORTH_KEY[card])
        value = self._effects.get(key)
        if value is None:
            value = self._effects[key] = self._effect(seat, getter, card)
        return value

    def _effect(self, seat: int, getter: int, card: str) -> float:
        kind = KIND[card]
        if kind == "category":
            return self.category_effect(seat, getter, CARD_CAT[card], VALUE[card])
        if kind == "gold":
            worth = VALUE[card] * self.gold_vp
            return worth if getter == seat else -0.5 * worth / (self.n - 1)
        use, gain = self.best_use(getter, card)
        if getter == seat or use is None:
            return gain
        return self.dice_effect(seat, use)

    def want(self, seat: int, card: str) -> float:
        """How much `seat` would want `card` for itself."""
        return self.effect(seat, seat, card)

    def worst_taker(self, seat: int, card: str) -> float:
        """`seat`'s lead change if the other seat it helps least to give `card` to gets it."""
        return min(self.effect(seat, t, card) for t in range(self.n) if t != seat)

    def keep_value(self, seat: int, card: str) -> float:
        """What `seat` loses by giving up a card of its hand."""
        kind = KIND[card]
        if kind != "category":
            return VALUE[card] * self.gold_vp if kind == "gold" else 0.0
        key = (seat, WORTH_KEY[card])
        value = self._keep_values.get(key)
        if value is None:
            value = -self.category_effect(seat, seat, CARD_CAT[card], -VALUE[card])
            self._keep_values[key] = value
        return value


def hand_totals(cards) -> tuple[list, float]:
    """Cards' category totals (Scriptorium order) and Gold value."""
    totals = [0.0] * len(CATEGORIES)
    gold = 0.0
    for card in cards:
        kind = KIND[card]
        if kind == "category":
            totals[CARD_CAT[card]] += VALUE[card]
        elif kind == "gold":
            gold += VALUE[card]
    return totals, gold


def outlook_from_view(view: dict, knowledge: Knowledge, style: Style = SCHOLAR) -> Outlook:
    """A seat's outlook from its view: hidden hand cards count as the average unknown card."""
    unknown = knowledge.unknown
    share, gold_share = hand_totals(unknown)
    size = max(len(unknown), 1)
    share = [v / size for v in share]
    gold_share /= size
    hidden = knowledge.hidden
    totals, gold = [], []
    for seat, cards in enumerate(knowledge.known):
        seat_totals, seat_gold = hand_totals(cards)
        count = knowledge.unseen_in[seat]
        held = len(cards) + count
        kept = (held - knowledge.lost[seat]) / held if held else 1.0  # some left unseen
        totals.append([kept * (t + count * s) for t, s in zip(seat_totals, share, strict=True)])
        gold.append(kept * (seat_gold + count * gold_share))
    to_deal = hidden["draw_pile"] + hidden["drawing"] + hidden.get("self_card", 0)
    still_auctioned = hidden["auction_pile"]
    upcoming = list(view["public_space"]) + list(view["my_auction_cards"])
    for card in (view["gift"]["drawing"], view["gift"]["self_card"]):
        if card:
            upcoming.append(card)
    if view["auction"]:
        upcoming.append(view["auction"]["card"])
    known_upcoming, known_gold = hand_totals(upcoming)
    in_hidden_hands = sum(knowledge.unseen_in)
    unsettled = [
        known_upcoming[c] + (to_deal + still_auctioned) * share[c] + in_hidden_hands * share[c]
        for c in CATS
    ]
    auction_cards = [
        *view["my_auction_cards"],
        *([view["auction"]["card"]] if view["auction"] else []),
    ]
    non_gold_share = 1.0 - sum(1 for c in unknown if KIND[c] == "gold") / size
    auctions_left = (
        sum(1 for c in auction_cards if KIND[c] != "gold")
        + (still_auctioned + to_deal / (view["num_players"] + 1)) * non_gold_share
    )
    gold_in_play = sum(gold) + known_gold + to_deal * gold_share
    return Outlook(
        view["dice"].values(), totals, gold, unsettled, auctions_left, gold_in_play, style
    )
