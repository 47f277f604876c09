"""Fast playouts for the Abbot: the rest of a game, played by a quick greedy policy, in plain lists.

Going through `biblios.apply_action` costs a state copy and its checks per action, and the
Scholar's `Outlook` is rebuilt whenever a hand changes; a Monte-Carlo search needs hundreds of
playouts per decision. This module re-states the engine's turn sequence (R3–R18, in the order
`biblios` applies them, including its seeded draws for the auction-pile shuffle and penalties)
on mutable lists, with a policy whose values are updated card by card:

- a seat's chance of winning a category is a logistic in its margin over the best other seat,
  scaled by how much of the category is still to be dealt; a card is worth the change of that
  chance times the die (counted again as the others' loss);
- Gold is worth what it can still buy (`valuation.Outlook.gold_vp`, same formula);
- placing, picking, church uses, bids, payments and discards follow the Scholar's rules on
  these values (bids: raise by one while under the seat's limit, computed once per card);
- a gift turn's placements weigh a couple of futures drawn at random from the draw pile, never
  the cards actually about to be drawn (placing with that foresight wins most games against
  the Scholar: rollouts with it would judge a game no player is playing).

The tests replay a playout's action log through the public engine and check that it is legal
and reaches the same end, so the two rule texts cannot drift apart.
"""

import math
import random

from games.engine.cards import CATEGORIES, DECK_ORDER, KIND, VALUE
from games.engine.scoring import score

from .valuation import AVERAGE_CARD_VP, CARD_CAT, CHURCH_MOVES

AUCTION_MIX = 0.5
DENIAL = 0.5
PICK_DENIAL = 0.3
FUTURES = 2  # sampled futures per placement
NUM_CATS = len(CATEGORIES)


def _sigmoid(x: float) -> float:
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


