"""The later location effects of spec §6, each in positions built for it: Gambling Den X41,
Librarians Lodge X42, Town Dump X45, Friendly Tavern X46, Tax Collector X50, Yard Sale X51; with
Resolution's order and its delayed visits (X25, X26), the shared rules of §5 (X29 what may be
shelved, X31 an empty deck, X33 who is asked in which order, X34 doing what can be done), §0's
steps (X86-X88) and what each seat may see (X77).

Positions are laid out by editing a state just after the draft, always moving real cards out of
the deck so that every card stays unique (X3)."""

import pytest

from games.kinds.exlibris import engine as E
from games.kinds.exlibris.engine import IllegalAction
from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine.cards import CARDS, CATEGORIES

from .helpers import (
    act,
    all_cards,
    books,
    choose,
    empty_tiles,
    finish_placement,
    lay_tile,
    occupy,
    only,
    pending_kind,
    placement_state,
    views_hold,
)
from .test_locations import build_shelf, keep_hand, tile_cards, types, visit

# ----------------------------------------------------------------------------- 3 Auction House


def bid(slot):
    return {"type": "place", "assistant": "standard", "target": "auction", "slot": slot}


def bids(state):
    seat = only(state)
    return [a["slot"] for a in E.legal_actions(state, seat) if a.get("target") == "auction"]


def test_x37_a_placement_names_a_bid_above_the_current_one_and_outbids_it():
    """X37, X21: the Auction's targets are its bids 1-4 (2 players use all four); a higher bid,
    yours included, sends the bidder home to the supply (X24); after bid 4 nobody enters."""
    state = placement_state(players=2, seed=100, variant="beginner")
    state = lay_tile(state, "auction")
    first = only(state)
    second = 1 - first
    supply = len(state["seats"][first]["supply"])  # beginners (X78): standard assistants only
    assert bids(state) == [1, 2, 3, 4]
    state = act(state, first, bid(2))
    assert bids(state) == [3, 4]
    with pytest.raises(IllegalAction, match="X20-X21"):
        act(state, second, bid(2))
    state = act(state, second, bid(3))
    slots = state["tiles"]["auction"]["slots"]
    assert slots[1] is None and slots[2]["seat"] == second
    assert len(state["seats"][first]["supply"]) == supply  # the outbid assistant is back
    state = act(state, first, bid(4))
    assert len(state["seats"][second]["supply"]) == supply
    assert bids(state) == []  # slot 4 taken: nobody may enter
    assert [h is not None for h in state["tiles"]["auction"]["slots"]] == [
        False,
        False,
        False,
        True,
    ]


def test_x37_outbidding_yourself_sends_your_own_bidder_back():
    """X37: "higher than the current bid (yours included)"."""
    state = placement_state(players=2, seed=101, variant="beginner")
    state = lay_tile(state, "auction")
    first = only(state)
    supply = len(state["seats"][first]["supply"])
    state = act(state, first, bid(1))
    state = act(state, *choose(state, "place", target="library"))
    state = act(state, *choose(state, "nothing"))
    state = act(state, first, bid(2))
    slots = state["tiles"]["auction"]["slots"]
    assert slots[0] is None and slots[1]["seat"] == first
    assert len(state["seats"][first]["supply"]) == supply - 1  # placed 2, the outbid one back


def test_x25_x37_the_bidder_pays_the_bid_card_by_card_then_takes_every_card_and_may_shelve():
    """X37 at Resolution (X25 a): the bid (3) is paid in hand cards one at a time (h actions,
    compulsory: no done), face up to the discard pile (public, X77); then all 3 tile cards go
    to hand and any may be shelved."""
    state = placement_state(players=2, seed=102)
    state = lay_tile(state, "auction")
    first = only(state)
    lots = tile_cards(state, "auction")
    state = act(state, first, bid(3))
    hand = list(state["seats"][first]["hand"])
    state = finish_placement(state)
    assert state["phase"] == "resolution" and only(state) == first
    for k in range(3):
        assert E.legal_actions(state, first) == [
            {"type": "pay", "card": c} for c in state["seats"][first]["hand"]
        ]
        views_hold(state)
        state = act(state, first, {"type": "pay", "card": hand[k]})
    assert state["discard"][-3:] == hand[:3]
    assert state["seats"][first]["hand"] == hand[3:] + lots
    assert tile_cards(state, "auction") == []
    assert E.legal_actions(state, first) == [{"type": "shelve", "card": c} for c in lots] + [
        {"type": "done"}
    ]
    assert state["pending"][-1]["left"] == 3


