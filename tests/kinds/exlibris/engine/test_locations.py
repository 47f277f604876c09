"""The location effects of spec §6 that the engine plays, each in positions built for it: Ye Olde
Book Swap X36, Bindery X38, Community Center X39, Wishing Well X40, Book Collector X43, Mysterious
Cabin X47, Flea Market X48, Shelfmasons Guild X52; with the shared rules of §5 (X29 what may be
shelved, X30 discards, X33 opponents' order, X34 doing what can be done), §0's steps and bounds
(X86, X87) and what each seat may see (X77).

Positions are laid out by editing a state just after the draft, always moving real cards out of
the deck so that every card stays unique (X3)."""

import json
import random

import pytest

from games.kinds.exlibris import engine as E
from games.kinds.exlibris.engine import IllegalAction, shelf_moves
from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine.cards import CARDS, CATEGORIES, LOCATIONS

from .helpers import (
    act,
    all_cards,
    check_view,
    choose,
    lay_tile,
    only,
    pending_kind,
    placement_state,
    play_round_doing_nothing,
    take_from_deck,
)


def visit(state, tile):
    """Lay `tile` out and place the asked seat's standard assistant on it."""
    state = lay_tile(state, tile)
    seat, action = choose(state, "place", target=tile)
    return act(state, seat, action), seat


def keep_hand(state, seat, count):
    """Cut `seat`'s hand to its first `count` cards (the rest go under the deck)."""
    hand = state["seats"][seat]["hand"]
    state["deck"] += hand[count:]
    state["seats"][seat]["hand"] = hand[:count]


def deal_hand(state, seat, cards):
    """Make `cards` (taken out of the deck) `seat`'s whole hand; the old hand goes under it."""
    for card in cards:
        state["deck"].remove(card)
    state["deck"] += state["seats"][seat]["hand"]
    state["seats"][seat]["hand"] = list(cards)


def build_shelf(state, seat, cells):
    """Shelve deck cards at `cells`, in order (each a legal shelving); the cards, in order."""
    cards = take_from_deck(state, len(cells))
    shelf = state["seats"][seat]["bookshelf"]
    for card, cell in zip(cards, cells, strict=True):
        shelf = bs.shelve(shelf, card, cell)
    state["seats"][seat]["bookshelf"] = shelf
    return cards


def tile_cards(state, tile):
    return [entry["card"] for entry in state["tiles"][tile]["cards"]]


def types(actions):
    return {action["type"] for action in actions}


def views_hold(state):
    """X77 at this step, for every seat and a spectator (test_engine.check_view)."""
    for seat in [*range(state["players"]), None]:
        check_view(state, seat)


# ----------------------------------------------------------------------------- 2 Book Swap


def test_x36_swap_takes_a_tile_card_gives_a_hand_card_then_may_shelve_the_card_taken():
    """X36, X87: a tile card (c = 3), then one of the cards held before (h), given face up onto
    the tile; then X29: only the card taken may be shelved. Neither step can be declined."""
    state = placement_state(players=3, seed=40)
    state, seat = visit(state, "swap")
    offered = tile_cards(state, "swap")
    hand = list(state["seats"][seat]["hand"])
    assert E.legal_actions(state, seat) == [{"type": "take", "card": c} for c in offered]
    state = act(state, seat, {"type": "take", "card": offered[1]})
    gives = E.legal_actions(state, seat)
    assert gives == [{"type": "give", "card": c} for c in hand]  # not the card just taken
    with pytest.raises(IllegalAction, match="X36"):
        act(state, seat, {"type": "give", "card": offered[1]})
    state = act(state, seat, {"type": "give", "card": hand[3]})
    assert state["tiles"]["swap"]["cards"] == [
        {"card": offered[0], "up": True},
        {"card": offered[2], "up": True},
        {"card": hand[3], "up": True},
    ]
    assert sorted(state["seats"][seat]["hand"]) == sorted(
        [c for c in hand if c != hand[3]] + [offered[1]]
    )
    # The gift is public (X77): every seat and the spectator see which card it was.
    for viewer in [0, 1, 2, None]:
        gifts = [e for e in E.events_for(state, viewer) if e["type"] == "gave_to_tile"]
        assert gifts == [gifts[0]] and gifts[0]["card"] == hand[3]
    assert E.legal_actions(state, seat) == [
        {"type": "shelve", "card": offered[1]},
        {"type": "done"},
    ]
    views_hold(state)
    state = act(state, seat, {"type": "shelve", "card": offered[1]})
    state = act(state, seat, {"type": "cell", "cell": [0, 0]})
    assert bs.cards(state["seats"][seat]["bookshelf"]) == [offered[1]]
    assert pending_kind(state) == "place" and only(state) != seat


