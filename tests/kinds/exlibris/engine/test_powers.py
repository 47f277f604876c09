"""The special assistants (spec §7, X53-X65), the arrival sequence (X23) and priority (X66):
`games.kinds.exlibris.engine`.

Each power is played in a position built for it: the seats' special assistants are dealt by
hand (`give_specials`), cards are moved out of the deck so that every card stays unique (X3)."""

import json
import random

import pytest

from games.kinds.exlibris import engine as E
from games.kinds.exlibris.engine import IllegalAction, shelf_moves
from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine.cards import CARDS, LIBRARIES

from .helpers import (
    BOUNDS,
    act,
    all_cards,
    check_view,
    decline,
    lay_tile,
    only,
    pending_kind,
    placement_state,
)
from .test_locations import build_shelf, tile_cards


def give_specials(state, specials, options=None):
    """A copy of `state` where seat k holds the library and special assistant `specials[k]`
    (in its supply); seats not named keep a library no one else holds. `options` replaces the
    table options (X81)."""
    state = json.loads(json.dumps(state))
    if options is not None:
        state["options"].update(options)
    spare = [lib for lib in LIBRARIES if lib not in specials.values()]
    for record in state["seats"]:
        old = record["special_assistant"]
        new = specials.get(record["seat"]) or spare.pop(0)
        record["supply"] = [a for a in record["supply"] if a != old]
        record["special_assistant"] = new
        record["library"] = {"id": new, "side": "front"}
        if new in E.POWERS:
            record["supply"].append(new)
    return state


def place(state, seat, assistant, target, **extra):
    """`seat` places its `assistant` kind ("standard" or "special") on `target`."""
    assert only(state) == seat
    return act(state, seat, {"type": "place", "assistant": assistant, "target": target, **extra})


def turn_to(state, seat):
    """Make `seat` the one asked to place now (the Placement goes on clockwise from it)."""
    state = json.loads(json.dumps(state))
    state["pending"][-1]["seat"] = seat
    return state


def card_with(state, test, *, avoid=()):
    """A deck card passing `test`, moved out of the deck."""
    card = next(c for c in state["deck"] if test(CARDS[c]) and c not in avoid)
    state["deck"].remove(card)
    return card


def stack_deck(state, cards):
    """Put `cards` (taken out of wherever they are in the deck) on top of the deck, in order."""
    state["deck"] = list(cards) + [c for c in state["deck"] if c not in cards]


def shelve_from_home(state, seat, card):
    """Answer a home action by shelving `card`; the cell step is left asked."""
    state = act(state, seat, {"type": "shelve"})
    return act(state, seat, {"type": "shelve", "card": card})


def bound_holds(state):
    """§0's bound for the decision asked now."""
    seat = E.to_act(state)[0]
    kind = pending_kind(state)
    n = len(bs.occupied(state["seats"][seat]["bookshelf"]))
    assert len(E.legal_actions(state, seat)) <= BOUNDS[kind](state, seat, n), kind


def finish_round(state):
    """Answer everything passively (`decline`) until the next round or the pre-flip."""
    start = state["round"]
    while state["round"] == start and state["phase"] not in ("flip", "over"):
        state = act(state, *decline(state))
    return state


def views_hold(state):
    for seat in [*range(state["players"]), None]:
        check_view(state, seat)


# ----------------------------------------------------------------------------- the Mummy X56


def mummy_at_home(owner_wide=False, seed=60):
    """Seat 0's Mummy on its library, about to choose the cell of a home shelving; its bookshelf
    holds 2 cards in a row."""
    state = turn_to(placement_state(players=2, seed=seed), 0)
    state = give_specials(state, {0: "mummy"}, {"owner_wide_powers": owner_wide})
    build_shelf(state, 0, [(0, 0), (0, 1)])
    return state


