"""Auction phase scenarios: R9–R15 (and the R22 secrecy of payments and penalties)."""

import itertools
import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS, GOLD_BY_VALUE, KIND, VALUE

from .helpers import (
    PASS,
    REFUSE,
    act,
    bid,
    deal_game,
    first_seed,
    pass_round,
    pass_until,
    win_auction,
)

TARGET = "forbidden_tomes-H"  # a non-Gold card (Forbidden Tome 2) put into the auction pile


def shows(view_or_events, card: str) -> bool:
    return f'"{card}"' in json.dumps(view_or_events)


def pay(*cards):
    return {"type": "pay", "cards": list(cards)}


def give(card):
    return {"type": "give", "card": card}


def gold(value, count, skip=0):
    return list(GOLD_BY_VALUE[value][skip : skip + count])


def category_cards(count, avoid=()):
    return [c for c in CARD_IDS if KIND[c] == "category" and c not in avoid][:count]


# ----------------------------------------------------------------------------------- R9


def test_r9_auction_pile_is_shuffled_and_its_order_hidden():
    """R9: the cards placed in the auction pile are auctioned in shuffled order (driven by the
    seed); R22: players know only the cards they placed themselves, as a set."""
    placed = category_cards(20)
    orders = []
    for seed in range(4):
        state = deal_game(2, [], placed, seed=seed)
        order = [state.auction_card] + state.auction_pile
        assert sorted(order) == sorted(placed)
        orders.append(order)
        again = deal_game(2, [], placed, seed=seed)
        assert [again.auction_card] + again.auction_pile == order  # same seed, same order
    assert any(order != placed for order in orders)
    assert len({tuple(order) for order in orders}) > 1

    seen = biblios.view(state, 0)
    assert seen["auction_pile_size"] == 19
    mine = [card for card in placed[0::2] if card in state.auction_pile]  # seat 0: even turns
    assert sorted(seen["my_auction_cards"]) == sorted(mine)
    assert seen["my_auction_cards"] == sorted(mine, key=CARD_IDS.index)  # as a set, not in order
    assert not [card for card in state.auction_pile if shows(biblios.view(state, None), card)]


@pytest.mark.parametrize("first", [0, 1, 2])
def test_r9_first_player_opens_the_auctions_then_rotation_clockwise(first):
    """R2, R9: the game's first player auctions the first card; then each next player
    clockwise; bidding starts on the auctioneer's left."""
    state = deal_game(3, [], [], first_player=first, auction_fill=("gold",))
    assert all(KIND[card] == "gold" for card in [state.auction_card] + state.auction_pile)
    for k in range(5):
        auctioneer = (first + k) % 3
        assert state.active == auctioneer
        assert biblios.view(state, None)["auction"]["auctioneer"] == auctioneer
        assert biblios.to_act(state) == [(auctioneer + 1) % 3]
        if k == 2:  # a sold card moves the rotation on just the same
            state = win_auction(state, auctioneer, 1)
            state = act(state, (auctioneer, give(state.hands[auctioneer][0])))
        else:
            state = pass_round(state)


def test_r9_bidding_goes_round_including_the_active_player_as_many_laps_as_needed():
    state = pass_until(deal_game(3, [gold(3, 2)], [TARGET]), TARGET)
    active = state.active
    left, third = (active + 1) % 3, (active + 2) % 3
    order = []

    def step(state, seat, action):
        order.append(biblios.to_act(state)[0])
        return act(state, (seat, action))

    state = step(state, left, bid(1))
    state = step(state, third, bid(2))
    state = step(state, active, bid(3))  # the active player bids too
    state = step(state, left, bid(4))  # second lap
    state = step(state, third, PASS)
    assert biblios.to_act(state) == [active]
    state = step(state, active, PASS)
    assert order == [left, third, active, left, third, active]
    assert state.step == "pay" and state.high_bidder == left
    assert state.high_bid == 4
    assert biblios.to_act(state) == [left]
    bids = biblios.view(state, None)["auction"]["bids"]  # R22: every bid is public
    assert bids == [[left, 1], [third, 2], [active, 3], [left, 4], [third, None], [active, None]]


