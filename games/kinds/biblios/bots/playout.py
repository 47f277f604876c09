"""Fast playouts for the Abbot: the rest of a game played the Scholar's way, on plain lists.

Going through `biblios.apply_action` costs a state copy and its checks per action, and a view
per decision; a Monte-Carlo search needs hundreds of playouts per decision. This module
re-states the engine's turn sequence (R3–R18, in the order `biblios` applies them, including its
seeded draws for the auction-pile shuffle and penalties) on mutable lists, and plays every seat
with the Scholar's decisions (`scholar.place`, `pick`, `church`, `bid_limit`,
`least_useful`, least-overpay payments) on an `Outlook` kept per seat until something changes.

Each seat plays on what it could know, not on the sampled world's hidden cards: its own hand,
the cards the table saw go into each hand (`public`, and the picks and purchases made during
the playout), and for the rest of each other hand the average unseen card. A playout whose
seats saw each other's hands would judge a different, much more informed game (such players
beat the Scholar in most games). For the same reason a placement weighs futures drawn at random
from the draw pile, never the cards actually about to be drawn.

Bids: each seat's limit is worked out once per card; it raises by one while under it.

The tests replay a playout's action log through the public engine and check that it is legal
and reaches the same end, so the two statements of the rules cannot drift apart.
"""

import random

from games.kinds.biblios.engine.cards import CATEGORIES, DECK_ORDER, KIND, VALUE
from games.kinds.biblios.engine.scoring import score

from . import scholar
from .valuation import CARD_CAT, CATS, SCHOLAR, Outlook

FUTURES = 2  # futures sampled per placement


