"""What each action does once the rules allow it (`_EFFECTS`): the gift phase (R3-R8), the
church cards (R16-R18) and the auctions (R9-R15), each step running on to the next decision."""

import random

from .cards import CATEGORY_INDEX, KIND
from .state import (
    State,
    _add_to_hand,
    _event,
    _remove_from_hand,
    _rng,
    _sorted_cards,
)

# ------------------------------------------------------------------------------- gift phase


def _do_place(state: State, seat: int, action) -> None:
    """R3, R4: place the drawn card; a church card kept for oneself is acquired at once."""
    card, to = state.drawing, action["to"]
    state.drawing = None
    state.placed += 1
    if to == "self":
        state.self_used = True
        if KIND[card] == "church":
            _event(state, "placed", seat=seat, to="self", card=card)
            _acquire_church(state, card, seat)
            return
        state.self_card = card
        state.events.append(  # the events of every step's path written out, as `_event` would
            {
                "type": "placed",
                "seat": seat,
                "to": "self",
                "secret_to": [seat],
                "secret": {"card": card},
            }
        )
    elif to == "auction":
        state.auction_used = True
        state.auction_pile = [*state.auction_pile, card]
        state.placed_by = {**state.placed_by, card: seat}
        state.events.append(
            {
                "type": "placed",
                "seat": seat,
                "to": "auction",
                "secret_to": [seat],
                "secret": {"card": card},
            }
        )
    else:
        state.public_space = [*state.public_space, card]
        state.events.append({"type": "placed", "seat": seat, "to": "public", "card": card})
    _continue_gift(state)


def _do_pick(state: State, seat: int, action) -> None:
    """R5, R6: take one public card; a church card is resolved before the next pick."""
    card = action["card"]
    state.public_space = [other for other in state.public_space if other != card]
    state.picks += 1
    state.events.append({"type": "picked", "seat": seat, "card": card})
    if KIND[card] == "church":
        _acquire_church(state, card, seat)
        return
    _add_to_hand(state, seat, card)
    _continue_gift(state)


def _continue_gift(state: State) -> None:
    """Advance the gift phase to the next decision: draw, take the self card, pick, next turn."""
    n = state.num_players
    while True:
        if state.placed < n + 1:
            active, card = state.active, state.draw_pile[0]
            state.drawing, state.draw_pile = card, state.draw_pile[1:]
            state.step = "place"
            state.events.append(
                {"type": "drew", "seat": active, "secret_to": [active], "secret": {"card": card}}
            )
            return
        if state.self_card is not None:  # R5: allocation done, the self card goes to hand
            card, state.self_card = state.self_card, None
            _add_to_hand(state, state.active, card)
            _event(
                state, "took_own_card", seat=state.active, secret_to=[state.active],
                secret={"card": card},
            )  # fmt: skip
        if state.picks < n - 1:
            state.step = "pick"
            return
        if not state.draw_pile:  # R8
            _start_auctions(state)
            return
        state.active = (state.active + 1) % n
        state.placed = state.picks = 0
        state.self_used = state.auction_used = False
        _event(state, "gift_turn", seat=state.active)


# --------------------------------------------------------------------------------- church


def _acquire_church(state: State, card: str, owner: int) -> None:
    """R16: the game waits while the owner resolves the church card just acquired."""
    state.church = [card, owner]
    state.step = "church"
    _event(state, "church_acquired", seat=owner, card=card)


def _do_use_church(state: State, seat: int, action) -> None:
    """R17: move the chosen dice by the card's delta; the card is then discarded."""
    delta = action["delta"]
    dice = state.dice[:]
    for category in action["dice"]:
        dice[CATEGORY_INDEX[category]] += delta
    state.dice = dice
    dice_moved = list(action["dice"])
    _event(state, "church_used", seat=seat, card=state.church[0], dice=dice_moved, delta=delta)
    _finish_church(state)


def _do_discard_church(state: State, seat: int, action) -> None:
    _event(state, "church_unused", seat=seat, card=state.church[0])
    _finish_church(state)


def _finish_church(state: State) -> None:
    """R16: a church card never stays in hand; then the interrupted phase resumes."""
    state.discard = [*state.discard, state.church[0]]
    state.church = None
    if state.phase == "gift":
        _continue_gift(state)
    else:
        _next_auction(state)


# -------------------------------------------------------------------------------- auctions


def _start_auctions(state: State) -> None:
    """R9: shuffle the auction pile; the game's first player auctions the first card."""
    state.phase = "auction"
    pile = state.auction_pile[:]
    _rng(state, "auction-pile").shuffle(pile)
    state.auction_pile = pile
    state.active = state.first_player
    _event(state, "auction_phase", cards=len(state.auction_pile))
    _reveal(state)


def _next_auction(state: State) -> None:
    """The current card is settled: the next player clockwise auctions the next card."""
    state.active = (state.active + 1) % state.num_players
    _reveal(state)


def _reveal(state: State) -> None:
    if not state.auction_pile:
        state.phase = state.step = "over"
        state.bidder = state.high_bidder = None
        _event(state, "game_over")
        return
    card, state.auction_pile = state.auction_pile[0], state.auction_pile[1:]
    state.placed_by = {other: seat for other, seat in state.placed_by.items() if other != card}
    state.auction_card = card
    state.excluded = []
    _event(state, "auction_card", seat=state.active, card=card)
    _open_bidding(state)