def test_x56_a_mummy_driven_shelving_may_stack_on_or_under_a_single_card():
    """X56, X53 (a): the Mummy's home action shelves on top (the old card goes under, face down,
    entombed) or under (the new card goes under); empty cells stay offered; 6n + 2 bounds it."""
    state = mummy_at_home()
    first, second = bs.cards(state["seats"][0]["bookshelf"])
    state = place(state, 0, "special", "library")
    card = state["seats"][0]["hand"][0]
    state = shelve_from_home(state, 0, card)
    actions = E.legal_actions(state, 0)
    cells = [a for a in actions if a["type"] == "cell"]
    assert cells == [
        {"type": "cell", "cell": list(c)} for c in bs.shelving_cells(state["seats"][0]["bookshelf"])
    ]
    assert [a for a in actions if a["type"] == "stack"] == [
        {"type": "stack", "cell": [0, 0], "how": "on"},
        {"type": "stack", "cell": [0, 0], "how": "under"},
        {"type": "stack", "cell": [0, 1], "how": "on"},
        {"type": "stack", "cell": [0, 1], "how": "under"},
    ]
    bound_holds(state)
    on = act(state, 0, {"type": "stack", "cell": [0, 1], "how": "on"})
    assert bs.stack_at(on["seats"][0]["bookshelf"], (0, 1)) == {
        "top": card,
        "up": True,
        "under": second,
    }
    assert bs.entombed_count(on["seats"][0]["bookshelf"]) == 1
    assert bs.shelved_count(on["seats"][0]["bookshelf"]) == 3  # X17: a 2-stack counts 2
    # X77: every player saw `second` face up on the shelf; covering it hides nothing.
    assert E.view(on, 1)["seats"][0]["bookshelf"]["0,1"]["under"] == second
    assert E.view(on, None)["seats"][0]["bookshelf"]["0,1"]["under"] == second
    views_hold(on)
    under = act(state, 0, {"type": "stack", "cell": [0, 0], "how": "under"})
    assert bs.stack_at(under["seats"][0]["bookshelf"], (0, 0)) == {
        "top": first,
        "up": True,
        "under": card,
    }
    assert card not in under["seats"][0]["hand"]


def test_x56_x77_a_card_put_straight_under_is_its_owners_secret():
    """X77: only the owner sees a card the Mummy put straight under another, in the event and
    the bookshelf; once the top card leaves, it stays hidden face down (X90.3); redrawing what
    another seat cannot know deals it anew without changing that seat's view."""
    state = mummy_at_home()
    state = place(state, 0, "special", "library")
    card = state["seats"][0]["hand"][0]
    state = shelve_from_home(state, 0, card)
    state = act(state, 0, {"type": "stack", "cell": [0, 0], "how": "under"})
    (event,) = [e for e in E.events_for(state, 1) if e["type"] == "shelved"]
    assert "card" not in event and "secret" not in event
    assert E.events_for(state, 0)[-1]["secret"] == card
    assert E.view(state, 1)["seats"][0]["bookshelf"]["0,0"]["under"] == "hidden"
    assert E.view(state, 0)["seats"][0]["bookshelf"]["0,0"]["under"] == card
    views_hold(state)
    # The top card leaves (a Bindery-like removal): the secret card is alone, face down.
    lone = json.loads(json.dumps(state))
    lone["seats"][0]["bookshelf"], top = bs.remove(lone["seats"][0]["bookshelf"], (0, 0))
    lone["discard"].append(top)
    assert E.view(lone, 1)["seats"][0]["bookshelf"]["0,0"] == {
        "top": "hidden",
        "up": False,
        "under": None,
    }
    assert E.view(lone, 0)["seats"][0]["bookshelf"]["0,0"]["top"] == card
    redrawn = E.redraw_hidden(lone, 1, random.Random(3))
    assert E.view(redrawn, 1) == E.view(lone, 1)
    assert sorted(all_cards(redrawn)) == sorted(all_cards(lone))
    hidden = redrawn["seats"][0]["hidden_under"]
    assert redrawn["seats"][0]["bookshelf"]["0,0"]["top"] in hidden


def test_x53_a_standard_assistants_shelving_is_not_mummy_driven():
    """X53: the Mummy acts only on what it drives: a standard assistant's home shelving by the
    Mummy's owner offers empty cells only."""
    state = mummy_at_home()
    state = place(state, 0, "standard", "library")
    state = shelve_from_home(state, 0, state["seats"][0]["hand"][0])
    assert {a["type"] for a in E.legal_actions(state, 0)} == {"cell"}


def test_x81_owner_wide_powers_let_the_mummy_stack_any_shelving_of_its_owner():
    """X81: with the table option, every shelving by the Mummy's owner may stack."""
    state = mummy_at_home(owner_wide=True)
    state = place(state, 0, "standard", "library")
    state = shelve_from_home(state, 0, state["seats"][0]["hand"][0])
    assert {a["type"] for a in E.legal_actions(state, 0)} == {"cell", "stack"}


def test_x56_the_mummy_never_stacks_a_third_card():
    """X56: a cell never holds more than 2 cards: a 2-stack is no stacking cell."""
    state = mummy_at_home()
    shelf = state["seats"][0]["bookshelf"]
    state["seats"][0]["bookshelf"] = bs.shelve(
        shelf, card_with(state, lambda c: True), (0, 0), "on"
    )
    state = place(state, 0, "special", "library")
    state = shelve_from_home(state, 0, state["seats"][0]["hand"][0])
    stacks = {tuple(a["cell"]) for a in E.legal_actions(state, 0) if a["type"] == "stack"}
    assert stacks == {(0, 1)}
    with pytest.raises(IllegalAction, match="X14"):
        act(state, 0, {"type": "stack", "cell": [0, 0], "how": "on"})