class Playout:
    """The rest of one game from an engine state, played out by every seat with the fast policy.

    `run()` returns the engine's `score` of the final hands and dice; with `log=True` the actions
    taken are kept in `actions` as (seat, action) pairs in the engine's format.
    """

    def __init__(self, state, log: bool = False):
        self.n = n = state.num_players
        self.lead_scale = 1.0 + 1.0 / (n - 1)
        self.seed = state.seed
        self.rng_draws = state.rng_draws
        self.first_player = state.first_player
        self.bluff = state.options["medieval_bluff"]
        self.phase, self.step = state.phase, state.step
        self.dice = list(state.dice)
        self.draw_pile = list(state.draw_pile)
        self.hands = [list(hand) for hand in state.hands]
        self.active = state.active
        self.drawing, self.self_card = state.drawing, state.self_card
        self.placed, self.picks = state.placed, state.picks
        self.self_used, self.auction_used = state.self_used, state.auction_used
        self.public = list(state.public_space)
        self.auction_pile = list(state.auction_pile)
        self.church = tuple(state.church) if state.church else None
        self.auction_card = state.auction_card
        self.bidder, self.high_bid, self.high_bidder = (
            state.bidder,
            state.high_bid,
            state.high_bidder,
        )
        self.passed, self.excluded = set(state.passed), set(state.excluded)
        self.given = state.given
        self.actions = [] if log else None
        self.chooser = random.Random(f"{state.seed}/playout/{state.version}")
        self.totals = [[0] * NUM_CATS for _ in range(n)]
        self.categories = [None] * NUM_CATS  # see _category
        self.gold_vp = None  # see _gold_vp
        self.gold = [0] * n
        for seat, hand in enumerate(self.hands):
            for card in hand:
                self._count(seat, card, 1)
        self.unsettled = [0] * NUM_CATS
        upcoming = [*self.draw_pile, *self.public, *self.auction_pile]
        upcoming += [c for c in (self.drawing, self.self_card, self.auction_card) if c]
        for card in upcoming:
            if KIND[card] == "category":
                self.unsettled[CARD_CAT[card]] += VALUE[card]
        self.limits = None  # per-seat bid limits for the card being auctioned

    # ---------------------------------------------------------------------------- values

    def _count(self, seat: int, card: str, sign: int) -> None:
        kind = KIND[card]
        if kind == "category":
            c = CARD_CAT[card]
            self.totals[seat][c] += sign * VALUE[card]
            self.categories[c] = None
        elif kind == "gold":
            self.gold[seat] += sign * VALUE[card]

    def _category(self, c: int) -> tuple:
        """(spread, best other total and chance per seat) for category c, kept until it changes."""
        cached = self.categories[c]
        if cached is None:
            column = [row[c] for row in self.totals]
            spread = 0.6 + 0.55 * math.sqrt(self.unsettled[c])
            bests = [max(column[:seat] + column[seat + 1 :]) for seat in range(self.n)]
            chances = [_sigmoid((column[s] - bests[s]) / spread) for s in range(self.n)]
            cached = self.categories[c] = (spread, bests, chances)
        return cached

    def _chance(self, seat: int, c: int, extra: int = 0) -> float:
        spread, bests, chances = self._category(c)
        if not extra:
            return chances[seat]
        return _sigmoid((self.totals[seat][c] + extra - bests[seat]) / spread)

    def _gold_vp(self) -> float:
        """Gold's worth, kept for a gift turn or an auction card (it moves slowly)."""
        if self.gold_vp is None:
            self.gold_vp = self._price_of_gold()
        return self.gold_vp

    def _price_of_gold(self) -> float:
        left = sum(1 for c in self.auction_pile if KIND[c] != "gold")
        if self.auction_card and KIND[self.auction_card] != "gold":
            left += 1
        left += sum(1 for c in self.draw_pile if KIND[c] != "gold") / (self.n + 1)
        in_play = sum(self.gold) + sum(
            VALUE[c]
            for c in (*self.draw_pile, *self.public, *self.auction_pile)
            if KIND[c] == "gold"
        )
        return AVERAGE_CARD_VP * sum(self.dice) / NUM_CATS * left / max(in_play, 3)

    def _gain(self, seat: int, card: str, gold_vp: float) -> float:
        """What `seat` gains by taking `card` (a church card: by its best use)."""
        kind = KIND[card]
        if kind == "category":
            c, v = CARD_CAT[card], VALUE[card]
            change = self._chance(seat, c, v) - self._chance(seat, c)
            return self.lead_scale * self.dice[c] * change
        if kind == "gold":
            return VALUE[card] * gold_vp
        return self._best_use(seat, card)[1]

    def _keep(self, seat: int, card: str, gold_vp: float) -> float:
        """What `seat` loses by giving up a card of its hand."""
        kind = KIND[card]
        if kind == "category":
            c, v = CARD_CAT[card], VALUE[card]
            change = self._chance(seat, c) - self._chance(seat, c, -v)
            return self.lead_scale * self.dice[c] * change
        return VALUE[card] * gold_vp if kind == "gold" else 0.0

    def _best_use(self, seat: int, card: str):
        """The church use best for `seat` as [(category index, delta)], and its worth."""
        count, deltas = CHURCH_MOVES[card]
        edge = []
        for c in range(NUM_CATS):
            chances = self._category(c)[2]
            edge.append(chances[seat] - max(chances[:seat] + chances[seat + 1 :]))
        best, worth = None, 0.0
        for delta in deltas:
            movable = sorted(
                (c for c in range(NUM_CATS) if 1 <= self.dice[c] + delta <= 6),
                key=lambda c: -delta * edge[c],
            )
            if len(movable) < count:
                continue
            use = movable[:count]
            value = sum(delta * edge[c] for c in use)
            if value > worth:
                best, worth = [(c, delta) for c in use], value
        return best, worth

    def _most_helped(self, seat: int, card: str, gold_vp: float) -> float:
        return max(self._gain(t, card, gold_vp) for t in range(self.n) if t != seat)

    # ---------------------------------------------------------------------------- the game

    def run(self) -> dict:
        while self.step != "over":
            step = self.step
            if step == "place":
                self._place()
            elif step == "pick":
                self._pick()
            elif step == "church":
                self._church()
            elif step == "bid":
                self._bid()
            elif step == "pay":
                self._pay()
            else:
                self._give()
        return score(self.hands, self.dice)

    def _log(self, seat: int, action: dict) -> None:
        if self.actions is not None:
            self.actions.append((seat, action))

    def _rng(self, purpose: str) -> random.Random:
        self.rng_draws += 1
        return random.Random(f"{self.seed}/{purpose}/{self.rng_draws}")

    def _settle(self, card: str) -> None:
        """A card leaves the still-to-deal supply (into a hand or out of the game)."""
        if KIND[card] == "category":
            c = CARD_CAT[card]
            self.unsettled[c] -= VALUE[card]
            self.categories[c] = None

    def _to_hand(self, seat: int, card: str) -> None:
        self.hands[seat].append(card)
        self._count(seat, card, 1)
        self._settle(card)

    # gift phase (R3–R8)

    def _place(self) -> None:
        seat, card, n = self.active, self.drawing, self.n
        slots = []
        if not self.self_used:
            slots.append("self")
        if not self.auction_used:
            slots.append("auction")
        public_left = n - 1 - len(self.public)
        if public_left > 0:
            slots.append("public")
        to = slots[0] if len(slots) == 1 else self._choose_slot(seat, card, slots)
        self._log(seat, {"type": "place", "to": to})
        self.drawing = None
        self.placed += 1
        if to == "self":
            self.self_used = True
            if KIND[card] == "church":
                self.church, self.step = (card, seat), "church"
                return
            self.self_card = card
        elif to == "auction":
            self.auction_used = True
            self.auction_pile.append(card)
        else:
            self.public.append(card)
        self._continue_gift()

    def _choose_slot(self, seat: int, card: str, slots: list) -> str:
        gold_vp = self._gold_vp()
        to_come = self.n - self.placed
        futures = [self.chooser.sample(self.draw_pile, to_come) for _ in range(FUTURES)]
        values = {}
        for held in (card, *(c for future in futures for c in future)):
            if held not in values:
                keep = self._gain(seat, held, gold_vp)
                away = -self._most_helped(seat, held, gold_vp)
                values[held] = (keep, AUCTION_MIX * keep + (1 - AUCTION_MIX) * away, away)
        best, best_value = None, None
        for to in slots:
            self_open = not self.self_used and to != "self"
            auction_open = not self.auction_used and to != "auction"
            value = FUTURES * values[card][("self", "auction", "public").index(to)]
            for future in futures:
                value += self._assign([values[c] for c in future], self_open, auction_open)
            if best_value is None or value > best_value:
                best, best_value = to, value
        return best

    @staticmethod
    def _assign(values: list, self_open: bool, auction_open: bool) -> float:
        """Best total for the coming cards: one to self, one to auction (if open), rest public."""
        base = sum(v[2] for v in values)
        best = 0.0
        for i, v in enumerate(values):
            if self_open:
                gain = v[0] - v[2]
                if auction_open:
                    rest = [w[1] - w[2] for j, w in enumerate(values) if j != i]
                    gain += max(rest) if rest else 0.0
                best = max(best, gain) if i else gain
            elif auction_open:
                gain = v[1] - v[2]
                best = max(best, gain) if i else gain
        return base + best

    def _continue_gift(self) -> None:
        n = self.n
        while True:
            if self.placed < n + 1:
                self.drawing = self.draw_pile.pop(0)
                self.step = "place"
                return
            if self.self_card is not None:
                card, self.self_card = self.self_card, None
                self._to_hand(self.active, card)
            if self.picks < n - 1:
                self.step = "pick"
                return
            if not self.draw_pile:
                self._start_auctions()
                return
            self.active = (self.active + 1) % n
            self.gold_vp = None
            self.placed = self.picks = 0
            self.self_used = self.auction_used = False

    def _pick(self) -> None:
        seat = (self.active + 1 + self.picks) % self.n
        if len(self.public) == 1:
            card = self.public[0]
        else:
            gold_vp = self._gold_vp()
            card = max(
                self.public,
                key=lambda held: (
                    self._gain(seat, held, gold_vp)
                    + PICK_DENIAL * self._most_helped(seat, held, gold_vp)
                ),
            )
        self._log(seat, {"type": "pick", "card": card})
        self.public.remove(card)
        self.picks += 1
        if KIND[card] == "church":
            self.church, self.step = (card, seat), "church"
            return
        self._to_hand(seat, card)
        self._continue_gift()

    # church cards (R16–R18)

    def _church(self) -> None:
        card, seat = self.church
        use, _ = self._best_use(seat, card)
        if use is None:
            self._log(seat, {"type": "discard_church"})
        else:
            for c, delta in use:
                self.dice[c] += delta
            action = {"type": "use_church", "dice": [CATEGORIES[c] for c, _ in use]}
            action["delta"] = use[0][1]
            self._log(seat, action)
        self.church = None
        if self.phase == "gift":
            self._continue_gift()
        else:
            self._next_auction()

    # auctions (R9–R15)

    def _start_auctions(self) -> None:
        self.phase = "auction"
        self._rng("auction-pile").shuffle(self.auction_pile)
        self.active = self.first_player
        self._reveal()

    def _next_auction(self) -> None:
        self.active = (self.active + 1) % self.n
        self._reveal()

    def _reveal(self) -> None:
        if not self.auction_pile:
            self.phase = self.step = "over"
            return
        self.auction_card = self.auction_pile.pop(0)
        self.gold_vp = None
        self.excluded = set()
        self._open_bidding()

    def _open_bidding(self) -> None:
        self.high_bid, self.high_bidder, self.given = 0, None, 0
        self.passed = set()
        self.limits = None
        self.bidder = self.active
        self._next_bidder()

    def _next_bidder(self) -> None:
        n = self.n
        in_play = [s for s in range(n) if s not in self.passed and s not in self.excluded]
        if self.high_bidder is not None and in_play == [self.high_bidder]:
            self.bidder = None
            self.step = "give" if KIND[self.auction_card] == "gold" else "pay"
            return
        if not in_play:
            self._settle(self.auction_card)
            self.auction_card = None
            self._next_auction()
            return
        seat = (self.bidder + 1) % n
        while seat not in in_play:
            seat = (seat + 1) % n
        self.bidder = seat
        self.step = "bid"

    def _bid(self) -> None:
        if self.limits is None:
            self.limits = [self._limit(seat) for seat in range(self.n)]
        seat, amount = self.bidder, self.high_bid + 1
        if amount <= self.limits[seat]:
            self._log(seat, {"type": "bid", "amount": amount})
            self.high_bid, self.high_bidder = amount, seat
        else:
            self._log(seat, {"type": "pass"})
            self.passed.add(seat)
        self._next_bidder()

    def _limit(self, seat: int) -> int:
        """The highest bid `seat` makes for the card on auction, within what it can pay."""
        card, gold_vp = self.auction_card, self._gold_vp()
        denied = DENIAL * self._most_helped(seat, card, gold_vp)
        worth = self._gain(seat, card, gold_vp) + denied
        if KIND[card] == "gold":
            costs = sorted(self._keep(seat, held, gold_vp) for held in self.hands[seat])
            limit = 0
            for cost in costs:
                worth -= cost
                if worth <= 0:
                    break
                limit += 1
            return limit
        if worth <= 0:
            return 0
        return min(self.gold[seat], int(worth / max(gold_vp, 1e-6)))

    def _pay(self) -> None:
        seat, bid = self.high_bidder, self.high_bid
        if self.gold[seat] < bid:
            self._refuse(seat)
            return
        by_value = {1: [], 2: [], 3: []}
        for card in sorted(self.hands[seat], key=DECK_ORDER.__getitem__):
            if KIND[card] == "gold":
                by_value[VALUE[card]].append(card)
        best = None  # R11: the least overpay, then the fewest cards
        for threes in range(len(by_value[3]) + 1):
            for twos in range(len(by_value[2]) + 1):
                partial = 3 * threes + 2 * twos
                ones = max(0, bid - partial)
                if ones > len(by_value[1]):
                    continue
                key = (partial + ones, ones + twos + threes)
                if best is None or key < best[0]:
                    best = (key, by_value[1][:ones] + by_value[2][:twos] + by_value[3][:threes])
        cards = best[1]
        self._log(seat, {"type": "pay", "cards": cards})
        gone = set(cards)
        self.hands[seat] = [card for card in self.hands[seat] if card not in gone]
        for card in cards:
            self._count(seat, card, -1)
        self._award(seat)

    def _give(self) -> None:
        seat = self.high_bidder
        hand = self.hands[seat]
        if self.given == 0 and len(hand) < self.high_bid:
            self._refuse(seat)
            return
        gold_vp = self._gold_vp()
        card = min(hand, key=lambda held: (self._keep(seat, held, gold_vp), DECK_ORDER[held]))
        self._log(seat, {"type": "give", "card": card})
        hand.remove(card)
        self._count(seat, card, -1)
        self.given += 1
        if self.given == self.high_bid:
            self._award(seat)

    def _award(self, seat: int) -> None:
        card, self.auction_card = self.auction_card, None
        if KIND[card] == "church":
            self.church, self.step = (card, seat), "church"
            return
        self._to_hand(seat, card)
        self._next_auction()

    def _refuse(self, seat: int) -> None:
        """R13–R15: penalty cards drawn as the engine draws them, then a new round without him."""
        self._log(seat, {"type": "refuse"})
        hand, n = self.hands[seat][:], self.n
        rng = self._rng("penalty")
        if self.bluff:
            if hand:
                card = hand.pop(rng.randrange(len(hand)))
                self._count(seat, card, -1)
        else:
            for offset in range(1, n):
                if not hand:
                    break
                card = hand.pop(rng.randrange(len(hand)))
                self._count(seat, card, -1)
                taker = (seat + offset) % n
                self.hands[taker].append(card)
                self._count(taker, card, 1)
        self.hands[seat] = hand
        self.excluded.add(seat)
        self._open_bidding()