def test_x36_a_later_visitor_may_take_the_card_given():
    """X36: the card given lies face up on the tile for later visitors (3 players: 2 slots)."""
    state = placement_state(players=3, seed=41)
    state, first = visit(state, "swap")
    state = act(state, first, {"type": "take", "card": tile_cards(state, "swap")[0]})
    given = state["seats"][first]["hand"][0]
    state = act(state, first, {"type": "give", "card": given})
    state = act(state, first, {"type": "done"})
    second, action = choose(state, "place", target="swap")
    assert second != first
    state = act(state, second, action)
    assert {"type": "take", "card": given} in E.legal_actions(state, second)


@pytest.mark.parametrize("emptied", ["hand", "tile"])
def test_x34_x36_no_swap_without_a_hand_card_or_a_tile_card(emptied):
    """X34, X36: with an empty hand or an empty tile, the visit does nothing and asks nothing."""
    state = placement_state(players=2, seed=42)
    state = lay_tile(state, "swap")
    seat = only(state)
    if emptied == "hand":
        keep_hand(state, seat, 0)
    else:
        state["discard"] += tile_cards(state, "swap")
        state["tiles"]["swap"]["cards"] = []
    before = json.loads(json.dumps(state))
    state = act(state, *choose(state, "place", target="swap"))
    assert pending_kind(state) == "place" and only(state) != seat
    assert state["seats"][seat]["hand"] == before["seats"][seat]["hand"]
    assert tile_cards(state, "swap") == tile_cards(before, "swap")


def test_x36_a_single_hand_card_must_be_given():
    """X36 ("you must exchange"): with one card held, it is the only gift offered, no 'done'."""
    state = placement_state(players=2, seed=43)
    seat = only(state)
    keep_hand(state, seat, 1)
    held = state["seats"][seat]["hand"][0]
    state, _ = visit(state, "swap")
    assert "done" not in types(E.legal_actions(state, seat))
    state = act(state, seat, E.legal_actions(state, seat)[2])
    assert E.legal_actions(state, seat) == [{"type": "give", "card": held}]


# ----------------------------------------------------------------------------- 5 Community Center


def test_x39_take_may_shelve_then_give_a_remaining_card_to_an_opponent():
    """X39, X88: take 1 (3), may shelve it, then give one of the 2 left to an opponent (2(N − 1)
    = 6, opponents clockwise from the left, X33); it goes to their hand, in plain sight (X77),
    and they may not shelve it."""
    state = placement_state(players=4, seed=44)
    state, seat = visit(state, "community")
    offered = tile_cards(state, "community")
    assert len(E.legal_actions(state, seat)) == 3
    state = act(state, seat, {"type": "take", "card": offered[2]})
    assert pending_kind(state) == "shelve_card"  # the shelving comes before the gift
    assert E.legal_actions(state, seat) == [
        {"type": "shelve", "card": offered[2]},
        {"type": "done"},
    ]
    state = act(state, seat, {"type": "done"})
    gives = E.legal_actions(state, seat)
    left = [(seat + k) % 4 for k in (1, 2, 3)]
    assert gives == [
        {"type": "give", "card": card, "to": other} for card in offered[:2] for other in left
    ]
    assert len(gives) == 2 * (4 - 1)
    with pytest.raises(IllegalAction, match="X39"):  # never to yourself (review G2)
        act(state, seat, {"type": "give", "card": offered[0], "to": seat})
    receiver = left[1]
    hand = list(state["seats"][receiver]["hand"])
    state = act(state, seat, {"type": "give", "card": offered[1], "to": receiver})
    assert state["seats"][receiver]["hand"] == hand + [offered[1]]
    assert tile_cards(state, "community") == [offered[0]]
    assert offered[2] in state["seats"][seat]["hand"]
    for viewer in [*range(4), None]:
        (gift,) = [e for e in E.events_for(state, viewer) if e["type"] == "gave"]
        assert gift["card"] == offered[1] and gift["to"] == receiver
        check_view(state, viewer)
    assert pending_kind(state) == "place"  # no shelving for the receiver


def test_x39_x34_a_last_card_taken_leaves_nothing_to_give_and_an_empty_tile_nothing():
    """X34, X39: one card on the tile: take it, may shelve it, no gift; no card: nothing."""
    state = placement_state(players=2, seed=45)
    state = lay_tile(state, "community")
    cards = tile_cards(state, "community")
    state["tiles"]["community"]["cards"] = state["tiles"]["community"]["cards"][:1]
    state["discard"] += cards[1:]
    seat, action = choose(state, "place", target="community")
    one = act(state, seat, action)
    one = act(one, seat, {"type": "take", "card": cards[0]})
    one = act(one, seat, {"type": "done"})
    assert pending_kind(one) == "place" and only(one) != seat
    state["discard"] += cards[:1]
    state["tiles"]["community"]["cards"] = []
    empty = act(state, seat, action)
    assert pending_kind(empty) == "place" and only(empty) != seat