# ----------------------------------------------------------------------------- the Wizard X63


def test_x63_a_wizard_driven_shelving_may_push_a_line_and_fill_the_gap():
    """X63: push the line from an occupied cell one cell on in a direction, the new card into
    the cell opened; pushes that would span 4 rows are not offered; 6n + 2 bounds the list."""
    state = turn_to(placement_state(players=2, seed=61), 0)
    state = give_specials(state, {0: "wizard"})
    a, b = build_shelf(state, 0, [(0, 0), (0, 1)])
    state = place(state, 0, "special", "library")
    card = state["seats"][0]["hand"][0]
    state = shelve_from_home(state, 0, card)
    pushes = [a_ for a_ in E.legal_actions(state, 0) if a_["type"] == "push"]
    assert pushes == [
        {"type": "push", "cell": list(cell), "direction": d}
        for cell, d in shelf_moves.push_targets(state["seats"][0]["bookshelf"])
    ]
    assert len(pushes) == 8  # 2 cells x 4 directions: a 1-row bookshelf may grow either way
    bound_holds(state)
    pushed = act(state, 0, {"type": "push", "cell": [0, 0], "direction": "right"})
    shelf = pushed["seats"][0]["bookshelf"]
    assert [bs.stack_at(shelf, (0, col))["top"] for col in range(3)] == [card, a, b]
    assert pushed["events"][-1]["how"] == "right" and pushed["events"][-1]["card"] == card


def test_x63_no_push_breaks_the_three_row_band():
    """X63, X13: with 3 rows used, an up push from the top row or a down push from the bottom
    row is not offered."""
    state = turn_to(placement_state(players=2, seed=62), 0)
    state = give_specials(state, {0: "wizard"})
    build_shelf(state, 0, [(0, 0), (1, 0), (2, 0)])
    state = place(state, 0, "special", "library")
    state = shelve_from_home(state, 0, state["seats"][0]["hand"][0])
    pushes = {
        (tuple(a["cell"]), a["direction"]) for a in E.legal_actions(state, 0) if a["type"] == "push"
    }
    assert ((0, 0), "up") not in pushes and ((2, 0), "down") not in pushes
    assert ((1, 0), "up") not in pushes  # the column's line would reach row -1
    assert ((1, 0), "left") in pushes and ((0, 0), "right") in pushes
    with pytest.raises(IllegalAction, match="X14"):
        act(state, 0, {"type": "push", "cell": [0, 0], "direction": "up"})


# ----------------------------------------------------------------------------- the Witch X64


def witch_position(seed=63, players=2):
    """Seat 0 holds the Witch; the deck's top card holds a Banned book, the next one not."""
    state = turn_to(placement_state(players=players, seed=seed), 0)
    state = give_specials(state, {0: "witch"})
    banned = state["banned"]
    bad = card_with(state, lambda c: banned in c.books)
    good = card_with(state, lambda c: banned not in c.books)
    state["deck"] = [bad, good] + state["deck"]
    return state, bad, good


def test_x64_a_banned_card_drawn_by_the_witch_reveals_the_top_card_keep_one():
    """X64: the Witch's home draw gives a card with a Banned book: the deck's next card is
    revealed (public, X77) and the owner keeps one, discarding the other face up."""
    state, bad, good = witch_position()
    state = place(state, 0, "special", "library")
    state = act(state, 0, {"type": "draw"})
    assert pending_kind(state) == "witch"
    assert E.legal_actions(state, 0) == [
        {"type": "keep", "card": bad},
        {"type": "keep", "card": good},
    ]
    assert E.view(state, 1)["pending"]["revealed"] == good
    assert "card" not in E.view(state, 1)["pending"]  # the card drawn is the drawer's
    views_hold(state)
    swapped = act(state, 0, {"type": "keep", "card": good})
    assert good in swapped["seats"][0]["hand"] and bad not in swapped["seats"][0]["hand"]
    assert swapped["discard"][-1] == bad
    kept = act(state, 0, {"type": "keep", "card": bad})
    assert bad in kept["seats"][0]["hand"] and kept["discard"][-1] == good
    assert pending_kind(kept) == "place"


def test_x64_a_card_without_banned_books_or_not_witch_driven_asks_nothing():
    """X64, X53: only a Banned card given by a Witch-driven effect triggers it."""
    state, bad, good = witch_position()
    state["deck"] = [good, bad] + state["deck"][2:]
    state = place(state, 0, "special", "library")
    assert pending_kind(act(state, 0, {"type": "draw"})) == "place"
    state, bad, good = witch_position()
    state = place(state, 0, "standard", "library")
    assert pending_kind(act(state, 0, {"type": "draw"})) == "place"