def test_x37_a_bidder_short_of_cards_pays_nothing_and_gets_nothing():
    """X37 (A-22): fewer hand cards than the bid: no payment, no cards; they are discarded at
    step (b) like any leftovers."""
    state = placement_state(players=2, seed=103)
    state = lay_tile(state, "auction")
    first = only(state)
    lots = tile_cards(state, "auction")
    state = act(state, first, bid(4))
    keep_hand(state, first, 3)
    hand = list(state["seats"][first]["hand"])
    state = finish_placement(state)
    assert state["round"] == 2 and state["seats"][first]["hand"][:3] == hand
    assert set(lots) <= set(state["discard"])


# ----------------------------------------------------------------------------- 7 Gambling Den


def den_position(players=3, seed=80):
    """Every other seat has an assistant on the Den; the asked seat is about to arrive."""
    state = placement_state(players=players, seed=seed)
    state = lay_tile(state, "den")
    active = only(state)
    for slot, k in enumerate(range(1, players), start=1):
        occupy(state, "den", slot, (active + k) % players)
    return state, active


def test_x41_names_from_the_active_player_clockwise_then_most_books_wins_the_matching_cards():
    """X41, X88: the active player names first, then the others clockwise (6 names each, public
    at once); 4 cards are revealed; the category with most books wins; its namer takes the cards
    holding it, the rest go to the discard pile; X41.5: shelve up to 3 (3 players here)."""
    state, active = den_position()
    revealed = state["deck"][:4]
    counts = {c: sum(books(card, c) for card in revealed) for c in CATEGORIES}
    best = max(CATEGORIES, key=lambda c: counts[c])
    worst = min(CATEGORIES, key=lambda c: counts[c])
    assert counts[best] > counts[worst]
    state = act(state, *choose(state, "place", target="den"))
    order = []
    for category in (worst, worst, best):
        seat = only(state)
        order.append(seat)
        assert E.legal_actions(state, seat) == [{"type": "name", "category": c} for c in CATEGORIES]
        views_hold(state)
        state = act(state, seat, {"type": "name", "category": category})
    assert order == [active, (active + 1) % 3, (active + 2) % 3]
    winner = order[2]
    (contest,) = [e for e in state["events"] if e["type"] == "contest"]
    assert contest["revealed"] == revealed and contest["winner"] == winner
    won = [card for card in revealed if best in CARDS[card].books]
    assert won and contest["won"] == won and state["seats"][winner]["hand"][-len(won) :] == won
    assert state["discard"] == [c for c in revealed if c not in won]
    assert only(state) == winner and pending_kind(state) == "shelve_card"
    assert state["pending"][-1]["left"] == min(3, len(won))
    assert E.legal_actions(state, winner) == [{"type": "shelve", "card": c} for c in won] + [
        {"type": "done"}
    ]
    views_hold(state)


def test_x41_a_tie_goes_to_the_active_player_then_the_nearest_clockwise():
    """X41.3: equal counts: the active player wins if tied, else the tied player nearest
    clockwise from them. A category may be named twice (A-20)."""
    state, active = den_position(players=4, seed=81)
    revealed = state["deck"][:4]
    counts = {c: sum(books(card, c) for card in revealed) for c in CATEGORIES}
    best = max(CATEGORIES, key=lambda c: counts[c])
    worst = min(CATEGORIES, key=lambda c: counts[c])
    state = act(state, *choose(state, "place", target="den"))
    for category in (worst, best, worst, best):  # seats active+1 and active+3 tie on `best`
        state = act(state, only(state), {"type": "name", "category": category})
    (contest,) = [e for e in state["events"] if e["type"] == "contest"]
    assert contest["winner"] == (active + 1) % 4
    state, active = den_position(players=4, seed=81)
    state = act(state, *choose(state, "place", target="den"))
    for category in (best, worst, worst, best):  # the active player ties with active+3
        state = act(state, only(state), {"type": "name", "category": category})
    (contest,) = [e for e in state["events"] if e["type"] == "contest"]
    assert contest["winner"] == active