class Playout:
    """The rest of one game from an engine state, every seat played the Scholar's way.

    `public[s]`: the cards of seat s's hand the whole table has seen go in (default: all of
    them); `styles[s]`: the weights seat s plays with (default: the Scholar's). `run()` returns
    the engine's `score` of the final hands and dice; with `log=True`
    the actions taken are kept in `actions` as (seat, action) pairs in the engine's format.
    """

    def __init__(self, state, log: bool = False, public=None, styles=None):
        self.n = n = state.num_players
        self.styles = styles or [SCHOLAR] * n
        self.seed, self.rng_draws = state.seed, state.rng_draws
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
        self.bidder, self.high_bid = state.bidder, state.high_bid
        self.high_bidder, self.given = state.high_bidder, state.given
        self.passed, self.excluded = set(state.passed), set(state.excluded)
        self.actions = [] if log else None
        self.chooser = random.Random(f"{state.seed}/playout/{state.version}")
        self.outlooks = [None] * n  # per seat, see _outlook
        self.market = None  # (auctions left, Gold in play), see _outlook
        self.limits = None  # per-seat bid limits for the card on auction

        self.totals = [[0] * len(CATS) for _ in range(n)]
        self.gold = [0] * n
        for seat, hand in enumerate(self.hands):
            for card in hand:
                self._count(self.totals, self.gold, seat, card, 1)
        public = self.hands if public is None else public
        self.known = [set(cards) for cards in public]
        self.seen_totals = [[0] * len(CATS) for _ in range(n)]
        self.seen_gold = [0] * n
        for seat, cards in enumerate(public):
            for card in cards:
                self._count(self.seen_totals, self.seen_gold, seat, card, 1)
        self.unseen = [len(hand) - len(self.known[seat]) for seat, hand in enumerate(self.hands)]
        hidden = [*self.draw_pile, *self.auction_pile, *state.removed]
        for seat, hand in enumerate(self.hands):
            hidden += [card for card in hand if card not in self.known[seat]]
        self.average = [0.0] * len(CATS)  # per unseen card, by category
        self.average_gold = 0.0
        for card in hidden:
            if KIND[card] == "category":
                self.average[CARD_CAT[card]] += VALUE[card] / len(hidden)
            elif KIND[card] == "gold":
                self.average_gold += VALUE[card] / len(hidden)
        self.unsettled = [0] * len(CATS)  # category value not yet in any hand
        upcoming = [*self.draw_pile, *self.public, *self.auction_pile]
        upcoming += [card for card in (self.drawing, self.self_card, self.auction_card) if card]
        for card in upcoming:
            if KIND[card] == "category":
                self.unsettled[CARD_CAT[card]] += VALUE[card]

    # ------------------------------------------------------------------- what each seat knows

    @staticmethod
    def _count(totals, gold, seat: int, card: str, sign: int) -> None:
        kind = KIND[card]
        if kind == "category":
            totals[seat][CARD_CAT[card]] += sign * VALUE[card]
        elif kind == "gold":
            gold[seat] += sign * VALUE[card]

    def _changed(self) -> None:
        self.outlooks = [None] * self.n

    def _outlook(self, seat: int) -> Outlook:
        """The game as `seat` sees it: its own hand exact, the others' as the table knows them."""
        outlook = self.outlooks[seat]
        if outlook is None:
            if self.market is None:
                self.market = self._market()
            totals, gold, hidden = [], [], 0
            for other in range(self.n):
                if other == seat:
                    totals.append(self.totals[seat])
                    gold.append(self.gold[seat])
                    continue
                unseen = self.unseen[other]
                hidden += unseen
                seen = self.seen_totals[other]
                totals.append([seen[c] + unseen * self.average[c] for c in CATS])
                gold.append(self.seen_gold[other] + unseen * self.average_gold)
            unsettled = [self.unsettled[c] + hidden * self.average[c] for c in CATS]
            outlook = Outlook(self.dice, totals, gold, unsettled, *self.market, self.styles[seat])
            self.outlooks[seat] = outlook
        return outlook

    def _market(self) -> tuple:
        """Non-Gold auctions still to come and the Gold in play, for the price of Gold."""
        left = sum(1 for card in self.auction_pile if KIND[card] != "gold")
        if self.auction_card and KIND[self.auction_card] != "gold":
            left += 1
        left += sum(1 for card in self.draw_pile if KIND[card] != "gold") / (self.n + 1)
        coming = (*self.draw_pile, *self.public, *self.auction_pile)
        return left, sum(self.gold) + sum(VALUE[c] for c in coming if KIND[c] == "gold")

    def _to_hand(self, seat: int, card: str, seen: bool, dealt: bool = True) -> None:
        """A card joins `seat`'s hand: `dealt` from the supply, or taken from another hand."""
        self.hands[seat].append(card)
        self._count(self.totals, self.gold, seat, card, 1)
        if dealt:
            self._settle(card)
        self._changed()
        if seen:
            self.known[seat].add(card)
            self._count(self.seen_totals, self.seen_gold, seat, card, 1)
        else:
            self.unseen[seat] += 1

    def _from_hand(self, seat: int, card: str, seen: bool) -> None:
        """A card leaves `seat`'s hand; if the table does not see which, one unseen card fewer."""
        self.hands[seat].remove(card)
        self._count(self.totals, self.gold, seat, card, -1)
        if card in self.known[seat] and (seen or not self.unseen[seat]):
            self.known[seat].discard(card)
            self._count(self.seen_totals, self.seen_gold, seat, card, -1)
        elif self.unseen[seat]:
            self.unseen[seat] -= 1
        self._changed()

    def _settle(self, card: str) -> None:
        """A card leaves the still-to-deal supply (into a hand or out of the game)."""
        if KIND[card] == "category":
            self.unsettled[CARD_CAT[card]] -= VALUE[card]
        self._changed()

    # ------------------------------------------------------------------------------ the game

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

    # gift phase (R3–R8)

    def _place(self) -> None:
        seat, card, n = self.active, self.drawing, self.n
        slots = set()
        if not self.self_used:
            slots.add("self")
        if not self.auction_used:
            slots.add("auction")
        public_left = n - 1 - len(self.public)
        if public_left > 0:
            slots.add("public")
        if len(slots) == 1:
            (to,) = slots
        else:
            to_come = n - self.placed
            futures = [self.chooser.sample(self.draw_pile, to_come) for _ in range(FUTURES)]
            to = scholar.place(self._outlook(seat), seat, card, slots, public_left, futures)
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

    def _continue_gift(self) -> None:
        n = self.n
        while True:
            if self.placed < n + 1:
                self.drawing = self.draw_pile.pop(0)
                self.step = "place"
                return
            if self.self_card is not None:
                card, self.self_card = self.self_card, None
                self._to_hand(self.active, card, seen=False)
            if self.picks < n - 1:
                self.step = "pick"
                return
            if not self.draw_pile:
                self._start_auctions()
                return
            self.active = (self.active + 1) % n
            self.market = None
            self.placed = self.picks = 0
            self.self_used = self.auction_used = False

    def _pick(self) -> None:
        seat = (self.active + 1 + self.picks) % self.n
        if len(self.public) == 1:
            card = self.public[0]
        else:
            card = scholar.pick(self._outlook(seat), seat, self.public)
        self._log(seat, {"type": "pick", "card": card})
        self.public.remove(card)
        self.picks += 1
        if KIND[card] == "church":
            self.church, self.step = (card, seat), "church"
            return
        self._to_hand(seat, card, seen=True)
        self._continue_gift()

    # church cards (R16–R18)

    def _church(self) -> None:
        card, seat = self.church
        action = scholar.church(self._outlook(seat), seat, card)
        self._log(seat, action)
        if action["type"] == "use_church":
            for category in action["dice"]:
                self.dice[CATEGORIES.index(category)] += action["delta"]
            self._changed()
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
        self.market = None
        self._changed()
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
            card = self.auction_card
            self.limits = [
                scholar.bid_limit(self._outlook(seat), seat, card, self.hands[seat])
                for seat in range(self.n)
            ]
        seat, amount = self.bidder, self.high_bid + 1
        if amount <= self.limits[seat]:
            self._log(seat, {"type": "bid", "amount": amount})
            self.high_bid, self.high_bidder = amount, seat
        else:
            self._log(seat, {"type": "pass"})
            self.passed.add(seat)
        self._next_bidder()

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
        for card in cards:
            self._from_hand(seat, card, seen=True)
        self._award(seat)

    def _give(self) -> None:
        seat = self.high_bidder
        hand = self.hands[seat]
        if self.given == 0 and len(hand) < self.high_bid:
            self._refuse(seat)
            return
        card = scholar.least_useful(self._outlook(seat), seat, hand)
        self._log(seat, {"type": "give", "card": card})
        self._from_hand(seat, card, seen=False)
        self.given += 1
        if self.given == self.high_bid:
            self._award(seat)

    def _award(self, seat: int) -> None:
        card, self.auction_card = self.auction_card, None
        if KIND[card] == "church":
            self.church, self.step = (card, seat), "church"
            return
        self._to_hand(seat, card, seen=True)
        self._next_auction()

    def _refuse(self, seat: int) -> None:
        """R13–R15: penalty cards drawn as the engine draws them, then a new round without him."""
        self._log(seat, {"type": "refuse"})
        hand, n = self.hands[seat][:], self.n
        rng = self._rng("penalty")
        if self.bluff:
            if hand:
                self._from_hand(seat, hand.pop(rng.randrange(len(hand))), seen=False)
        else:
            for offset in range(1, n):
                if not hand:
                    break
                card = hand.pop(rng.randrange(len(hand)))
                self._from_hand(seat, card, seen=False)
                self._to_hand((seat + offset) % n, card, seen=False, dealt=False)
        self.excluded.add(seat)
        self._open_bidding()