def test_x64_x31_a_witch_with_an_empty_deck_and_discard_pile_keeps_its_card():
    """X64, X31: with nothing left to reveal the card simply stays; no decision is asked."""
    state, bad, good = witch_position()
    state["discard"] = []
    spare = state["deck"][1:]
    state["deck"] = [bad]
    state["seats"][1]["hand"] += spare  # every card stays somewhere (X3)
    state = place(state, 0, "special", "library")
    state = act(state, 0, {"type": "draw"})
    assert bad in state["seats"][0]["hand"]
    assert pending_kind(state) == "place"
    assert any(e["type"] == "witch_nothing" for e in state["events"])


def test_x64_the_card_kept_stands_in_for_the_one_taken_and_is_settled_first():
    """X64, X88: at the Bookshop the Witch takes a Banned card; the Witch is asked before the
    shelving, and the revealed card kept may be shelved in its place (it never triggers again,
    A-27)."""
    state, bad, other_bad = witch_position(seed=64)
    other_bad = card_with(state, lambda c: state["banned"] in c.books, avoid=[bad])
    state = lay_tile(state, "bookshop")  # deals `bad` and the card after it onto the tile
    state["deck"] = [other_bad] + state["deck"]
    state = place(state, 0, "special", "bookshop")
    state = act(state, 0, {"type": "take", "card": bad})
    assert pending_kind(state) == "witch"
    state = act(state, 0, {"type": "keep", "card": other_bad})
    assert pending_kind(state) == "shelve_card"  # no second reveal
    assert E.legal_actions(state, 0) == [
        {"type": "shelve", "card": other_bad},
        {"type": "done"},
    ]


# ----------------------------------------------------------------------------- positions


def put(state, seat, assistant, tile, slot=None):
    """Stand `seat`'s `assistant` (taken from its supply) on `tile`'s `slot` (None: the lowest
    free one), as an earlier arrival would have (X23), without its effects."""
    record = state["tiles"][tile]
    if slot is None:
        slot = record["slots"].index(None) + 1
    state["seats"][seat]["supply"].remove(assistant)
    state["arrivals"] += 1
    record["slots"][slot - 1] = {"seat": seat, "assistant": assistant, "arrival": state["arrivals"]}
    return state


def table(specials, players=3, seed=70, tiles=(), options=None):
    """Round 1 with `specials` dealt (seat -> special), `tiles` laid out, seat 0 to place."""
    state = give_specials(
        turn_to(placement_state(players=players, seed=seed), 0), specials, options
    )
    for tile in tiles:
        state = lay_tile(state, tile)
    return state


def kinds_offered(state, seat, target):
    return [a for a in E.legal_actions(state, seat) if a.get("target") == target]


# ----------------------------------------------------------------------------- Automaton X55


def test_x55_the_automaton_at_home_takes_a_home_action_per_other_assistant_at_home():
    """X55, X23: on the library, 1 home action per other assistant of yours already at home,
    then its own space's home action: 3 home decisions with 2 already there."""
    state = table({0: "automaton"})
    state["seats"][0]["home"] = ["standard-1", "standard-2"]
    state["seats"][0]["supply"] = ["automaton"]
    state = place(state, 0, "special", "library")
    asked = []
    while pending_kind(state) == "home":
        asked.append(state["pending"][-1]["rule"])
        state = act(state, 0, {"type": "nothing"})
    assert asked == ["X55", "X55", "X22"]


def test_x55_the_automaton_on_a_location_counts_your_assistants_already_there_first():
    """X55, X23: step 3 (its home actions) comes before step 4 (the tile's effect)."""
    state = table({0: "automaton"}, players=4, tiles=["flea"])  # X4: 3 slots with 4 players
    put(state, 0, "standard-1", "flea")
    put(state, 1, "standard-1", "flea")  # an opponent's does not count
    state = place(state, 0, "special", "flea")
    assert pending_kind(state) == "home" and state["pending"][-1]["rule"] == "X55"
    state = act(state, 0, {"type": "draw"})
    assert pending_kind(state) == "take_tile_card"
    alone = table({0: "automaton"}, tiles=["bookshop"])
    assert pending_kind(place(alone, 0, "special", "bookshop")) == "take_tile_card"


# ----------------------------------------------------------------------------- Bookworm X59