def test_x41_alone_at_the_den_one_name_and_one_shelving_at_most():
    """X41: the first arrival is a contest of one: its name wins whatever the count; the
    winner may shelve one card per player here: 1."""
    state = placement_state(players=2, seed=82)
    state, seat = visit(state, "den")
    revealed = state["deck"][:4]
    category = next(c for c in CATEGORIES if sum(books(card, c) for card in revealed) >= 2)
    state = act(state, seat, {"type": "name", "category": category})
    (contest,) = [e for e in state["events"] if e["type"] == "contest"]
    assert contest["winner"] == seat
    assert state["pending"][-1]["kind"] == "shelve_card" and state["pending"][-1]["left"] == 1


@pytest.mark.parametrize("discard_pile", [3, 0])
def test_x31_x41_an_empty_deck_reveals_from_the_reshuffled_discard_pile_or_nothing(discard_pile):
    """X31: an empty deck is refilled from the shuffled discard pile (here 3 cards: 3 revealed);
    with both empty nothing is revealed, the winner takes nothing and nothing is shelved."""
    state = placement_state(players=2, seed=83)
    state["discard"] = state["deck"][:discard_pile]
    state["seats"][1]["hand"] += state["deck"][discard_pile:]
    state["deck"] = []
    state, seat = visit(state, "den")
    state = act(state, seat, {"type": "name", "category": CATEGORIES[0]})
    (contest,) = [e for e in state["events"] if e["type"] == "contest"]
    assert len(contest["revealed"]) == discard_pile
    if not discard_pile:
        assert contest["won"] == [] and pending_kind(state) == "place"
    assert sorted(all_cards(state)) == sorted(set(all_cards(state)))


# ----------------------------------------------------------------------------- 8 Librarians Lodge


def test_x42_move_an_assistant_home_take_a_home_action_then_the_bookshelf_part():
    """X42 (a): one of your assistants on another location goes to a free home space (not the
    supply, X24), its slot freed; 1 home action follows; then (b) is offered, or done."""
    state = placement_state(players=2, seed=84)
    seat = only(state)
    state = lay_tile(state, "bookshop")
    occupy(state, "bookshop", 1, seat)
    build_shelf(state, seat, [(0, 0), (0, 1)])
    state, _ = visit(state, "lodge")
    assert E.legal_actions(state, seat) == [
        {"type": "part", "part": "a"},
        {"type": "part", "part": "b"},
        {"type": "done"},
    ]
    state = act(state, seat, {"type": "part", "part": "a"})
    move = {"type": "move_home", "assistant": "standard-1", "tile": "bookshop"}
    assert E.legal_actions(state, seat) == [move]
    state = act(state, seat, move)
    assert state["tiles"]["bookshop"]["slots"][0] is None
    assert (
        state["seats"][seat]["home"] == ["standard-1"]
        and "standard-1" not in (state["seats"][seat]["supply"])
    )
    assert pending_kind(state) == "home"
    state = act(state, seat, {"type": "draw"})
    assert E.legal_actions(state, seat) == [{"type": "part", "part": "b"}, {"type": "done"}]
    state = act(state, seat, {"type": "done"})
    assert pending_kind(state) == "place" and only(state) != seat


def test_x42_the_assistant_just_come_to_the_lodge_cannot_go_home_and_nothing_asks_nothing():
    """X42 (A-25): (a) moves an assistant already placed elsewhere, never the Lodge's own; with
    no such assistant and a bookshelf too small for (b), the visit asks nothing (X34)."""
    state = placement_state(players=2, seed=85)
    seat = only(state)
    build_shelf(state, seat, [(0, 0)])
    keep_hand(state, seat, 0)
    state, _ = visit(state, "lodge")
    assert pending_kind(state) == "place" and only(state) != seat