# ----------------------------------------------------------------------------- 6 Wishing Well


def test_x40_discard_k_hand_cards_draw_k_plus_one_and_may_shelve_one_of_them():
    """X40, X87: one more hand card or done (h + 1, X30: never the bookshelf); k = 2 discards
    (face up, public) draw 3; X29: only a card drawn may be shelved, and only one."""
    state = placement_state(players=2, seed=46)
    seat = only(state)
    build_shelf(state, seat, [(0, 0), (0, 1)])
    state, _ = visit(state, "well")
    hand = list(state["seats"][seat]["hand"])
    assert E.legal_actions(state, seat) == [{"type": "discard", "card": c} for c in hand] + [
        {"type": "done"}
    ]
    state = act(state, seat, {"type": "discard", "card": hand[0]})
    state = act(state, seat, {"type": "discard", "card": hand[4]})
    assert state["discard"][-2:] == [hand[0], hand[4]]
    other = 1 - seat
    assert [e["card"] for e in E.events_for(state, other) if e["type"] == "discarded"] == [hand[4]]
    top_three = state["deck"][:3]
    state = act(state, seat, {"type": "done"})
    assert state["seats"][seat]["hand"] == [hand[1], hand[2], hand[3], hand[5]] + top_three
    (draw,) = [e for e in E.events_for(state, other) if e["type"] == "draw"]
    assert draw["count"] == 3 and "secret" not in draw  # X77: seen only by its drawer
    assert E.legal_actions(state, seat) == [{"type": "shelve", "card": c} for c in top_three] + [
        {"type": "done"}
    ]
    views_hold(state)
    state = act(state, seat, {"type": "shelve", "card": top_three[1]})
    state = act(state, seat, E.legal_actions(state, seat)[0])
    assert pending_kind(state) == "place"  # one shelving only


def test_x40_no_discard_draws_one_and_an_empty_hand_is_not_asked_to_discard():
    """X40: k = 0 draws 1; with an empty hand there is nothing to discard, so the draw comes at
    once (X87: no step that offers only 'done')."""
    state = placement_state(players=2, seed=47)
    seat = only(state)
    top = state["deck"][0]
    none = act(
        lay_tile(state, "well"), seat, {"type": "place", "assistant": "standard", "target": "well"}
    )
    none = act(none, seat, {"type": "done"})
    assert none["seats"][seat]["hand"][-1] == top and len(none["seats"][seat]["hand"]) == 7
    keep_hand(state, seat, 0)
    top = state["deck"][0]
    empty, _ = visit(state, "well")
    assert empty["seats"][seat]["hand"] == [top]
    assert E.legal_actions(empty, seat) == [{"type": "shelve", "card": top}, {"type": "done"}]


def test_x40_discarding_the_whole_hand_ends_the_loop():
    """X40, X87: once the hand is empty no 'done' is asked: k = h and h + 1 cards come."""
    state = placement_state(players=2, seed=48)
    seat = only(state)
    keep_hand(state, seat, 2)
    state, _ = visit(state, "well")
    deck = list(state["deck"])
    for card in list(state["seats"][seat]["hand"]):
        state = act(state, seat, {"type": "discard", "card": card})
    assert state["seats"][seat]["hand"] == deck[:3]
    assert pending_kind(state) == "shelve_card"


# ----------------------------------------------------------------------------- 14 Flea Market


def test_x48_the_first_visitor_takes_one_card_and_may_shelve_it():
    """X48: nobody here before: 1 card of the 4 (§0: 4), then it alone may be shelved."""
    state = placement_state(players=2, seed=49)
    state, seat = visit(state, "flea")
    offered = tile_cards(state, "flea")
    assert len(offered) == LOCATIONS["flea"].setup_count == 4
    assert E.legal_actions(state, seat) == [{"type": "take", "card": c} for c in offered]
    state = act(state, seat, {"type": "take", "card": offered[3]})
    assert E.legal_actions(state, seat) == [
        {"type": "shelve", "card": offered[3]},
        {"type": "done"},
    ]
    state = act(state, seat, {"type": "done"})
    assert pending_kind(state) == "place" and tile_cards(state, "flea") == offered[:3]