def test_r9_a_pass_is_final_for_that_card():
    state = pass_until(deal_game(3, [], [TARGET]), TARGET)
    active = state.active
    left, third = (active + 1) % 3, (active + 2) % 3
    state = act(state, (left, PASS), (third, bid(1)), (active, bid(2)))
    assert biblios.to_act(state) == [third]  # the passed seat is skipped
    assert biblios.legal_actions(state, left) == []
    with pytest.raises(biblios.IllegalAction, match="R9"):
        biblios.apply_action(state, left, bid(5))
    state = act(state, (third, bid(3)))
    assert biblios.to_act(state) == [active]
    state = act(state, (active, PASS))
    assert state.high_bidder == third and state.step == "pay"


def test_r9_if_nobody_bids_the_card_leaves_the_game_publicly():
    state = pass_until(deal_game(3, [], [TARGET]), TARGET)
    active, hands = state.active, [list(hand) for hand in state.hands]
    state = act(state, ((active + 1) % 3, PASS), ((active + 2) % 3, PASS))
    assert state.auction_card == TARGET and biblios.to_act(state) == [active]
    state = act(state, (active, PASS))
    assert state.auction_card != TARGET
    assert TARGET in state.discard
    assert state.hands == hands
    for seat in (0, 1, 2, None):
        assert TARGET in biblios.view(state, seat)["public_discard"]
        assert {"type": "card_unsold", "card": TARGET} in biblios.events_for(state, seat)
    assert state.active == (active + 1) % 3


# ---------------------------------------------------------------------------------- R10


@pytest.mark.parametrize("amount", [0, -1, 1.5, 2.0, True, False, "2", None, [2]])
def test_r10_bids_are_whole_numbers_at_least_1(amount):
    state = pass_until(deal_game(2, [gold(3, 3)], [TARGET]), TARGET)
    seat = state.bidder
    with pytest.raises(biblios.IllegalAction, match="R10"):
        biblios.apply_action(state, seat, bid(amount))
    assert biblios.legal_actions(state, seat)[0] == bid(1)


def test_r9_r10_each_bid_must_exceed_the_current_one():
    state = pass_until(deal_game(2, [gold(3, 3)], [TARGET]), TARGET)
    first = state.bidder
    state = act(state, (first, bid(3)))
    second = state.bidder
    for low in (1, 2, 3):
        with pytest.raises(biblios.IllegalAction, match="R9"):
            biblios.apply_action(state, second, bid(low))
    amounts = [a["amount"] for a in biblios.legal_actions(state, second) if a["type"] == "bid"]
    assert min(amounts) == 4
    state = act(state, (second, bid(4)))
    assert state.high_bid == 4 and state.high_bidder == second


# ---------------------------------------------------------------------------------- R11


def test_r11_winner_pays_with_gold_shown_to_everyone_and_discarded():
    winner_gold = gold(2, 1) + gold(3, 1)
    state = pass_until(deal_game(3, [[], winner_gold], [TARGET]), TARGET)
    state = win_auction(state, 1, 4)
    assert state.step == "pay" and biblios.to_act(state) == [1]
    before = list(state.hands[1])

    with pytest.raises(biblios.IllegalAction, match="R11"):  # a non-Gold card
        biblios.apply_action(state, 1, pay(winner_gold[1], before[-1]))
    with pytest.raises(biblios.IllegalAction, match="R11"):  # 3 < 4
        biblios.apply_action(state, 1, pay(winner_gold[1]))
    with pytest.raises(biblios.IllegalAction, match="R11"):  # not in the winner's hand
        biblios.apply_action(state, 1, pay("gold-3-05", winner_gold[0]))
    with pytest.raises(biblios.IllegalAction, match="R11"):  # the same card twice
        biblios.apply_action(state, 1, pay(winner_gold[1], winner_gold[1]))
    with pytest.raises(biblios.IllegalAction, match="R11|R12"):  # not a Gold auction
        biblios.apply_action(state, 1, give(winner_gold[0]))

    state = act(state, (1, pay(*winner_gold)))
    assert sorted(state.hands[1]) == sorted([c for c in before if c not in winner_gold] + [TARGET])
    for card in winner_gold:
        assert card in state.discard
    for seat in (0, 1, 2, None):
        events = biblios.events_for(state, seat)
        paid = [e for e in events if e["type"] == "paid"]
        assert paid and sorted(paid[0]["cards"]) == sorted(winner_gold) and paid[0]["seat"] == 1
        assert set(winner_gold) <= set(biblios.view(state, seat)["public_discard"])