def test_x59_the_bookworm_at_home_takes_both_home_actions_then_may_buy_them_once_more():
    """X59, X32: both home actions, part by part in the chosen order (3 actions at most); then
    discard 1 hand card to take both once more, asked once."""
    state = table({0: "bookworm"})
    state = place(state, 0, "special", "library")
    assert E.legal_actions(state, 0) == [{"type": "draw"}, {"type": "shelve"}, {"type": "done"}]
    top = state["deck"][0]
    state = act(state, 0, {"type": "draw"})
    assert state["seats"][0]["hand"][-1] == top
    assert E.legal_actions(state, 0) == [{"type": "shelve"}, {"type": "done"}]
    state = shelve_from_home(state, 0, top)  # X32: the card drawn may be the card shelved
    state = act(state, 0, {"type": "cell", "cell": [0, 0]})
    assert pending_kind(state) == "bookworm"
    hand = state["seats"][0]["hand"]
    assert E.legal_actions(state, 0) == [{"type": "discard", "card": c} for c in hand] + [
        {"type": "stop"}
    ]
    bound_holds(state)
    again = act(state, 0, {"type": "discard", "card": hand[0]})
    assert again["discard"][-1] == hand[0]
    assert pending_kind(again) == "home" and again["pending"][-1]["parts"] == ["draw", "shelve"]
    again = act(again, 0, {"type": "done"})
    assert pending_kind(again) == "place"  # once more only
    assert pending_kind(act(state, 0, {"type": "stop"})) == "place"


def test_x59_the_bookworm_on_a_location_is_an_ordinary_assistant():
    """X59: away from the library nothing replaces anything: the tile's effect only."""
    state = table({0: "bookworm"}, tiles=["bookshop"])
    state = place(state, 0, "special", "bookshop")
    state = act(state, 0, {"type": "take", "card": tile_cards(state, "bookshop")[0]})
    state = act(state, 0, {"type": "done"})
    assert pending_kind(state) == "place"


# ----------------------------------------------------------------------------- Wisp X65


def test_x65_the_wisp_discards_one_tile_card_for_a_home_action_then_the_effect_applies():
    """X65, X23: step 3: discard 1 tile card and take 1 home action, or all of them (2 or more
    there) and take 2, or pass (c + 2 actions); then step 4, the tile's effect."""
    state = table({0: "wisp"}, tiles=["bookshop"])
    cards = tile_cards(state, "bookshop")
    state = place(state, 0, "special", "bookshop")
    assert E.legal_actions(state, 0) == [
        {"type": "discard_one", "index": i, "card": c} for i, c in enumerate(cards)
    ] + [{"type": "discard_all"}, {"type": "pass"}]
    one = act(state, 0, {"type": "discard_one", "index": 1, "card": cards[1]})
    assert one["discard"][-1] == cards[1] and tile_cards(one, "bookshop") == [cards[0], cards[2]]
    assert pending_kind(one) == "home"
    one = act(one, 0, {"type": "nothing"})
    assert E.legal_actions(one, 0) == [{"type": "take", "card": c} for c in (cards[0], cards[2])]
    every = act(state, 0, {"type": "discard_all"})
    assert every["discard"][-3:] == cards
    every = act(act(every, 0, {"type": "nothing"}), 0, {"type": "nothing"})
    assert pending_kind(every) == "place"  # X34: the Bookshop is empty now
    passed = act(state, 0, {"type": "pass"})
    assert pending_kind(passed) == "take_tile_card"


def test_x65_x77_face_down_cards_are_picked_blind_by_their_place():
    """X65: at the Cabin the cards lie face down: the Wisp names a place, not a card; the card
    is turned up as it is discarded (X30)."""
    state = table({0: "wisp"}, tiles=["cabin"])
    hidden = tile_cards(state, "cabin")
    state = place(state, 0, "special", "cabin")
    assert E.legal_actions(state, 0)[:4] == [{"type": "discard_one", "index": i} for i in range(4)]
    views_hold(state)
    state = act(state, 0, {"type": "discard_one", "index": 2})
    assert state["discard"][-1] == hidden[2]


def test_x65_the_wisp_on_an_empty_tile_asks_nothing():
    """X65: the power needs book cards on the location."""
    state = table({0: "wisp"}, tiles=["hut"])
    hand = len(state["seats"][0]["hand"])
    state = place(state, 0, "special", "hut")
    assert len(state["seats"][0]["hand"]) == hand + 1 and pending_kind(state) == "place"


# ----------------------------------------------------------------------------- Ghost X60


def test_x60_the_ghost_shares_an_opponents_slot_draws_one_then_the_effect_applies():
    """X60, X21: the Ghost may share an occupied slot of an instant location (the placement
    names it), displacing nobody; step 3 draws 1, step 4 applies the effect for its owner; the
    Flea Market counts the holder as already there (X48); Resolution sends it home (X25)."""
    state = table({0: "ghost"}, tiles=["flea", "bookshop"])
    put(state, 1, "standard-1", "flea")
    put(state, 2, "standard-1", "flea")
    shares = [a for a in kinds_offered(state, 0, "flea") if "share" in a]
    assert shares == [
        {"type": "place", "assistant": "special", "target": "flea", "share": 1},
        {"type": "place", "assistant": "special", "target": "flea", "share": 2},
    ]
    top = state["deck"][0]
    state = place(state, 0, "special", "flea", share=2)
    assert state["tiles"]["flea"]["slots"][1]["seat"] == 2  # nobody displaced
    assert top in state["seats"][0]["hand"]  # X60: its draw
    assert pending_kind(state) == "take_tile_card" and state["pending"][-1]["left"] == 2
    views_hold(state)
    state = finish_round(state)
    assert "ghost" in state["seats"][0]["supply"]
    assert all(not record.get("shared") for record in state["tiles"].values())