@pytest.mark.parametrize("same_seat", [False, True])
def test_x48_an_assistant_already_here_even_your_own_makes_it_two_all_shelvable(same_seat):
    """X48: a second arrival (another seat's, or yours: "yours included") takes 2, one at a
    time, and may shelve both (X29: those two only)."""
    state = placement_state(players=2, seed=50)
    state, first = visit(state, "flea")
    state = act(state, first, {"type": "take", "card": tile_cards(state, "flea")[0]})
    state = act(state, first, {"type": "done"})
    other = 1 - first
    if same_seat:  # the other seat goes home; the first seat's 2nd assistant comes here
        state = act(state, *choose(state, "place", target="library"))
        state = act(state, *choose(state, "nothing"))
    seat, action = choose(state, "place", target="flea")
    assert seat == (first if same_seat else other)
    state = act(state, seat, action)
    left = tile_cards(state, "flea")
    assert len(E.legal_actions(state, seat)) == 3
    state = act(state, seat, {"type": "take", "card": left[2]})
    assert E.legal_actions(state, seat) == [{"type": "take", "card": c} for c in left[:2]]
    state = act(state, seat, {"type": "take", "card": left[0]})
    assert tile_cards(state, "flea") == [left[1]]
    assert E.legal_actions(state, seat) == [
        {"type": "shelve", "card": left[2]},
        {"type": "shelve", "card": left[0]},
        {"type": "done"},
    ]
    state = act(state, seat, {"type": "shelve", "card": left[0]})
    state = act(state, seat, E.legal_actions(state, seat)[0])
    assert E.legal_actions(state, seat) == [{"type": "shelve", "card": left[2]}, {"type": "done"}]


def test_x48_x34_two_takes_from_a_tile_of_one_card_take_one():
    """X34, X48: an effect does what it can: 2 takes allowed, 1 card there, 1 taken."""
    state = placement_state(players=2, seed=51)
    state, first = visit(state, "flea")
    state = act(state, first, {"type": "take", "card": tile_cards(state, "flea")[0]})
    state = act(state, first, {"type": "done"})
    cards = tile_cards(state, "flea")
    state["discard"] += cards[1:]
    state["tiles"]["flea"]["cards"] = state["tiles"]["flea"]["cards"][:1]
    seat, action = choose(state, "place", target="flea")
    state = act(state, seat, action)
    state = act(state, seat, {"type": "take", "card": cards[0]})
    assert E.legal_actions(state, seat) == [{"type": "shelve", "card": cards[0]}, {"type": "done"}]


# ----------------------------------------------------------------------------- 4 Bindery


def test_x38_discards_from_hand_and_bookshelf_never_a_bridging_card_then_shelve_up_to_two():
    """X38, X15, X87: one more card (hand, or a top card whose removal keeps the bookshelf in
    one piece: h + n + 1), or done; the bridging middle of A B C is not offered. After a
    discard, up to 2 hand cards (any) may be shelved."""
    state = placement_state(players=2, seed=52)
    seat = only(state)
    a, b, c = build_shelf(state, seat, [(0, 0), (0, 1), (0, 2)])
    state, _ = visit(state, "bindery")
    hand = list(state["seats"][seat]["hand"])
    offered = E.legal_actions(state, seat)
    assert offered == (
        [{"type": "discard", "card": card} for card in hand]
        + [{"type": "discard_shelved", "cell": [0, 0]}, {"type": "discard_shelved", "cell": [0, 2]}]
        + [{"type": "done"}]
    )
    with pytest.raises(IllegalAction, match="X38"):
        act(state, seat, {"type": "discard_shelved", "cell": [0, 1]})
    state = act(state, seat, {"type": "discard_shelved", "cell": [0, 0]})
    assert bs.cards(state["seats"][seat]["bookshelf"]) == [b, c]
    assert state["discard"][-1] == a
    # With A gone, B is an end and may go too.
    assert {"type": "discard_shelved", "cell": [0, 1]} in E.legal_actions(state, seat)
    state = act(state, seat, {"type": "done"})
    assert E.legal_actions(state, seat) == [{"type": "shelve", "card": h} for h in hand] + [
        {"type": "done"}
    ]
    for pick in (hand[0], hand[1]):
        state = act(state, seat, {"type": "shelve", "card": pick})
        state = act(state, seat, E.legal_actions(state, seat)[0])
    assert pending_kind(state) == "place"  # 2 at most
    assert len(bs.cards(state["seats"][seat]["bookshelf"])) == 4