def test_r11_any_covering_set_is_accepted_no_change_given():
    """R11: paying more than needed (even a non-minimal set) is allowed; nothing comes back."""
    winner_gold = gold(1, 1) + gold(2, 1) + gold(3, 2)
    state = pass_until(deal_game(2, [winner_gold], [TARGET]), TARGET)
    state = win_auction(state, 0, 4)
    state = act(state, (0, pay(*winner_gold)))  # 9 for a bid of 4
    assert not [c for c in state.hands[0] if KIND[c] == "gold"]
    assert set(winner_gold) <= set(state.discard)
    assert TARGET in state.hands[0]


def _value_sets(payments):
    return sorted(tuple(sorted(VALUE[c] for c in cards)) for cards in payments)


def _minimal_covering_by_brute_force(values, amount):
    """Every multiset of the hand's Gold values that covers `amount` and from which no single
    card can be removed while still covering it (independent of the engine)."""
    found = set()
    for size in range(1, len(values) + 1):
        for combo in itertools.combinations(values, size):
            total = sum(combo)
            if total >= amount and all(total - v < amount for v in combo):
                found.add(tuple(sorted(combo)))
    return sorted(found)


@pytest.mark.parametrize(
    "values, amount, expected",
    [
        # worked by hand: {1,3}=4, {2,3}=5, {3,3}=6 are minimal; {1,2,3} is not (drop the 1)
        ([1, 2, 3, 3], 4, [(1, 3), (2, 3), (3, 3)]),
        # {2,3}=5 and {2,2,2}=6 are minimal; {2,2,3}=7 is not (drop a 2)
        ([2, 2, 2, 3], 5, [(2, 2, 2), (2, 3)]),
        # {3} and {1,1,1}; {1,3} is not minimal
        ([1, 1, 1, 3], 3, [(1, 1, 1), (3,)]),
        ([3, 3], 4, [(3, 3)]),
        # {1,3}, {2,2}, {1,1,2}, {2,3}; {1,1,3}, {1,2,2} are not minimal
        ([1, 1, 2, 2, 3], 4, [(1, 1, 2), (1, 3), (2, 2), (2, 3)]),
        ([1, 2], 4, []),  # cannot cover: only refusing is left
    ],
)
def test_r11_legal_payments_are_exactly_the_minimal_covering_sets(values, amount, expected):
    assert _minimal_covering_by_brute_force(values, amount) == expected  # hand check agrees
    counts = Counter(values)
    hand = [card for value in (1, 2, 3) for card in gold(value, counts[value])]
    state = pass_until(deal_game(2, [hand], [TARGET], hand_fill=("category",)), TARGET)
    state = win_auction(state, 0, amount)
    legal = biblios.legal_actions(state, 0)
    payments = [a["cards"] for a in legal if a["type"] == "pay"]
    assert _value_sets(payments) == expected
    assert REFUSE in legal
    for cards in payments:  # listed with the winner's own cards, each once
        assert len(set(cards)) == len(cards) and set(cards) <= set(hand)
    if payments:  # the least-overpay proposal (R11) is among them
        best = min(sum(VALUE[c] for c in cards) for cards in payments)
        brute = min(sum(s) for s in _minimal_covering_by_brute_force(values, amount))
        assert best == brute
        for cards in payments:  # and each listed payment applies
            after = biblios.apply_action(state, 0, pay(*cards))
            assert TARGET in after.hands[0]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ones=st.integers(0, 4),
    twos=st.integers(0, 4),
    threes=st.integers(0, 4),
    amount=st.integers(1, 14),
)
def test_r11_minimal_payments_match_brute_force(ones, twos, threes, amount):
    """R11: for any Gold hand and bid, the listed payments are the minimal covering sets
    (by value), computed here by brute force over all subsets."""
    values = [1] * ones + [2] * twos + [3] * threes
    hand = gold(1, ones) + gold(2, twos) + gold(3, threes)
    state = pass_until(deal_game(2, [hand], [TARGET], hand_fill=("category",)), TARGET)
    state = win_auction(state, 0, amount)
    payments = [a["cards"] for a in biblios.legal_actions(state, 0) if a["type"] == "pay"]
    assert _value_sets(payments) == _minimal_covering_by_brute_force(values, amount)