def test_x60_x35_the_ghost_never_goes_to_the_hut_nor_shares_on_a_delayed_tile():
    """X60: not at the Hut (free slot or sharing); no sharing at a delayed location; a free
    slot of a delayed location is an ordinary placement."""
    state = table({0: "ghost"}, tiles=["hut", "dump"])
    put(state, 1, "standard-1", "hut")
    put(state, 1, "standard-2", "dump")
    assert not kinds_offered(state, 0, "hut")  # its one slot is taken, and no sharing
    dump = [a for a in kinds_offered(state, 0, "dump") if a["assistant"] == "special"]
    assert dump == [{"type": "place", "assistant": "special", "target": "dump"}]


def test_x60_the_ghost_may_share_a_slot_of_a_full_tile_and_its_own_assistants_slot():
    """X60 (A-9): a full tile still takes a sharing Ghost; its own assistant's slot too."""
    state = table({0: "ghost"}, tiles=["bookshop"])
    put(state, 0, "standard-1", "bookshop")
    put(state, 1, "standard-1", "bookshop")
    assert [a for a in kinds_offered(state, 0, "bookshop") if a["assistant"] == "special"] == [
        {"type": "place", "assistant": "special", "target": "bookshop", "share": 1},
        {"type": "place", "assistant": "special", "target": "bookshop", "share": 2},
    ]
    assert not [a for a in kinds_offered(state, 0, "bookshop") if a["assistant"] == "standard"]


# ----------------------------------------------------------------------------- Snowman X61


def test_x61_the_snowman_holds_an_instant_location_against_every_other_assistant():
    """X61 (A-8), X66: no other assistant may come, its owner's included, nor a sharing Ghost;
    on a delayed location it has no power; it may itself join assistants already there."""
    state = table({0: "snowman", 1: "ghost"}, players=4, tiles=["flea"])
    put(state, 2, "standard-1", "flea")
    assert kinds_offered(state, 0, "flea")  # it joins an occupied location
    state = place(state, 0, "special", "flea")
    while only(state) == 0:
        state = act(state, *decline(state))
    assert only(state) == 1 and state["tiles"]["flea"]["slots"][2] is None  # a free slot
    assert not kinds_offered(state, 1, "flea")  # neither on it nor sharing
    own = turn_to(state, 0)
    assert not kinds_offered(own, 0, "flea")  # its owner's standard assistants neither
    delayed = table({0: "snowman"}, tiles=["dump"])
    put(delayed, 0, "snowman", "dump")
    assert kinds_offered(delayed, 0, "dump")


# ----------------------------------------------------------------------------- Sasquatch X58


def test_x58_the_sasquatch_goes_only_where_no_opponent_is_and_may_go_back_when_one_comes():
    """X58: never placed beside an opponent's assistant (your own and your library are fine);
    when an opponent arrives (step 2), its owner may take it back to the supply (X24) and
    place it again this round."""
    state = table({0: "sasquatch"}, players=4, tiles=["flea", "bookshop"])
    put(state, 1, "standard-1", "bookshop")
    put(state, 0, "standard-1", "flea")
    special = {a["target"] for a in E.legal_actions(state, 0) if a["assistant"] == "special"}
    assert "bookshop" not in special and {"flea", "library"} <= special
    state = place(state, 0, "special", "flea")
    while only(state) == 0:  # the Flea Market's effect
        state = act(state, *decline(state))
    assert only(state) == 1
    state = place(state, 1, "standard", "flea")
    assert pending_kind(state) == "sasquatch" and only(state) == 0
    assert E.legal_actions(state, 0) == [{"type": "take_back"}, {"type": "stay"}]
    back = act(state, 0, {"type": "take_back"})
    assert "sasquatch" in back["seats"][0]["supply"]
    assert all(h is None or h["assistant"] != "sasquatch" for h in back["tiles"]["flea"]["slots"])
    assert only(back) == 1 and pending_kind(back) == "take_tile_card"  # then step 4
    stay = act(state, 0, {"type": "stay"})
    assert "sasquatch" not in stay["seats"][0]["supply"]


# ----------------------------------------------------------------------------- Cube X57


def cube_position(seed=71):
    """Seat 1's Cube on the Bookshop; seat 0 to place."""
    state = table({1: "cube"}, seed=seed, tiles=["bookshop"])
    put(state, 1, "cube", "bookshop")
    return state