def test_x38_without_a_discard_no_shelving_and_with_nothing_no_decision():
    """X38: 'done' at once shelves nothing; X34: no hand card and no bookshelf asks nothing."""
    state = placement_state(players=2, seed=53)
    seat = only(state)
    declined, _ = visit(state, "bindery")
    declined = act(declined, seat, {"type": "done"})
    assert pending_kind(declined) == "place" and only(declined) != seat
    # X87: up to 2 may be shelved, but once the hand is empty nothing more is asked.
    keep_hand(state, seat, 2)
    last, _ = visit(state, "bindery")
    card = last["seats"][seat]["hand"][1]
    last = act(last, seat, {"type": "discard", "card": last["seats"][seat]["hand"][0]})
    last = act(last, seat, {"type": "done"})
    last = act(last, seat, {"type": "shelve", "card": card})
    last = act(last, seat, {"type": "cell", "cell": [0, 0]})
    assert pending_kind(last) == "place" and only(last) != seat
    keep_hand(state, seat, 0)
    nothing, _ = visit(state, "bindery")
    assert pending_kind(nothing) == "place" and only(nothing) != seat


def test_x38_x15_a_stack_top_may_go_even_from_a_bridging_cell_its_under_card_stays():
    """X15, X90.3: a 2-stack's top card leaves, bridging or not; its under card stays in the
    cell, face down, no longer entombed."""
    state = placement_state(players=2, seed=54)
    seat = only(state)
    build_shelf(state, seat, [(0, 0), (0, 1), (0, 2)])
    under = take_from_deck(state, 1)[0]
    middle = bs.stack_at(state["seats"][seat]["bookshelf"], (0, 1))["top"]
    shelf = state["seats"][seat]["bookshelf"]
    state["seats"][seat]["bookshelf"] = bs.shelve(shelf, under, (0, 1), stack="under")
    keep_hand(state, seat, 0)
    state, _ = visit(state, "bindery")
    cells = [a["cell"] for a in E.legal_actions(state, seat) if a["type"] == "discard_shelved"]
    assert cells == [[0, 0], [0, 1], [0, 2]]
    state = act(state, seat, {"type": "discard_shelved", "cell": [0, 1]})
    assert bs.stack_at(state["seats"][seat]["bookshelf"], (0, 1)) == {
        "top": under,
        "up": False,
        "under": None,
    }
    assert state["discard"][-1] == middle
    # Nothing in hand to shelve afterwards: the effect ends after the discards.
    state = act(state, seat, {"type": "done"})
    assert pending_kind(state) == "place"


# ----------------------------------------------------------------------------- 9 Book Collector


def wanted_books(cards, wanted):
    """m of X43, counted from the rule's words: books on `cards` of a category on `wanted`."""
    categories = set(CARDS[wanted].books)
    return sum(1 for card in cards for book in CARDS[card].books if book in categories)