# ---------------------------------------------------------------------------------- R12


def test_r12_gold_card_paid_with_cards_of_any_kind_face_down_one_at_a_time():
    """R12: a Gold card's bids are card counts; the winner discards that many cards one at a
    time, face down; refusing is possible only before the first card. Nobody else (players,
    spectators) learns which cards were discarded."""
    prize = "gold-3-01"
    state = pass_until(deal_game(3, [], [prize]), prize)
    winner = (state.active + 2) % 3
    state = win_auction(state, winner, 2)
    assert state.step == "give" and biblios.to_act(state) == [winner]
    hand = list(state.hands[winner])
    assert len(hand) == 18
    legal = biblios.legal_actions(state, winner)
    assert sorted(a["card"] for a in legal if a["type"] == "give") == sorted(hand)
    assert REFUSE in legal
    with pytest.raises(biblios.IllegalAction, match="R11|R12"):
        biblios.apply_action(state, winner, pay(hand[0]))

    first, second = hand[0], hand[5]  # category cards: any kind may be given
    assert KIND[first] == KIND[second] == "category"
    state = act(state, (winner, give(first)))
    assert state.auction_card == prize and state.given == 1
    assert REFUSE not in biblios.legal_actions(state, winner)
    with pytest.raises(biblios.IllegalAction, match="R12"):
        biblios.apply_action(state, winner, REFUSE)
    others = [seat for seat in (0, 1, 2) if seat != winner] + [None]
    for seat in others:
        assert not shows(biblios.view(state, seat), first)
        assert not shows(biblios.events_for(state, seat), first)
    state = act(state, (winner, give(second)))

    assert state.auction_card != prize
    assert sorted(state.hands[winner]) == sorted(
        [c for c in hand if c not in (first, second)] + [prize]
    )
    for seat in others:
        seen = biblios.view(state, seat)
        for card in (first, second):
            assert not shows(seen, card)
            assert not shows(biblios.events_for(state, seat), card)
        assert seen["hand_sizes"][winner] == 17
    mine = biblios.view(state, winner)["my_hidden_discards"]
    assert first in mine and second in mine
    assert first not in state.discard and [first, [winner]] in state.hidden_discard


def test_r12_give_not_offered_when_the_hand_is_too_small():
    """R12, R13: a winner who holds fewer cards than the bid can only refuse."""
    prize = "gold-3-01"
    state = pass_until(deal_game(2, [], [prize]), prize)
    winner = state.bidder
    state = win_auction(state, winner, 20)  # the hand holds exactly 20 cards: payable
    assert len(biblios.legal_actions(state, winner)) == 21
    state = pass_until(deal_game(2, [], [prize]), prize)
    state = act(state, (winner, bid(20)))
    other = 1 - winner
    state = act(state, (other, bid(21)))  # uncoverable: 20 cards in hand (R13 allows it)
    state = act(state, (winner, PASS))
    assert state.step == "give"
    assert biblios.legal_actions(state, other) == [REFUSE]
    with pytest.raises(biblios.IllegalAction, match="R12"):
        biblios.apply_action(state, other, give(state.hands[other][0]))


# ---------------------------------------------------------------------------------- R13