def test_x57_the_arriving_opponent_gives_a_random_card_or_grants_both_home_actions():
    """X57, X23 step 2, X77: the arriving opponent chooses; a random hand card (drawn by the
    engine) goes to the Cube's owner, seen by the two of them only; or the Cube's owner takes
    both home actions; then the tile's effect for the arriving player."""
    state = cube_position()
    state = place(state, 0, "standard", "bookshop")
    assert pending_kind(state) == "cube" and only(state) == 0
    assert E.legal_actions(state, 0) == [{"type": "give_random"}, {"type": "home_actions"}]
    hand = list(state["seats"][0]["hand"])
    given = act(state, 0, {"type": "give_random"})
    (card,) = set(hand) - set(given["seats"][0]["hand"])
    assert given["seats"][1]["hand"][-1] == card
    for seat, sees in ((0, True), (1, True), (2, False), (None, False)):
        (event,) = [e for e in E.events_for(given, seat) if e["type"] == "cube_card"]
        assert (event.get("secret") == card) == sees
    assert pending_kind(given) == "take_tile_card" and only(given) == 0
    views_hold(given)
    granted = act(state, 0, {"type": "home_actions"})
    assert only(granted) == 1 and granted["pending"][-1]["parts"] == ["draw", "shelve"]
    granted = act(granted, 1, {"type": "done"})
    assert only(granted) == 0 and pending_kind(granted) == "take_tile_card"


def test_x57_an_empty_hand_forces_the_home_actions_and_own_arrivals_trigger_nothing():
    """X57: with an empty hand the home actions are the only choice; the Cube's owner's own
    assistants arriving do not trigger it."""
    state = cube_position()
    state["deck"] += state["seats"][0]["hand"]
    state["seats"][0]["hand"] = []
    state = place(state, 0, "standard", "bookshop")
    assert E.legal_actions(state, 0) == [{"type": "home_actions"}]
    own = turn_to(cube_position(), 1)
    own = place(own, 1, "standard", "bookshop")
    assert pending_kind(own) == "take_tile_card"


def test_x57_x60_a_sharing_ghost_triggers_the_cube():
    """X57, X23 (A-26): an arrival by sharing a slot triggers it like a placement."""
    state = give_specials(cube_position(), {0: "ghost", 1: "cube"})
    state["seats"][1]["supply"].remove("cube")
    state = place(state, 0, "special", "bookshop", share=1)
    assert pending_kind(state) == "cube"


def test_x66_the_cube_resolves_before_a_goblin_arriving_later():
    """X66 (printed example), X23: step 2 (the Cube already there) before step 3 (the arriving
    Goblin's thefts)."""
    state = give_specials(cube_position(), {0: "goblin", 1: "cube"})
    state["seats"][1]["supply"].remove("cube")
    state = place(state, 0, "special", "bookshop")
    assert pending_kind(state) == "cube"
    state = act(state, 0, {"type": "give_random"})
    assert pending_kind(state) == "goblin"


def test_x66_powers_already_there_react_in_their_arrival_order():
    """X66, X23 step 2: the Sasquatch (brought by the Guild beside the Cube, X49) and the Cube
    react to an arrival in the order they came."""
    for first, second in (("cube", "sasquatch"), ("sasquatch", "cube")):
        state = table({1: "cube", 2: "sasquatch"}, players=4, tiles=["flea"])
        owners = {"cube": 1, "sasquatch": 2}
        put(state, owners[first], first, "flea")
        put(state, owners[second], second, "flea")
        state = place(state, 0, "standard", "flea")
        assert pending_kind(state) == first
        state = act(state, only(state), E.legal_actions(state, only(state))[0])
        assert pending_kind(state) == second


# ----------------------------------------------------------------------------- Goblin X54


def goblin_position(seed=72):
    """Seat 0's Goblin to place on the Flea Market (4 players: 3 slots), where seats 1 and 2
    stand; seat 1 holds a Fiction card, seat 2 none."""
    state = table({0: "goblin"}, players=4, seed=seed, tiles=["flea"])
    put(state, 1, "standard-1", "flea")
    put(state, 2, "standard-1", "flea")
    fiction = card_with(state, lambda c: "fantastical_fiction" in c.books)
    plain = [card_with(state, lambda c: "fantastical_fiction" not in c.books) for _ in range(3)]
    state["deck"] += state["seats"][1]["hand"] + state["seats"][2]["hand"]
    state["seats"][1]["hand"] = [fiction, plain[0]]
    state["seats"][2]["hand"] = plain[1:]
    return state, fiction