def test_x42_b_first_then_a_and_an_exchange_keeps_the_under_card_entombed():
    """X42: in the order you choose: (b) first, then (a). The hand card takes the cell face up,
    the top card goes to hand, the under card stays under (entombed, X56)."""
    state = placement_state(players=2, seed=86)
    seat = only(state)
    state = lay_tile(state, "bookshop")
    occupy(state, "bookshop", 1, seat)
    top, under, other = build_shelf(state, seat, [(0, 0), (0, 1), (0, 2)])
    shelf = state["seats"][seat]["bookshelf"]
    shelf = bs.remove(shelf, [0, 2])[0]
    shelf = bs.shelve(shelf, other, [0, 0], stack="under")  # a 2-stack at (0, 0)
    state["seats"][seat]["bookshelf"] = shelf
    keep_hand(state, seat, 2)
    hand = list(state["seats"][seat]["hand"])
    state, _ = visit(state, "lodge")
    state = act(state, seat, {"type": "part", "part": "b"})
    kinds = E.legal_actions(state, seat)
    assert types(kinds) == {"exchange", "swap", "reshelve"}
    assert len(kinds) <= 3 * 2
    state = act(state, seat, {"type": "exchange", "cell": [0, 0]})
    assert E.legal_actions(state, seat) == [{"type": "give", "card": c} for c in hand]
    state = act(state, seat, {"type": "give", "card": hand[1]})
    assert bs.stack_at(state["seats"][seat]["bookshelf"], [0, 0]) == {
        "top": hand[1],
        "up": True,
        "under": other,
    }
    assert bs.entombed_count(state["seats"][seat]["bookshelf"]) == 1
    assert sorted(state["seats"][seat]["hand"]) == sorted([hand[0], top])
    assert E.legal_actions(state, seat) == [{"type": "part", "part": "a"}, {"type": "done"}]
    assert under  # the (0, 1) card never moved
    views_hold(state)


def test_x42_x90_re_shelving_a_bridging_card_is_judged_on_the_final_bookshelf():
    """X42, review G3: the card at (0, 1) bridges two parts (X15 would refuse its removal), yet
    it may be re-shelved where the final bookshelf is connected: (1, 1) only."""
    state = placement_state(players=2, seed=87)
    seat = only(state)
    cards = build_shelf(state, seat, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2)])
    assert (0, 1) not in bs.removable_cells(state["seats"][seat]["bookshelf"])
    state, _ = visit(state, "lodge")
    state = act(state, seat, {"type": "part", "part": "b"})
    assert {"type": "reshelve", "cell": [0, 1]} in E.legal_actions(state, seat)
    state = act(state, seat, {"type": "reshelve", "cell": [0, 1]})
    assert E.legal_actions(state, seat) == [{"type": "cell", "cell": [1, 1]}]
    with pytest.raises(IllegalAction, match="X42"):
        act(state, seat, {"type": "cell", "cell": [0, 1]})
    state = act(state, seat, {"type": "cell", "cell": [1, 1]})
    shelf = state["seats"][seat]["bookshelf"]
    assert bs.stack_at(shelf, [1, 1])["top"] == cards[1] and bs.stack_at(shelf, [0, 1]) is None
    assert bs.is_valid(shelf)


def test_x42_swap_two_top_cards():
    """X42 (b): exchange the top cards of two cells (n − 1 partners); not a shelving."""
    state = placement_state(players=2, seed=88)
    seat = only(state)
    first, second, third = build_shelf(state, seat, [(0, 0), (0, 1), (0, 2)])
    state, _ = visit(state, "lodge")
    state = act(state, seat, {"type": "part", "part": "b"})
    state = act(state, seat, {"type": "swap", "cell": [0, 0]})
    assert E.legal_actions(state, seat) == [
        {"type": "swap_with", "cell": [0, 1]},
        {"type": "swap_with", "cell": [0, 2]},
    ]
    state = act(state, seat, {"type": "swap_with", "cell": [0, 2]})
    assert bs.cards(state["seats"][seat]["bookshelf"]) == [third, second, first]


def with_special(state, seat, special):
    """Give `seat` the library of `special` and put that special assistant in its supply."""
    record = state["seats"][seat]
    if record["special_assistant"] in record["supply"]:
        record["supply"].remove(record["special_assistant"])
    record["library"] = {"id": special, "side": "front"}
    record["special_assistant"] = special
    record["supply"].append(special)