def test_r13_uncoverable_bid_allowed_by_default_and_refusal_is_penalised():
    """R13: a player without any Gold may bid on a non-Gold card; winning, they can only
    refuse, and the penalty (R14) applies."""
    no_gold = category_cards(20, avoid=[TARGET])
    state = pass_until(deal_game(2, [no_gold], [TARGET]), TARGET)
    assert not [c for c in state.hands[0] if KIND[c] == "gold"]
    state = win_auction(state, 0, 5)
    assert state.step == "pay" and state.high_bidder == 0
    assert biblios.legal_actions(state, 0) == [REFUSE]
    state = act(state, (0, REFUSE))
    assert len(state.hands[0]) == 19 and len(state.hands[1]) == 21
    assert state.excluded == [0] and state.auction_card == TARGET


def test_r13_forbid_uncoverable_bids_option_non_gold_card():
    """R13 option: bids above the bidder's Gold value are neither offered nor accepted."""
    three_gold = gold(1, 1) + gold(2, 1)  # Gold value 3
    state = deal_game(
        2, [three_gold, category_cards(20)], [TARGET], options={"forbid_uncoverable_bids": True}
    )
    state = pass_until(state, TARGET)
    if state.bidder == 1:
        state = act(state, (1, PASS))
    amounts = [a["amount"] for a in biblios.legal_actions(state, 0) if a["type"] == "bid"]
    assert amounts == [1, 2, 3]
    with pytest.raises(biblios.IllegalAction, match="R13"):
        biblios.apply_action(state, 0, bid(4))
    state = act(state, (0, bid(3)))
    assert state.step == "pay"


def test_r13_forbid_uncoverable_bids_leaves_a_goldless_player_only_pass():
    state = deal_game(
        2, [gold(3, 1), category_cards(20)], [TARGET], options={"forbid_uncoverable_bids": True}
    )
    state = pass_until(state, TARGET)
    if state.bidder == 0:
        state = act(state, (0, bid(1)))
    assert state.bidder == 1
    assert biblios.legal_actions(state, 1) == [PASS]
    with pytest.raises(biblios.IllegalAction, match="R13"):
        biblios.apply_action(state, 1, bid(state.high_bid + 1))


def test_r13_forbid_uncoverable_bids_option_gold_card_caps_at_hand_size():
    prize = "gold-3-01"
    state = pass_until(deal_game(2, [], [prize], options={"forbid_uncoverable_bids": True}), prize)
    seat = state.bidder
    size = len(state.hands[seat])
    amounts = [a["amount"] for a in biblios.legal_actions(state, seat) if a["type"] == "bid"]
    assert amounts == list(range(1, size + 1))
    with pytest.raises(biblios.IllegalAction, match="R13"):
        biblios.apply_action(state, seat, bid(size + 1))


# ---------------------------------------------------------------------------------- R14


def _defaulting_3p(defaulter_offset=1, seed=1):
    """A 3-player game at TARGET's auction where the seat `defaulter_offset` to the
    auctioneer's left has won with a bid of 1 and must pay or refuse."""
    state = pass_until(deal_game(3, [], [TARGET], seed=seed), TARGET)
    assert state.auction_pile, "TARGET should not be the last card for these scenarios"
    defaulter = (state.active + defaulter_offset) % 3
    return win_auction(state, defaulter, 1), defaulter


@pytest.mark.parametrize("offset", [1, 2, 3])
def test_r14_penalty_each_other_player_clockwise_takes_one_random_card(offset):
    state, d = _defaulting_3p(offset)
    before = [list(hand) for hand in state.hands]
    pending = state
    state = act(state, (d, REFUSE))
    # the random draw comes from the stored seed: the same state gives the same penalty
    assert biblios.dumps(biblios.apply_action(pending, d, REFUSE)) == biblios.dumps(state)
    first, second = (d + 1) % 3, (d + 2) % 3
    assert [len(h) for h in state.hands] == [
        len(before[s]) + (-2 if s == d else 1) for s in range(3)
    ]
    takes = [e for e in biblios.events_for(state, "all") if e["type"] == "penalty_take"]
    assert [(e["seat"], e["loser"]) for e in takes] == [(first, d), (second, d)]
    for event, taker in zip(takes, (first, second), strict=True):
        card = event["card"]
        assert card in before[d] and card not in state.hands[d]
        assert sorted(state.hands[taker]) == sorted(before[taker] + [card])
        bystander = second if taker == first else first
        assert shows(biblios.events_for(state, taker), card)
        assert shows(biblios.events_for(state, d), card)
        assert not shows(biblios.events_for(state, bystander), card)
        assert not shows(biblios.events_for(state, None), card)
        assert not shows(biblios.view(state, bystander), card)
        assert not shows(biblios.view(state, None), card)