def test_x43_draw_half_the_wanted_books_discarded_and_shelve_up_to_two():
    """X43: m = books of the discards whose category is on the wanted card (bookshelf cards
    count too), ⌊m / 2⌋ cards drawn, up to 2 of those (only) may be shelved."""
    state = placement_state(players=3, seed=55)
    seat = only(state)
    state = lay_tile(state, "collector")
    (wanted,) = tile_cards(state, "collector")
    rich = sorted(state["deck"], key=lambda c: -wanted_books([c], wanted))[:4]
    deal_hand(state, seat, rich[:3])
    state["deck"].remove(rich[3])
    state["seats"][seat]["bookshelf"] = bs.shelve({}, rich[3], (0, 0))
    discards = [rich[0], rich[1], rich[3]]
    m = wanted_books(discards, wanted)
    assert m >= 6  # the position is built so that at least 3 cards come
    state = act(state, *choose(state, "place", target="collector"))
    assert len(E.legal_actions(state, seat)) == 3 + 1 + 1  # h + n + 1
    state = act(state, seat, {"type": "discard", "card": rich[0]})
    state = act(state, seat, {"type": "discard_shelved", "cell": [0, 0]})
    state = act(state, seat, {"type": "discard", "card": rich[1]})
    deck = list(state["deck"])
    state = act(state, seat, {"type": "done"})
    drawn = deck[: m // 2]
    assert state["seats"][seat]["hand"] == [rich[2]] + drawn
    assert tile_cards(state, "collector") == [wanted]  # it stays for every visitor
    assert E.legal_actions(state, seat) == [{"type": "shelve", "card": c} for c in drawn] + [
        {"type": "done"}
    ]
    for _ in range(2):
        state = act(state, seat, E.legal_actions(state, seat)[0])
        state = act(state, seat, E.legal_actions(state, seat)[0])
    assert pending_kind(state) == "place"  # 2 at most
    assert rich[2] in state["seats"][seat]["hand"]


def test_x43_an_odd_count_rounds_down_and_no_wanted_card_gives_nothing():
    """X43: ⌊m / 2⌋ (m = 1 draws nothing, m = 3 draws 1); with no wanted card, m = 0."""
    state = placement_state(players=3, seed=56)
    seat = only(state)
    state = lay_tile(state, "collector")
    (wanted,) = tile_cards(state, "collector")
    for m, expected in ((1, 0), (3, 1)):
        card = next(c for c in state["deck"] if wanted_books([c], wanted) == m)
        trial = json.loads(json.dumps(state))
        deal_hand(trial, seat, [card])
        trial = act(trial, seat, {"type": "place", "assistant": "standard", "target": "collector"})
        hand = len(trial["seats"][seat]["hand"]) - 1
        trial = act(trial, seat, {"type": "discard", "card": card})
        assert len(trial["seats"][seat]["hand"]) == hand + expected
    state["discard"].append(wanted)
    state["tiles"]["collector"]["cards"] = []
    trial = act(state, seat, {"type": "place", "assistant": "standard", "target": "collector"})
    hand = list(trial["seats"][seat]["hand"])
    trial = act(trial, seat, {"type": "discard", "card": hand[0]})
    trial = act(trial, seat, {"type": "done"})
    assert trial["seats"][seat]["hand"] == hand[1:] and pending_kind(trial) == "place"


# ----------------------------------------------------------------------------- 13 Cabin


def cabin_position(seed=57):
    state = placement_state(players=3, seed=seed)
    state = lay_tile(state, "cabin")
    hidden = tile_cards(state, "cabin")
    # a category held by some but not all of the 4 face-down cards
    category = next(c for c in CATEGORIES if 0 < sum(c in CARDS[card].books for card in hidden) < 4)
    return state, hidden, category


def test_x47_name_look_privately_take_matching_cards_shown_then_shelve_one():
    """X47, X77: name a category (6); the visitor alone sees the face-down cards (event and
    view); one more card holding it, or done (at most 5); cards taken are shown; then 1 of them
    may be shelved. Every view is checked for leaks at every step."""
    state, hidden, category = cabin_position()
    seat, action = choose(state, "place", target="cabin")
    state = act(state, seat, action)
    assert E.legal_actions(state, seat) == [{"type": "name", "category": c} for c in CATEGORIES]
    views_hold(state)
    state = act(state, seat, {"type": "name", "category": category})
    for viewer in [*range(3), None]:
        events = E.events_for(state, viewer)
        (named,) = [e for e in events if e["type"] == "named"]
        assert named["category"] == category  # named aloud
        (look,) = [e for e in events if e["type"] == "looked"]
        assert look.get("secret") == (hidden if viewer == seat else None)
        shown = [e["card"] for e in E.view(state, viewer)["tiles"]["cabin"]["cards"]]
        assert shown == (hidden if viewer == seat else [None] * 4)
    views_hold(state)
    matching = [card for card in hidden if category in CARDS[card].books]
    takes = E.legal_actions(state, seat)
    assert takes == [{"type": "take", "card": c} for c in matching] + [{"type": "done"}]
    assert len(takes) <= 5
    others = [card for card in hidden if card not in matching]
    with pytest.raises(IllegalAction, match="X47"):
        act(state, seat, {"type": "take", "card": others[0]})
    state = act(state, seat, {"type": "take", "card": matching[0]})
    for viewer in [*range(3), None]:
        (took,) = [e for e in E.events_for(state, viewer) if e["type"] == "took"]
        assert took["card"] == matching[0]  # shown
    views_hold(state)
    if len(matching) > 1:
        state = act(state, seat, {"type": "done"})
    assert E.legal_actions(state, seat) == [
        {"type": "shelve", "card": matching[0]},
        {"type": "done"},
    ]
    assert [e["card"] for e in state["tiles"]["cabin"]["cards"]] == [
        c for c in hidden if c != matching[0]
    ]
    assert all(not e["up"] for e in state["tiles"]["cabin"]["cards"])  # the others stay down


def test_x47_x77_redrawing_what_a_seat_cannot_know_keeps_its_view_at_the_cabin():
    """X77 non-interference at the Cabin: the visitor's view keeps the cards it looked at;
    others' views do not change when those cards are dealt anew."""
    state, hidden, category = cabin_position(seed=58)
    seat, action = choose(state, "place", target="cabin")
    state = act(state, seat, action)
    state = act(state, seat, {"type": "name", "category": category})
    rng = random.Random(3)
    for viewer in [*range(3), None]:
        redrawn = E.redraw_hidden(state, viewer, rng)
        assert E.view(redrawn, viewer) == E.view(state, viewer)
        assert E.events_for(redrawn, viewer) == E.events_for(state, viewer)
    other = (seat + 1) % 3
    moved = [tile_cards(E.redraw_hidden(state, other, random.Random(k)), "cabin") for k in range(5)]
    assert any(cards != hidden for cards in moved)  # the redraw does reach them for others


def test_x47_of_several_cards_taken_only_one_may_be_shelved():
    """X47 (DECISION: 1, as the glossary says): three matching cards taken, one shelving."""
    state = placement_state(players=2, seed=65)
    category = CATEGORIES[0]
    holding = [c for c in state["deck"] if category in CARDS[c].books][:3]
    lacking = next(c for c in state["deck"] if category not in CARDS[c].books)
    state = lay_tile(state, "cabin")
    state["deck"] += tile_cards(state, "cabin")
    for card in holding + [lacking]:
        state["deck"].remove(card)
    state["tiles"]["cabin"]["cards"] = [{"card": c, "up": False} for c in holding + [lacking]]
    seat, action = choose(state, "place", target="cabin")
    state = act(state, seat, action)
    state = act(state, seat, {"type": "name", "category": category})
    for card in holding:
        state = act(state, seat, {"type": "take", "card": card})
    assert pending_kind(state) == "shelve_card"  # no match left: the taking ends by itself
    assert tile_cards(state, "cabin") == [lacking]
    assert E.legal_actions(state, seat) == [{"type": "shelve", "card": c} for c in holding] + [
        {"type": "done"}
    ]
    state = act(state, seat, {"type": "shelve", "card": holding[1]})
    state = act(state, seat, E.legal_actions(state, seat)[0])
    assert pending_kind(state) == "place"
    assert [holding[0], holding[2]] == [c for c in state["seats"][seat]["hand"] if c in holding]


def test_x47_a_category_on_no_face_down_card_ends_the_visit_and_resolution_forgets_the_look():
    """X47: naming a category no face-down card holds ends the visit (nothing to take);
    X25, X19: a permanent Cabin is emptied at Resolution and set up anew, and the visitor does
    not see the new face-down cards."""
    state = placement_state(players=2, seed=59)
    state = lay_tile(state, "cabin")
    state["locations"]["permanent"].append("cabin")  # so that it stays for round 2
    hidden = tile_cards(state, "cabin")
    absent = next(c for c in CATEGORIES if not any(c in CARDS[card].books for card in hidden))
    seat, action = choose(state, "place", target="cabin")
    state = act(state, seat, action)
    state = act(state, seat, {"type": "name", "category": absent})
    assert pending_kind(state) == "place" and only(state) != seat
    assert state["tiles"]["cabin"]["looked"] == [seat]
    assert tile_cards(state, "cabin") == hidden
    state = play_round_doing_nothing(state)
    assert state["round"] == 2 and set(hidden) <= set(state["discard"])
    fresh = tile_cards(state, "cabin")
    assert len(fresh) == 4 and not set(fresh) & set(hidden)
    assert "looked" not in state["tiles"]["cabin"]
    seen = [e["card"] for e in E.view(state, seat)["tiles"]["cabin"]["cards"]]
    assert seen == [None] * 4
    views_hold(state)


def test_x34_a_cabin_without_face_down_cards_asks_nothing():
    """X34: the Cabin with no card does nothing."""
    state = placement_state(players=2, seed=60)
    state = lay_tile(state, "cabin")
    state["discard"] += tile_cards(state, "cabin")
    state["tiles"]["cabin"]["cards"] = []
    seat, action = choose(state, "place", target="cabin")
    state = act(state, seat, action)
    assert pending_kind(state) == "place" and only(state) != seat


# ----------------------------------------------------------------------------- 18 Shelfmasons


def test_x52_the_spec_example_moves_b_c_one_cell_right():
    """X52, X87, §0: 'A B C _ : moving B C one right gives A _ B C' (a second row holds it
    together); the run's first cell or pass (n + 1), its last cell, then the destination."""
    state = placement_state(players=2, seed=61)
    seat = only(state)
    a, b, c = build_shelf(state, seat, [(0, 0), (0, 1), (0, 2)])
    d, e, f, g = build_shelf(state, seat, [(1, 0), (1, 1), (1, 2), (1, 3)])
    state, _ = visit(state, "shelfmasons")
    starts = E.legal_actions(state, seat)
    assert starts[-1] == {"type": "pass"} and len(starts) <= 7 + 1
    assert {"type": "run", "cell": [0, 1]} in starts
    state = act(state, seat, {"type": "run", "cell": [0, 1]})
    assert {"type": "run_end", "cell": [0, 2]} in E.legal_actions(state, seat)
    state = act(state, seat, {"type": "run_end", "cell": [0, 2]})
    spots = E.legal_actions(state, seat)
    assert {"type": "move", "cell": [0, 2]} in spots
    assert {"type": "move", "cell": [0, 1]} not in spots  # never where it started
    assert len(spots) <= 5 * (4 + 2 + 1)  # 5(w + L + 1)
    views_hold(state)
    state = act(state, seat, {"type": "move", "cell": [0, 2]})
    shelf = state["seats"][seat]["bookshelf"]
    assert {cell: bs.stack_at(shelf, cell)["top"] for cell in bs.reading_order(shelf)} == {
        (0, 0): a,
        (0, 2): b,
        (0, 3): c,
        (1, 0): d,
        (1, 1): e,
        (1, 2): f,
        (1, 3): g,
    }
    (moved,) = [ev for ev in E.events_for(state, 1 - seat) if ev["type"] == "run_moved"]
    assert moved["start"] == [0, 1] and moved["end"] == [0, 2] and moved["to"] == [0, 2]
    assert pending_kind(state) == "place"


def test_x52_the_move_may_be_declined_and_each_step_offers_what_bookshelf_offers():
    """X52: pass leaves the bookshelf as it was; the lists are run_starts, run_ends and
    run_destinations of E3's bookshelf module (a single card moved to another row, A-24)."""
    state = placement_state(players=2, seed=62)
    seat = only(state)
    build_shelf(state, seat, [(0, 0), (0, 1), (1, 1)])
    shelf = state["seats"][seat]["bookshelf"]
    state, _ = visit(state, "shelfmasons")
    passed = act(state, seat, {"type": "pass"})
    assert passed["seats"][seat]["bookshelf"] == shelf and pending_kind(passed) == "place"
    starts = [a["cell"] for a in E.legal_actions(state, seat)[:-1]]
    assert starts == [list(cell) for cell in shelf_moves.run_starts(shelf)]
    state = act(state, seat, {"type": "run", "cell": [0, 0]})
    ends = [a["cell"] for a in E.legal_actions(state, seat)]
    assert ends == [list(cell) for cell in shelf_moves.run_ends(shelf, (0, 0))] and [0, 0] in ends
    state = act(state, seat, {"type": "run_end", "cell": [0, 0]})
    spots = [a["cell"] for a in E.legal_actions(state, seat)]
    assert spots == [list(cell) for cell in shelf_moves.run_destinations(shelf, (0, 0), (0, 0))]
    assert [1, 0] in spots  # down a row, beside the card at (1, 1)
    state = act(state, seat, {"type": "move", "cell": [1, 0]})
    assert sorted(bs.occupied(state["seats"][seat]["bookshelf"])) == [(0, 1), (1, 0), (1, 1)]


@pytest.mark.parametrize("cells", [[], [(0, 0)]])
def test_x34_x52_nothing_to_move_asks_nothing(cells):
    """X52, X90.4: an empty bookshelf, or a single card (moving it is a translation of the
    whole bookshelf, never offered), has no run to move: the visit asks nothing."""
    state = placement_state(players=2, seed=63)
    seat = only(state)
    build_shelf(state, seat, cells)
    state, _ = visit(state, "shelfmasons")
    assert pending_kind(state) == "place" and only(state) != seat


def test_x52_a_one_row_pair_moves_card_by_card_never_whole():
    """X52, X90.4: in 'A B' each card may move (to another row), the pair as a whole may not."""
    state = placement_state(players=2, seed=64)
    seat = only(state)
    build_shelf(state, seat, [(0, 0), (0, 1)])
    state, _ = visit(state, "shelfmasons")
    assert E.legal_actions(state, seat) == [
        {"type": "run", "cell": [0, 0]},
        {"type": "run", "cell": [0, 1]},
        {"type": "pass"},
    ]
    state = act(state, seat, {"type": "run", "cell": [0, 0]})
    assert E.legal_actions(state, seat) == [{"type": "run_end", "cell": [0, 0]}]


# ----------------------------------------------------------------------------- all of them


NEW_KINDS = {
    "swap_give",
    "community_give",
    "discard_card",
    "cabin_name",
    "cabin_take",
    "run_start",
    "run_end",
    "run_dest",
}
NEW_TILES = {"swap", "bindery", "community", "well", "collector", "cabin", "flea", "shelfmasons"}


def test_x86_random_games_visit_the_new_locations_and_keep_every_card():
    """X86, X3: uniformly random games reach every new tile and every new decision, and end
    with all 152 cards each somewhere once (the wider playouts are in test_engine)."""
    from .helpers import playout

    visited, asked = set(), set()
    for players, seed in ((2, 70), (3, 71), (4, 72), (4, 73), (3, 74), (2, 75)):
        state, moves = playout(players, "standard", seed)
        for step in E.steps(E.setup_of(state), moves):
            visited |= {e["target"] for e in step["events"] if e["type"] == "placed"}
            if step["pending"]:
                asked.add(step["pending"][-1]["kind"])
        cards = all_cards(state)
        assert len(cards) == len(set(cards)) == 152
    assert visited >= NEW_TILES, NEW_TILES - visited
    assert asked >= NEW_KINDS, NEW_KINDS - asked
