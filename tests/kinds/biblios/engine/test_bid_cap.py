"""R10, R13: the default bid cap (docs/engine.md "Bid cap"). Without the table option that
forbids uncoverable bids, the highest bid offered depends only on public facts, the bidder's
hand size: 3 × hand size for a Gold bid, hand size for a card-count bid; the minimum bid is
always offered. Two hands of one size but different Gold get the same bids, so bids reveal
nothing of the hand."""

import pytest

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS, GOLD_BY_VALUE, KIND

from .helpers import PASS, act, bid, deal_game, pass_until

TARGET = "forbidden_tomes-H"  # a non-Gold card: bids count Gold
GOLD_PRIZE = "gold-3-01"  # a Gold card: bids count cards


def bids_offered(state, seat) -> list[int]:
    return [a["amount"] for a in biblios.legal_actions(state, seat) if a["type"] == "bid"]


def bidding_seat(hand: list[str], prize: str) -> tuple[biblios.State, int]:
    """Seat 0 holding `hand` (padded with category cards), asked to bid on `prize`."""
    state = pass_until(deal_game(2, [hand], [prize], hand_fill=("category",)), prize)
    if state.bidder != 0:
        state = act(state, (state.bidder, PASS))
    assert state.bidder == 0 and state.step == "bid"
    return state, 0


def category_cards(count: int) -> list[str]:
    return [card for card in CARD_IDS if KIND[card] == "category" and card != TARGET][:count]


@pytest.mark.parametrize(
    "hand",
    [
        category_cards(20),  # no Gold at all
        list(GOLD_BY_VALUE[3][:2]) + category_cards(18),  # Gold value 6
        list(GOLD_BY_VALUE[1][:3]) + list(GOLD_BY_VALUE[3][:3]) + category_cards(14),  # 12
    ],
    ids=["no-gold", "gold-6", "gold-12"],
)
def test_by_default_gold_bids_go_up_to_three_times_the_hand_size_whatever_the_gold(hand):
    state, seat = bidding_seat(hand, TARGET)
    size = len(state.hands[seat])
    assert bids_offered(state, seat) == list(range(1, 3 * size + 1))
    with pytest.raises(biblios.IllegalAction, match="R13"):
        biblios.apply_action(state, seat, bid(3 * size + 1))
    state = act(state, (seat, bid(3 * size)))  # uncoverable, yet accepted (R13)
    assert state.high_bid == 3 * size and state.high_bidder == seat


def test_by_default_card_bids_go_up_to_the_hand_size():
    state, seat = bidding_seat(category_cards(20), GOLD_PRIZE)
    size = len(state.hands[seat])
    assert bids_offered(state, seat) == list(range(1, size + 1))
    with pytest.raises(biblios.IllegalAction, match="R13"):
        biblios.apply_action(state, seat, bid(size + 1))


def test_by_default_the_minimum_bid_is_offered_even_above_the_cap():
    """After a bid at one hand's cap, the next bidder may always bid one more."""
    state = pass_until(deal_game(2, [], [GOLD_PRIZE]), GOLD_PRIZE)
    first, second = state.bidder, 1 - state.bidder
    top = len(state.hands[first])
    state = act(state, (first, bid(top)))
    cap = max(top + 1, len(state.hands[second]))
    assert bids_offered(state, second) == list(range(top + 1, cap + 1))
    state = act(state, (second, bid(top + 1)))
    assert state.high_bid == top + 1 and state.high_bidder == second


def test_the_default_is_that_uncoverable_bids_are_allowed():
    assert biblios.OPTIONS["forbid_uncoverable_bids"] is False
    assert biblios.new_game(2, seed=1).options["forbid_uncoverable_bids"] is False