def test_r14_the_same_card_is_auctioned_again_without_the_defaulter():
    state, d = _defaulting_3p(1)
    active = state.active
    state = act(state, (d, REFUSE))
    assert state.auction_card == TARGET and state.active == active
    assert state.step == "bid" and state.high_bid == 0 and state.high_bidder is None
    assert biblios.view(state, None)["auction"]["excluded"] == [d]
    assert biblios.view(state, None)["auction"]["bids"] == []  # from scratch
    # bidding restarts on the auctioneer's left, skipping the defaulter (here: that left seat)
    assert biblios.to_act(state) == [(active + 2) % 3]
    asked = []
    while state.step == "bid":
        seat = biblios.to_act(state)[0]
        asked.append(seat)
        assert biblios.legal_actions(state, d) == []
        with pytest.raises(biblios.IllegalAction):
            biblios.apply_action(state, d, bid(9))
        state = act(state, (seat, bid(state.high_bid + 1) if len(asked) < 4 else PASS))
    assert d not in asked
    assert state.step == "pay" and state.high_bidder != d


def test_r14_second_defaulter_also_excluded_then_all_pass_card_leaves_the_game():
    state, d1 = _defaulting_3p(1)
    active = state.active
    state = act(state, (d1, REFUSE))
    d2 = (active + 2) % 3
    state = win_auction(state, d2, 1)
    assert state.high_bidder == d2
    before = [list(hand) for hand in state.hands]
    state = act(state, (d2, REFUSE))
    # R14: "each other player" takes a card, the earlier defaulter included
    assert len(state.hands[d2]) == len(before[d2]) - 2
    assert len(state.hands[d1]) == len(before[d1]) + 1
    assert sorted(state.excluded) == sorted([d1, d2])
    assert biblios.to_act(state) == [active]  # the only seat still in the auction
    state = act(state, (active, PASS))
    assert TARGET in state.discard and state.auction_card != TARGET
    assert state.active == (active + 1) % 3 and state.excluded == []


def test_r14_all_pass_after_a_default_card_leaves_the_game():
    state, d = _defaulting_3p(2)
    active = state.active
    state = act(state, (d, REFUSE))
    state = act(state, ((active + 1) % 3, PASS))
    if state.step == "bid" and state.auction_card == TARGET:
        state = act(state, (biblios.to_act(state)[0], PASS))
    assert TARGET in state.discard
    assert all(TARGET not in hand for hand in state.hands)


def test_r14_two_players_the_other_takes_one_card():
    state = pass_until(deal_game(2, [], [TARGET]), TARGET)
    d = state.bidder
    state = win_auction(state, d, 2)
    before = [list(hand) for hand in state.hands]
    state = act(state, (d, REFUSE))
    assert len(state.hands[d]) == len(before[d]) - 1
    assert len(state.hands[1 - d]) == len(before[1 - d]) + 1
    assert biblios.to_act(state) == [1 - d]


def _drained_3p(options=None):
    """A 3-player game where one seat emptied its hand down to a single Gold card by paying
    its whole hand for a Gold card (R12); the next card is on offer and at least two more
    follow. The seed is the first one giving the Gold card early enough in the pile."""
    prize = "gold-3-01"
    _, state = first_seed(
        lambda seed: deal_game(3, [], [prize], seed=seed, options=options),
        lambda state: ([state.auction_card] + state.auction_pile).index(prize) <= 12,
    )
    state = pass_until(state, prize)
    drainer = state.active
    state = win_auction(state, drainer, 18)
    while state.step == "give":
        state = act(state, (drainer, give(state.hands[drainer][0])))
    assert state.hands[drainer] == [prize]
    return state, drainer