def test_x54_the_goblin_steals_victim_by_victim_then_may_shelve_the_cards_received():
    """X54 (G1), X77: the owner picks each next victim and a category (6(N - 1) + 1 actions);
    the victim gives a matching card of its choice (seen by the two of them), or shows its hand
    to the Goblin's owner only; then the cards received may be shelved; then the effect."""
    state, fiction = goblin_position()
    state = place(state, 0, "special", "flea")
    assert pending_kind(state) == "goblin"
    assert len(E.legal_actions(state, 0)) == 6 * 2 + 1
    bound_holds(state)
    state = act(state, 0, {"type": "steal", "victim": 2, "category": "fantastical_fiction"})
    (shown,) = [e for e in state["events"] if e["type"] == "hand_shown"]
    assert shown["secret"] == state["seats"][2]["hand"]
    assert "secret" not in [e for e in E.events_for(state, 1) if e["type"] == "hand_shown"][0]
    assert pending_kind(state) == "goblin"
    assert E.legal_actions(state, 0)[-1] == {"type": "stop"}
    assert {a.get("victim") for a in E.legal_actions(state, 0)} == {1, None}
    state = act(state, 0, {"type": "steal", "victim": 1, "category": "fantastical_fiction"})
    assert only(state) == 1 and pending_kind(state) == "goblin_give"
    assert E.legal_actions(state, 1) == [{"type": "give", "card": fiction}]
    assert E.view(state, 3)["pending"]["category"] == "fantastical_fiction"
    state = act(state, 1, {"type": "give", "card": fiction})
    assert fiction in state["seats"][0]["hand"] and fiction not in state["seats"][1]["hand"]
    (gift,) = [e for e in E.events_for(state, 3) if e["type"] == "gave"]
    assert "secret" not in gift
    views_hold(state)
    assert E.legal_actions(state, 0) == [{"type": "shelve", "card": fiction}, {"type": "done"}]
    state = act(state, 0, {"type": "done"})
    assert pending_kind(state) == "take_tile_card"  # step 4


def test_x54_the_goblin_may_stop_early_and_finds_no_victim_alone():
    """X54: stopping ends the thefts (nothing received: no shelving); with no opponent on the
    location there is nothing to ask."""
    state, _ = goblin_position()
    state = place(state, 0, "special", "flea")
    state = act(state, 0, {"type": "stop"})
    assert pending_kind(state) == "take_tile_card"
    alone = table({0: "goblin"}, tiles=["flea"])
    assert pending_kind(place(alone, 0, "special", "flea")) == "take_tile_card"


# ----------------------------------------------------------------------------- Golem X62


def test_x62_the_golem_picks_among_leftovers_up_to_its_own_location():
    """X62, X25 (b): at each location from the first resolved up to the Golem's own, before
    the leftovers are discarded, its owner may take one into hand or shelve it (2c + 1
    actions); later locations are not its."""
    state = table({0: "golem"}, tiles=["swap", "bookshop", "flea"])
    put(state, 0, "golem", "bookshop")
    for record in state["seats"]:  # seat 0's last placement ends the phase
        record["supply"] = ["standard-1"] if record["seat"] == 0 else []
    state = act(place(state, 0, "standard", "library"), 0, {"type": "nothing"})
    asked = []
    while pending_kind(state) == "golem":
        tile = state["pending"][-1]["tile"]
        asked.append(tile)
        cards = tile_cards(state, tile)
        assert len(E.legal_actions(state, 0)) == 2 * len(cards) + 1
        if tile == "swap":
            state = act(state, 0, {"type": "take", "card": cards[0]})
            assert cards[0] in state["seats"][0]["hand"]
        else:
            state = act(state, 0, {"type": "shelve", "card": cards[1]})
            state = act(state, 0, {"type": "cell", "cell": [0, 0]})
            assert bs.cards(state["seats"][0]["bookshelf"]) == [cards[1]]
    assert asked == ["swap", "bookshop"]  # not the Flea Market (14), after the Golem's (10)


def test_x53_x64_a_delayed_effect_resolved_for_the_witchs_slot_is_witch_driven():
    """X53 (c): at Resolution, the Town Dump's visit for the Witch's slot is Witch-driven: a
    Banned card taken from the discard pile reveals the deck's top card; the visit for a
    standard assistant's slot is not."""
    for assistant, asked in (("witch", "witch"), ("standard-1", "shelve_card")):
        state = table({0: "witch"}, tiles=["dump"])
        banned = state["banned"]
        bad = card_with(state, lambda c, banned=banned: banned in c.books)
        state["discard"].append(bad)
        put(state, 0, assistant, "dump")
        for record in state["seats"]:  # seat 0's last placement ends the phase
            record["supply"] = ["standard-2"] if record["seat"] == 0 else []
        state = act(place(state, 0, "standard", "library"), 0, {"type": "nothing"})
        while pending_kind(state) != "dump_name":
            state = act(state, *decline(state))
        state = act(state, 0, {"type": "name", "category": CARDS[bad].books[0]})
        state = act(state, 0, {"type": "take", "card": bad})
        assert pending_kind(state) == asked, assistant