@pytest.mark.parametrize("special", ["mummy", "wizard"])
def test_x42_x53_a_mummy_or_wizard_at_the_lodge_may_use_its_power_on_the_re_shelving(special):
    """X42: the re-shelving is a real shelving: with the Mummy driving the Lodge, the card may
    go on top of or under a single card (X56); with the Wizard, a push on the bookshelf with
    the card already lifted (X63, X90.5); a standard assistant at the Lodge offers neither."""
    state = placement_state(players=2, seed=113)
    seat = only(state)
    with_special(state, seat, special)
    cards = build_shelf(state, seat, [(0, 0), (0, 1), (0, 2)])
    plain = E.loads(E.dumps(state))
    state = lay_tile(state, "lodge")
    state = act(state, *choose(state, "place", target="lodge", assistant="special"))
    state = act(state, seat, {"type": "part", "part": "b"})
    state = act(state, seat, {"type": "reshelve", "cell": [0, 2]})
    options = E.legal_actions(state, seat)
    if special == "mummy":
        assert {"type": "stack", "cell": [0, 0], "how": "on"} in options
        assert {"type": "stack", "cell": [0, 2], "how": "on"} not in options  # not the origin
        assert types(options) == {"cell", "stack"}
        state = act(state, seat, {"type": "stack", "cell": [0, 0], "how": "under"})
        shelf = state["seats"][seat]["bookshelf"]
        assert bs.stack_at(shelf, [0, 0]) == {"top": cards[0], "up": True, "under": cards[2]}
        assert bs.stack_at(shelf, [0, 2]) is None
    else:
        assert {"type": "push", "cell": [0, 0], "direction": "right"} in options
        assert types(options) == {"cell", "push"}
        state = act(state, seat, {"type": "push", "cell": [0, 0], "direction": "right"})
        assert bs.cards(state["seats"][seat]["bookshelf"]) == [cards[2], cards[0], cards[1]]
    assert len(options) <= 6 * 3 + 2
    plain = lay_tile(plain, "lodge")
    plain = act(plain, *choose(plain, "place", target="lodge", assistant="standard"))
    plain = act(plain, seat, {"type": "part", "part": "b"})
    plain = act(plain, seat, {"type": "reshelve", "cell": [0, 2]})
    assert types(E.legal_actions(plain, seat)) == {"cell"}


# ----------------------------------------------------------------------------- Resolution


def test_x25_x26_x45_the_dump_is_visited_once_per_assistant_in_slot_order():
    """X26, X45: the Dump resolves once per assistant, in slot order: each names a category
    (6), then takes a discarded card holding it or none (d + 1), then may shelve it. X25: the
    Bookshop (10) resolves first, so its leftover cards are in the pile (X45)."""
    state = placement_state(players=3, seed=89, variant="beginner")
    first = only(state)
    second = (first + 1) % 3
    state = lay_tile(state, "dump")
    state = lay_tile(state, "bookshop")
    leftovers = tile_cards(state, "bookshop")
    occupy(state, "dump", 1, second)
    occupy(state, "dump", 2, first)
    state = finish_placement(state)
    assert state["phase"] == "resolution" and state["discard"][-3:] == leftovers
    assert only(state) == second and pending_kind(state) == "dump_name"
    views_hold(state)
    category = next(c for c in CATEGORIES if c in CARDS[leftovers[0]].books)
    state = act(state, second, {"type": "name", "category": category})
    matches = [card for card in state["discard"] if category in CARDS[card].books]
    assert E.legal_actions(state, second) == [{"type": "take", "card": c} for c in matches] + [
        {"type": "none"}
    ]
    views_hold(state)
    state = act(state, second, {"type": "take", "card": leftovers[0]})
    assert leftovers[0] in state["seats"][second]["hand"] and leftovers[0] not in state["discard"]
    assert E.legal_actions(state, second) == [
        {"type": "shelve", "card": leftovers[0]},
        {"type": "done"},
    ]
    state = act(state, second, {"type": "done"})
    assert only(state) == first and pending_kind(state) == "dump_name"
    state = act(state, first, {"type": "name", "category": category})
    assert {"type": "take", "card": leftovers[0]} not in E.legal_actions(state, first)
    state = act(state, first, {"type": "none"})
    assert state["phase"] == "placement" and state["round"] == 2  # the round went on