def test_r14_penalty_stops_once_the_defaulter_hand_is_empty():
    """R14: 'none once it is empty': a defaulter with one card loses it to the left player and
    the next player takes nothing; with an empty hand, nobody takes anything."""
    state, d = _drained_3p()
    assert state.auction_card is not None and state.step == "bid"
    others = [(d + 1) % 3, (d + 2) % 3]
    state = win_auction(state, d, 1)
    before = [list(hand) for hand in state.hands]
    state = act(state, (d, REFUSE))
    takes = [e for e in biblios.events_for(state, "all") if e["type"] == "penalty_take"]
    assert [(e["seat"], e["card"]) for e in takes] == [(others[0], "gold-3-01")]
    assert state.hands[d] == []
    assert state.hands[others[0]] == before[others[0]] + ["gold-3-01"]
    assert state.hands[others[1]] == before[others[1]]

    state = pass_round(state)  # the re-auction: everyone left passes, the card leaves
    state = win_auction(state, d, 1)  # the empty-handed player bids (R13) and wins
    assert state.high_bidder == d and state.hands[d] == []
    before = [list(hand) for hand in state.hands]
    state = act(state, (d, REFUSE))
    assert not [e for e in biblios.events_for(state, "all") if e["type"] == "penalty_take"]
    assert state.hands == before
    assert state.excluded == [d]


# ---------------------------------------------------------------------------------- R15


@pytest.mark.parametrize("offset", [1, 2, 3])
def test_r15_medieval_bluff_left_player_draws_one_card_that_leaves_the_game(offset):
    state = deal_game(3, [], [TARGET], options={"medieval_bluff": True})
    state = pass_until(state, TARGET)
    d = (state.active + offset) % 3
    left, bystander = (d + 1) % 3, (d + 2) % 3
    state = win_auction(state, d, 1)
    before = [list(hand) for hand in state.hands]
    state = act(state, (d, REFUSE))

    assert len(state.hands[d]) == len(before[d]) - 1
    assert state.hands[left] == before[left] and state.hands[bystander] == before[bystander]
    (lost,) = [c for c in before[d] if c not in state.hands[d]]
    assert state.hidden_discard[-1][0] == lost
    assert sorted(state.hidden_discard[-1][1]) == sorted([left, d])
    assert lost not in state.discard
    events = [e for e in biblios.events_for(state, "all") if e["type"] == "penalty_discard"]
    assert [(e["seat"], e["loser"]) for e in events] == [(left, d)]
    assert shows(biblios.events_for(state, left), lost)
    assert shows(biblios.events_for(state, d), lost)
    assert lost in biblios.view(state, left)["my_hidden_discards"]
    for seat in (bystander, None):
        assert not shows(biblios.events_for(state, seat), lost)
        assert not shows(biblios.view(state, seat), lost)
    # the defaulter sits out the re-auction of the same card
    assert state.auction_card == TARGET and state.excluded == [d]
    assert d not in biblios.to_act(state)
    asked = set()
    while state.auction_card == TARGET and state.step == "bid":
        seat = biblios.to_act(state)[0]
        asked.add(seat)
        state = act(state, (seat, PASS))
    assert d not in asked and TARGET in state.discard


def test_r15_medieval_bluff_with_an_empty_hand_discards_nothing():
    state, d = _drained_3p(options={"medieval_bluff": True})
    state = win_auction(state, d, 1)  # holds only the Gold 3 now
    state = act(state, (d, REFUSE))
    assert state.hands[d] == [] and state.hidden_discard[-1][0] == "gold-3-01"
    state = pass_round(state)
    state = win_auction(state, d, 1)
    hidden = len(state.hidden_discard)
    state = act(state, (d, REFUSE))
    assert len(state.hidden_discard) == hidden and state.excluded == [d]