def _open_bidding(state: State) -> None:
    """R9, R14: bidding (re)starts on the active player's left, defaulters excluded."""
    state.high_bid, state.high_bidder, state.given = 0, None, 0
    state.passed, state.bids = [], []
    state.bidder = state.active
    _next_bidder(state)


def _do_bid(state: State, seat: int, action) -> None:
    amount = action["amount"]
    state.high_bid, state.high_bidder = amount, seat
    state.bids = [*state.bids, [seat, amount]]
    state.events.append({"type": "bid", "seat": seat, "amount": amount})  # as `_event` writes it
    _next_bidder(state)


def _do_pass(state: State, seat: int, action) -> None:
    state.passed = [*state.passed, seat]
    state.bids = [*state.bids, [seat, None]]
    state.events.append({"type": "passed", "seat": seat})
    _next_bidder(state)


def _next_bidder(state: State) -> None:
    """R9: settle the auction when all but the high bidder have passed, else ask the next seat.

    The seats out are those that passed and the defaulters (R14), never both at once (a
    defaulter is not asked again, and bidding restarts with nobody passed), and never the high
    bidder (only the seat asked passes, and the high bidder is asked again only once outbid)."""
    n = state.num_players
    passed, excluded = state.passed, state.excluded
    in_play = n - len(passed) - len(excluded)
    if in_play == 1 and state.high_bidder is not None:
        state.bidder = None
        state.step = "give" if KIND[state.auction_card] == "gold" else "pay"
        _event(state, "auction_won", seat=state.high_bidder, amount=state.high_bid)
        return
    if not in_play:
        _event(state, "card_unsold", card=state.auction_card)
        state.discard = [*state.discard, state.auction_card]
        state.auction_card = None
        _next_auction(state)
        return
    seat = (state.bidder + 1) % n
    while seat in passed or seat in excluded:
        seat = (seat + 1) % n
    state.bidder = seat
    state.step = "bid"


def _do_pay(state: State, seat: int, action) -> None:
    """R11: the Gold paid is shown to everyone and discarded."""
    cards = _sorted_cards(action["cards"])
    _remove_from_hand(state, seat, cards)
    state.discard = [*state.discard, *cards]
    _event(state, "paid", seat=seat, cards=cards, amount=state.high_bid)
    _award(state, seat)


def _do_give(state: State, seat: int, action) -> None:
    """R12: one card discarded face down; nobody else learns which."""
    card = action["card"]
    hand = state.hands[seat]
    state.hands[seat] = [other for other in hand if other != card]
    state.hidden_discard = [*state.hidden_discard, [card, [seat]]]
    state.given += 1
    state.events.append(
        {"type": "gave", "seat": seat, "secret_to": [seat], "secret": {"card": card}}
    )
    if state.given == state.high_bid:
        _award(state, seat)


def _award(state: State, seat: int) -> None:
    """The paid-for card goes to the winner; a church card is acquired now (R16)."""
    card, state.auction_card = state.auction_card, None
    if KIND[card] == "church":
        _acquire_church(state, card, seat)
        return
    _add_to_hand(state, seat, card)
    _event(state, "card_bought", seat=seat, card=card)
    _next_auction(state)


def _do_refuse(state: State, seat: int, action) -> None:
    """R13–R15: the defaulter is penalised and the same card is auctioned again without them."""
    _event(state, "refused", seat=seat, amount=state.high_bid)
    hand, n = state.hands[seat][:], state.num_players
    rng = _Later(state, "penalty")
    if state.options["medieval_bluff"]:  # R15
        if hand:
            left = (seat + 1) % n
            card = hand.pop(rng.randrange(len(hand)))
            state.hidden_discard = [*state.hidden_discard, [card, [left, seat]]]
            _event(
                state, "penalty_discard", seat=left, loser=seat, secret_to=[left, seat],
                secret={"card": card},
            )  # fmt: skip
    else:  # R14
        for offset in range(1, n):
            taker = (seat + offset) % n
            if not hand:
                break
            card = hand.pop(rng.randrange(len(hand)))
            _add_to_hand(state, taker, card)
            _event(
                state, "penalty_take", seat=taker, loser=seat, secret_to=[taker, seat],
                secret={"card": card},
            )  # fmt: skip
    state.hands[seat] = hand
    state.excluded = [*state.excluded, seat]
    _open_bidding(state)


class _Later:
    """`_rng(state, purpose)`, the draw counted now but the stream seeded only once a draw has
    a choice to make (seeding costs more than a whole action; a one-card hand offers none)."""

    __slots__ = ("state", "purpose", "draws", "stream", "skipped")

    def __init__(self, state: State, purpose: str):
        state.rng_draws += 1
        self.state, self.purpose, self.draws = state, purpose, state.rng_draws
        self.stream, self.skipped = None, 0

    def randrange(self, size: int) -> int:
        if self.stream is None:
            if size == 1:
                self.skipped += 1  # randrange(1) is 0 whatever the stream; drawn if one comes
                return 0
            self.stream = random.Random(f"{self.state.seed}/{self.purpose}/{self.draws}")
            for _ in range(self.skipped):
                self.stream.randrange(1)
        return self.stream.randrange(size)


_EFFECTS = {
    "place": _do_place,
    "pick": _do_pick,
    "use_church": _do_use_church,
    "discard_church": _do_discard_church,
    "bid": _do_bid,
    "pass": _do_pass,
    "pay": _do_pay,
    "give": _do_give,
    "refuse": _do_refuse,
}