def test_x34_x45_a_category_on_no_discarded_card_and_an_empty_pile_ask_no_search():
    """X87: naming a category no discarded card holds ends the visit; X34: an empty discard
    pile asks nothing at all."""
    state = placement_state(players=2, seed=90)
    first = only(state)
    state = lay_tile(state, "dump")
    occupy(state, "dump", 1, first)
    card = state["deck"][0]
    missing = next(c for c in CATEGORIES if c not in CARDS[card].books)
    state["discard"] = [state["deck"].pop(0)]
    empty_tiles(state, 1 - first)
    empty = E.loads(E.dumps(state))
    state = finish_placement(state)
    state = act(state, first, {"type": "name", "category": missing})
    assert state["round"] == 2
    empty["seats"][1]["hand"] += empty["discard"]
    empty["discard"] = []
    empty = finish_placement(empty)
    assert empty["round"] == 2


def tavern_position(seed, slots):
    """Round 1 with the Tavern's slots held by `slots` (seats, in slot order, relative to the
    first placer), the other tiles empty; Resolution starts once the rest is placed. Beginners
    (X78): no special assistant, whose powers would ask more on the libraries."""
    state = placement_state(players=3, seed=seed, variant="beginner")
    first = only(state)
    state = lay_tile(state, "tavern")
    seats = [(first + k) % 3 for k in slots]
    for slot, seat in enumerate(seats, start=1):
        occupy(state, "tavern", slot, seat)
    return state, seats


def test_x46_reveal_two_per_assistant_picks_lap_after_lap_then_each_may_shelve_in_slot_order():
    """X46: 3 assistants here: 6 cards revealed by slot 1's owner, face up on the tile for all
    (X77); picks go slot 1, 2, 3, 1, 2, 3; then each player, in the order of their first slot,
    may shelve any of the cards they took (review G6)."""
    state, seats = tavern_position(seed=91, slots=[1, 2, 1])
    revealed = state["deck"][:6]
    state = finish_placement(state)
    assert state["tiles"]["tavern"]["revealed"] == revealed
    pickers, taken = [], {seats[0]: [], seats[1]: []}
    for _ in range(6):
        seat = only(state)
        pickers.append(seat)
        options = E.legal_actions(state, seat)
        assert options == [
            {"type": "take", "card": c} for c in state["tiles"]["tavern"]["revealed"]
        ]
        views_hold(state)
        state = act(state, seat, options[-1])
        taken[seat].append(options[-1]["card"])
    assert pickers == seats * 2
    assert "revealed" not in state["tiles"]["tavern"]
    assert only(state) == seats[0] and pending_kind(state) == "shelve_card"
    assert state["pending"][-1]["left"] == 4
    assert E.legal_actions(state, seats[0]) == [
        {"type": "shelve", "card": c} for c in taken[seats[0]]
    ] + [{"type": "done"}]
    state = act(state, seats[0], {"type": "shelve", "card": taken[seats[0]][0]})
    state = act(state, *choose(state, "cell"))
    state = act(state, seats[0], {"type": "done"})
    assert only(state) == seats[1] and state["pending"][-1]["cards"] == taken[seats[1]]


@pytest.mark.parametrize("discard_pile", [3, 0])
def test_x31_x46_an_empty_deck_at_the_tavern(discard_pile):
    """X31: with an empty deck the reveal comes from the shuffled discard pile (3 cards for 2
    assistants: the picks stop when none is left); with nothing at all, nothing is asked."""
    state, seats = tavern_position(seed=92, slots=[0, 1])
    state["discard"] = state["deck"][:discard_pile]
    state["seats"][2]["hand"] += state["deck"][discard_pile:]
    state["deck"] = []
    empty_tiles(state, 2)
    state = finish_placement(state)
    if not discard_pile:
        assert state["round"] == 2
        return
    assert len(state["tiles"]["tavern"]["revealed"]) == 3
    for seat in (seats[0], seats[1], seats[0]):
        assert only(state) == seat
        state = act(state, *choose(state, "take"))
    assert pending_kind(state) == "shelve_card" and only(state) == seats[0]
