"""The Ex Libris engine's core (spec §0 X86–X88; draft X8, X82; the round X18–X28, X31; home
actions X22; the Diviner's Hut X35 and Bon Mot Bookshop X44; end X67, X89; pre-flip X68; result
X69–X76, X84; solo frame X83; hidden information X77): `games.kinds.exlibris.engine`.

States are plain dicts, so some tests lay a situation out by editing one (a tile face up, a
bookshelf near the end trigger), always moving real cards out of the deck so that every card
stays unique (X3)."""

import json

import pytest

from games.kinds import protocol
from games.kinds.exlibris import engine as E
from games.kinds.exlibris.engine import IllegalAction, placement
from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine.cards import LIBRARIES, LOCATIONS

from .helpers import (
    SOLO_VARIANTS,
    act,
    choose,
    decline,
    finish_draft,
    lay_tile,
    only,
    pending_kind,
    placement_state,
    play_round_doing_nothing,
    take_from_deck,
)

# ----------------------------------------------------------------------------- setup, draft


def test_x86_the_module_provides_the_whole_contract():
    """X86: the protocol's names, callables and new_game keywords are all there."""
    assert protocol.missing(E) == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_x8_draft_take_then_remove_in_reverse_turn_order(players):
    """X8: from the last player counter-clockwise, each takes one library then removes one;
    the first player chooses from the last two; 2N then 2N − 1 choices (§0: 8, 7)."""
    state = E.new_game(players, seed=11, variant="standard", options={})
    first = state["first_player"]
    expected_order = [(first - 1 - k) % players for k in range(players)]
    pool = list(state["libraries"]["pool"])
    assert len(pool) == 2 * players
    taken, removed = {}, []
    for k, seat in enumerate(expected_order):
        assert E.to_act(state) == [seat]
        takes = E.legal_actions(state, seat)
        assert len(takes) == 2 * players - 2 * k
        assert {a["library"] for a in takes} == set(pool) - set(taken.values()) - set(removed)
        for other in range(players):
            if other != seat:
                assert E.legal_actions(state, other) == []
        pick = takes[-1]
        state = act(state, seat, pick)
        taken[seat] = pick["library"]
        removes = E.legal_actions(state, seat)
        assert E.to_act(state) == [seat]
        assert len(removes) == 2 * players - 2 * k - 1
        assert all(a["type"] == "remove" for a in removes)
        state = act(state, seat, removes[0])
        removed.append(removes[0]["library"])
    assert expected_order[-1] == first  # the first player chose from the last two
    for seat in range(players):
        record = state["seats"][seat]
        assert record["library"] == {"id": taken[seat], "side": "front"}
        assert record["special_assistant"] == taken[seat]  # X9
    assert sorted(state["libraries"]["declined"]) == sorted(removed)
    assert state["libraries"]["pool"] == []
    assert state["round"] == 1 and pending_kind(state) == "place"


def test_x8_draft_refuses_a_library_not_in_the_pool_and_the_wrong_seat():
    """X8, X86: anything not in legal_actions is refused naming the rule."""
    state = E.new_game(2, seed=3, variant="standard", options={})
    seat = only(state)
    outside = next(lib for lib in LIBRARIES if lib not in state["libraries"]["pool"])
    with pytest.raises(IllegalAction, match="X8"):
        act(state, seat, {"type": "take", "library": outside})
    with pytest.raises(IllegalAction, match="X86"):
        act(state, 1 - seat, E.legal_actions(state, seat)[0])


@pytest.mark.parametrize("variant", SOLO_VARIANTS)
def test_x82_solo_keeps_one_of_two_libraries(variant):
    """X82.2: the solo player keeps 1 of the 2 solo libraries offered; 2 choices (§0)."""
    state = E.new_game(1, seed=5, variant=variant, options={"difficulty": 3})
    keeps = E.legal_actions(state, 0)
    assert len(keeps) == 2 and all(a["type"] == "keep" for a in keeps)
    assert all(LIBRARIES[a["library"]].solo for a in keeps)
    state = act(state, 0, keeps[1])
    assert state["seats"][0]["library"] == {"id": keeps[1]["library"], "side": "front"}
    assert state["libraries"]["declined"] == [keeps[0]["library"]]
    assert state["round"] == 1 and pending_kind(state) == "place"


def test_x78_beginners_skip_the_draft():
    """X78: a library back, no draft, 3 standard assistants; round 1 starts at once."""
    state = E.new_game(3, seed=2, variant="beginner", options={})
    assert state["round"] == 1 and pending_kind(state) == "place"
    for record in state["seats"]:
        assert record["library"]["side"] == "back" and record["special_assistant"] is None
        assert sorted(record["supply"]) == ["standard-1", "standard-2", "standard-3"]


def test_setup_refusals_name_their_rule():
    """X1, X78-X80, X85: refused setups raise IllegalAction naming the rule."""
    with pytest.raises(IllegalAction, match="X1"):
        E.new_game(5, seed=1, variant="standard", options={})
    with pytest.raises(IllegalAction, match="X78-X80"):
        E.new_game(2, seed=1, variant="giant", options={})
    with pytest.raises(IllegalAction, match="X85"):
        E.new_game(2, seed=1, variant="standard", options={"difficulty": 2})
    with pytest.raises(IllegalAction, match="X85"):
        E.new_game(1, seed=1, variant="standard", options={"difficulty": 9})
    with pytest.raises(IllegalAction, match="X83"):
        E.new_game(1, seed=1, variant="long", options={})
    with pytest.raises(IllegalAction, match="setup"):
        E.new_game(2, seed=1, variant="standard", options={"turbo": True})


def test_x85_the_solo_difficulty_comes_from_the_options():
    """X85: options["difficulty"] sets the discards per Preparation (1 when not given)."""
    assert E.new_game(1, seed=1, variant="standard", options={})["solo"]["difficulty"] == 1
    state = E.new_game(1, seed=1, variant="standard", options={"difficulty": 6})
    assert state["solo"]["discard_per_preparation"] == 6


# ----------------------------------------------------------------------------- the round


@pytest.mark.parametrize("players", [2, 3, 4])
def test_x19_round_one_reveals_one_tile_fewer_and_sets_up_every_tile(players):
    """X19: round 1 reveals N − 1 tiles beside the Hut; every face-up tile gets its set-up cards
    (X4), in ascending tile number, off the deck."""
    before = E.new_game(players, seed=21, variant="standard", options={})
    deck_before = list(before["deck"])
    state = finish_draft(before)
    face_up = state["locations"]["face_up"]
    assert face_up[0] == "hut" and len(face_up) == players
    assert face_up == sorted(face_up, key=lambda t: LOCATIONS[t].number)
    assert set(face_up[1:]) == set(before["locations"]["deck"][: players - 1])
    assert state["locations"]["deck"] == before["locations"]["deck"][players - 1 :]
    dealt = []
    for tile in face_up:
        cards = state["tiles"][tile]["cards"]
        assert len(cards) == LOCATIONS[tile].setup_count
        assert all(entry["up"] == (LOCATIONS[tile].setup_face == "up") for entry in cards)
        dealt += [entry["card"] for entry in cards]
    assert dealt == deck_before[: len(dealt)]  # ascending tile number, from the top
    assert state["deck"] == deck_before[len(dealt) :]


def test_x20_placement_goes_clockwise_one_assistant_per_turn():
    """X20: from the round's first player, clockwise, each places exactly one assistant; a seat
    whose supply is empty is skipped; the phase ends when every supply is empty. (Beginners,
    X78: 3 standard assistants each, no power to answer.)"""
    state = placement_state(players=3, seed=4, variant="beginner")
    first = state["round_first"]
    asked = []
    while state["round"] == 1:
        kind = pending_kind(state)
        seat = only(state)
        if kind == "place":
            asked.append(seat)
            seat, action = choose(state, "place", target="library")
        elif kind == "home":
            seat, action = choose(state, "nothing")
        else:  # pragma: no cover
            raise AssertionError(kind)
        state = act(state, seat, action)
    assert asked == [(first + i) % 3 for i in range(3)] * 3  # 3 standard assistants each


def test_x20_a_seat_with_an_empty_supply_is_skipped():
    """X20: a seat that has placed everything is passed over."""
    state = placement_state(players=2, seed=8)
    first = state["round_first"]
    other = 1 - first
    state["seats"][other]["set_aside"] = state["seats"][other]["supply"]
    state["seats"][other]["supply"] = []
    seat, action = choose(state, "place", target="library")
    assert seat == first
    state = act(state, seat, action)
    state = act(state, *choose(state, "nothing"))
    assert only(state) == first and pending_kind(state) == "place"


def test_x21_every_tile_has_its_effect_and_placement_offers_the_free_ones():
    """X21, X4: every one of the 18 tiles has its effect (instant, or delayed until Resolution,
    X25); placement offers the library and every face-up tile with a free slot (the Auction
    House once per bid, X37)."""
    assert set(E.EFFECTS) == set(LOCATIONS)
    assert {t for t in LOCATIONS if LOCATIONS[t].timing == "delayed"} == set(E.DELAYED)
    state = placement_state(players=4, seed=9)
    state = lay_tile(state, "bookshop")
    state = lay_tile(state, "guild")
    seat = only(state)
    targets = {a["target"] for a in E.legal_actions(state, seat)}
    assert targets == set(state["locations"]["face_up"]) | {"library"}
    assert {"hut", "bookshop", "guild"} <= targets


@pytest.mark.parametrize("players,usable", [(2, 2), (3, 2), (4, 3)])
def test_x21_slot_gates_follow_the_player_count(monkeypatch, players, usable):
    """X4, X21: a gated slot (3+, 4+) is usable only with that many players; the placement
    takes the lowest free usable slot. Checked on the Flea Market (slots 1, 2, 4+) with a
    stand-in effect, as if its effect had landed."""
    monkeypatch.setitem(E.EFFECTS, "flea", lambda state, seat: None)
    state = placement_state(players=players, seed=12, variant="beginner")
    state = lay_tile(state, "flea")
    slots_taken = []
    while any(a["target"] == "flea" for a in E.legal_actions(state, only(state))):
        seat, action = choose(state, "place", target="flea")
        state = act(state, seat, action)
        slots_taken.append(state["events"][0]["slot"])
        while pending_kind(state) != "place":  # pragma: no cover - the stand-in asks nothing
            state = act(state, *choose(state, "done"))
    assert slots_taken == list(range(1, usable + 1))


def test_x22_home_action_draw_shelve_or_nothing():
    """X22: a library placement asks draw, shelve or nothing (3, §0); a draw takes the deck's
    top card; a shelving asks the card (or done), then a cell (X14, X87)."""
    state = placement_state(players=2, seed=13)
    seat, action = choose(state, "place", target="library")
    state = act(state, seat, action)
    assert pending_kind(state) == "home"
    assert E.legal_actions(state, seat) == [
        {"type": "draw"},
        {"type": "shelve"},
        {"type": "nothing"},
    ]
    top = state["deck"][0]
    drawn = act(state, seat, {"type": "draw"})
    assert drawn["seats"][seat]["hand"][-1] == top and drawn["deck"] == state["deck"][1:]

    shelving = act(state, seat, {"type": "shelve"})
    hand = state["seats"][seat]["hand"]
    options = E.legal_actions(shelving, seat)
    assert options == [{"type": "shelve", "card": c} for c in hand] + [{"type": "done"}]
    card = hand[2]
    shelving = act(shelving, seat, {"type": "shelve", "card": card})
    assert E.legal_actions(shelving, seat) == [{"type": "cell", "cell": [0, 0]}]  # X12
    with pytest.raises(IllegalAction, match="X14"):
        act(shelving, seat, {"type": "cell", "cell": [0, 1]})
    shelved = act(shelving, seat, {"type": "cell", "cell": [0, 0]})
    assert bs.stack_at(shelved["seats"][seat]["bookshelf"], (0, 0)) == {
        "top": card,
        "up": True,
        "under": None,
    }
    assert card not in shelved["seats"][seat]["hand"]
    assert pending_kind(shelved) == "place"


def test_x87_shelve_is_not_offered_with_an_empty_hand():
    """X87: a part is offered only when it can be completed: no shelve without a hand card."""
    state = placement_state(players=2, seed=14)
    seat = only(state)
    state["deck"] = state["seats"][seat]["hand"] + state["deck"]
    state["seats"][seat]["hand"] = []
    state = act(state, *choose(state, "place", target="library"))
    assert E.legal_actions(state, seat) == [{"type": "draw"}, {"type": "nothing"}]


def test_x35_hut_draws_per_distinct_assistant_and_takes_the_token():
    """X35: draw 1 per distinct assistant placed this round, this one included; X28: the token
    taken counts from the next round, this round's order does not change."""
    state = placement_state(players=2, seed=15)
    first = state["round_first"]
    other = 1 - first
    # first: library; other: library; first: Hut with its 2nd assistant -> draws 2.
    state = act(state, *choose(state, "place", target="library"))
    state = act(state, *choose(state, "nothing"))
    state = act(state, *choose(state, "place", target="library"))
    state = act(state, *choose(state, "nothing"))
    hand_before = list(state["seats"][first]["hand"])
    top_two = state["deck"][:2]
    seat, action = choose(state, "place", target="hut")
    assert seat == first
    state = act(state, seat, action)
    assert state["seats"][first]["hand"] == hand_before + top_two
    assert state["first_player"] == first
    # The Hut has 1 slot, now taken: the other seat may not go there.
    targets = {a["target"] for a in E.legal_actions(state, other)}
    assert "hut" not in targets and "library" in targets
    state = play_round_doing_nothing(state)
    assert state["round"] == 2 and state["round_first"] == first


def test_x35_a_first_placement_at_the_hut_draws_one_and_moves_the_token_next_round():
    """X35, X28: the first assistant placed this round at the Hut draws 1; the visitor starts
    the next round even when it was not the first player."""
    state = placement_state(players=3, seed=16)
    first = state["round_first"]
    state = act(state, *choose(state, "place", target="library"))
    state = act(state, *choose(state, "nothing"))
    visitor = only(state)
    assert visitor != first
    hand = len(state["seats"][visitor]["hand"])
    state = act(state, *choose(state, "place", target="hut"))
    assert len(state["seats"][visitor]["hand"]) == hand + 1
    assert state["round_first"] == first  # this round's order stands
    state = play_round_doing_nothing(state)
    assert state["round"] == 2
    assert state["round_first"] == visitor == state["first_player"]


def test_x44_bookshop_take_one_card_then_may_shelve_it():
    """X44: take 1 of the tile's cards (3, §0), then shelve it (card or done, then a cell)."""
    state = placement_state(players=2, seed=17)
    state = lay_tile(state, "bookshop")
    tile_cards = [entry["card"] for entry in state["tiles"]["bookshop"]["cards"]]
    seat, action = choose(state, "place", target="bookshop")
    state = act(state, seat, action)
    takes = E.legal_actions(state, seat)
    assert takes == [{"type": "take", "card": card} for card in tile_cards]
    state = act(state, seat, takes[1])
    assert tile_cards[1] in state["seats"][seat]["hand"]
    assert [e["card"] for e in state["tiles"]["bookshop"]["cards"]] == [
        tile_cards[0],
        tile_cards[2],
    ]
    # X29: only the card this effect gave may be shelved.
    assert E.legal_actions(state, seat) == [
        {"type": "shelve", "card": tile_cards[1]},
        {"type": "done"},
    ]
    declined = act(state, seat, {"type": "done"})
    assert tile_cards[1] in declined["seats"][seat]["hand"]
    assert declined["seats"][seat]["bookshelf"] == {}
    state = act(state, seat, {"type": "shelve", "card": tile_cards[1]})
    state = act(state, seat, {"type": "cell", "cell": [0, 0]})
    assert bs.cards(state["seats"][seat]["bookshelf"]) == [tile_cards[1]]


def test_x34_an_empty_bookshop_gives_nothing():
    """X34: no card on the tile, nothing taken, no decision asked."""
    state = placement_state(players=2, seed=18)
    state = lay_tile(state, "bookshop")
    state["discard"] += [entry["card"] for entry in state["tiles"]["bookshop"]["cards"]]
    state["tiles"]["bookshop"]["cards"] = []
    seat, action = choose(state, "place", target="bookshop")
    state = act(state, seat, action)
    assert pending_kind(state) == "place" and only(state) != seat


def test_x25_x27_resolution_discards_tile_cards_and_restoration_grows_the_permanent_row():
    """X25: every tile's cards go to the discard pile, its assistants home; X27: the lowest
    non-permanent tile becomes permanent (the Hut after round 1), the others go to the location
    discard; so round k starts with k − 1 permanent tiles."""
    state = placement_state(players=3, seed=19)
    face_up = list(state["locations"]["face_up"])
    on_tiles = [e["card"] for t in face_up for e in state["tiles"][t]["cards"]]
    state = act(state, *choose(state, "place", target="hut"))
    assert state["tiles"]["hut"]["slots"][0] is not None
    state = play_round_doing_nothing(state)
    assert state["round"] == 2
    assert all(slot is None for tile in state["tiles"].values() for slot in tile["slots"])
    assert any(a["target"] == "hut" for a in E.legal_actions(state, only(state)))
    assert state["locations"]["permanent"] == ["hut"]
    assert state["locations"]["discard"] == face_up[1:]
    assert state["discard"] == on_tiles  # in ascending tile number
    for k in range(2, 6):
        permanent = list(state["locations"]["permanent"])
        assert len(permanent) == k - 1
        lowest = min(
            (t for t in state["locations"]["face_up"] if t not in permanent),
            key=lambda t: LOCATIONS[t].number,
        )
        state = play_round_doing_nothing(state)
        assert state["locations"]["permanent"] == sorted(
            [*permanent, lowest], key=lambda t: LOCATIONS[t].number
        )


def test_x19_an_exhausted_location_deck_is_refilled_from_the_location_discard():
    """X19: when the location deck runs out, the location discard is shuffled into a new one."""
    state = placement_state(players=4, seed=20)
    state["locations"]["discard"] += state["locations"]["deck"]
    state["locations"]["deck"] = []
    pool = set(state["locations"]["discard"])
    state = play_round_doing_nothing(state)
    revealed = [
        t for t in state["locations"]["face_up"] if t not in state["locations"]["permanent"]
    ]
    assert len(revealed) == 4 and set(revealed) <= pool | set(
        t for t in LOCATIONS if t not in state["locations"]["removed"]
    )
    assert not set(revealed) & set(state["locations"]["discard"])


def test_x31_multiplayer_reshuffles_the_discard_pile_solo_does_not():
    """X31: an empty deck is refilled from the shuffled discard pile in multiplayer; in solo a
    draw from an empty deck gives nothing."""
    state = placement_state(players=2, seed=22)
    state["discard"] = state["deck"]
    state["deck"] = []
    pile = set(state["discard"])
    state = act(state, *choose(state, "place", target="library"))
    seat = only(state)
    hand = list(state["seats"][seat]["hand"])
    state = act(state, seat, {"type": "draw"})
    (new,) = [c for c in state["seats"][seat]["hand"] if c not in hand]
    assert new in pile and state["discard"] == []
    assert len(state["deck"]) == len(pile) - 1

    solo = finish_draft(E.new_game(1, seed=22, variant="standard", options={}))
    solo["discard"] += solo["deck"]
    solo["deck"] = []
    solo = act(solo, *choose(solo, "place", target="library"))
    hand = list(solo["seats"][0]["hand"])
    solo = act(solo, 0, {"type": "draw"})
    assert solo["seats"][0]["hand"] == hand and solo["deck"] == []


def shelve_cards_into(state, seat, count):
    """A single-row bookshelf of `count` real cards taken off the deck."""
    cards = take_from_deck(state, count)
    shelf = bs.empty()
    for col, card in enumerate(cards):
        shelf = bs.shelve(shelf, card, (0, col))
    state["seats"][seat]["bookshelf"] = shelf


@pytest.mark.parametrize("players,variant,threshold", [(2, "standard", 16), (4, "long", 15)])
def test_x67_the_end_trigger_makes_the_next_round_final(players, variant, threshold):
    """X67, X80: a shelved count at the threshold at Restoration makes the next round the final
    one; it is played through Resolution, then the pre-flip (X68) and no Restoration (X18)."""
    state = placement_state(players=players, seed=23, variant=variant)
    shelve_cards_into(state, 1, threshold - 1)
    state = play_round_doing_nothing(state)
    assert not state["final_round"]  # one short
    shelve_cards_into(state, 0, threshold)
    state = play_round_doing_nothing(state)
    assert state["final_round"] and state["end_trigger"]["by"] == [0]
    assert state["end_trigger"]["rule"] == "X67" and state["round"] == 3
    permanent = list(state["locations"]["permanent"])
    state = play_round_doing_nothing(state)
    assert state["phase"] == "flip" and state["round"] == 3
    assert state["locations"]["permanent"] == permanent  # no Restoration after the final round
    assert all(not state["tiles"][t]["cards"] for t in state["locations"]["face_up"])  # X25


def test_x89_without_a_trigger_round_31_is_the_last():
    """X89: nobody shelving, the Restoration of round 30 makes round 31 the final one."""
    state = placement_state(players=2, seed=24)
    while state["phase"] != "flip":
        state = play_round_doing_nothing(state)
    assert state["round"] == 31
    assert state["end_trigger"] == {"round": 30, "by": [], "rule": "X89"}


# ----------------------------------------------------------------------------- the end


def test_x68_the_pre_flip_is_simultaneous_and_secret_until_all_are_in():
    """X68, X86: every seat is in to_act at once; each turns top cards face down one at a time
    (n + 1 choices, §0) or is done; the others see none of it until all are in; the inspection
    applies them before A1 (X69)."""
    state = placement_state(players=3, seed=25)
    for seat in range(3):
        shelve_cards_into(state, seat, 3)
    state["final_round"] = True
    state = play_round_doing_nothing(state)
    assert state["phase"] == "flip" and E.to_act(state) == [0, 1, 2]
    for seat in range(3):
        assert len(E.legal_actions(state, seat)) == 3 + 1  # n + 1
    state = act(state, 1, {"type": "flip", "cell": [0, 2]})
    assert E.legal_actions(state, 1) == [
        {"type": "flip", "cell": [0, 0]},
        {"type": "flip", "cell": [0, 1]},
        {"type": "done"},
    ]
    assert E.view(state, 1)["seats"][1]["pre_flips"] == [[0, 2]]
    for other in (0, 2, None):
        seen = E.view(state, other)
        assert seen["seats"][1]["pre_flips"] is None
        assert bs.stack_at(seen["seats"][1]["bookshelf"], (0, 2))["up"] is True
        assert "[0,2]" not in json.dumps(seen["events"], separators=(",", ":"))
    state = act(state, 1, {"type": "done"})
    assert E.to_act(state) == [0, 2] and E.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="X86"):
        act(state, 1, {"type": "done"})
    state = act(state, 2, {"type": "done"})
    state = act(state, 0, {"type": "done"})
    assert E.to_act(state) == [] and state["phase"] == "over"
    outcome = E.result(state)
    assert outcome["inspection"]["players"][1]["pre_flips"] == [[0, 2]]
    assert E.view(state, 0)["seats"][1]["pre_flips"] == [[0, 2]]


def test_x76_result_places_and_winners_come_from_the_inspection():
    """X69-X76: `result` gives each seat's place and total and the winners; the winners are the
    seats in first place, and places follow the tie-break key (X90.1)."""
    state = placement_state(players=4, seed=26)
    for seat, count in enumerate((2, 5, 0, 4)):
        shelve_cards_into(state, seat, count)
    state["final_round"] = True
    state = play_round_doing_nothing(state)
    for seat in range(4):
        state = act(state, seat, {"type": "done"})
    outcome = E.result(state)
    sheets = outcome["inspection"]["players"]
    assert [p["seat"] for p in outcome["players"]] == [0, 1, 2, 3]
    for entry, sheet in zip(outcome["players"], sheets, strict=True):
        assert entry["place"] == sheet["place"] and entry["total"] == sheet["total"]
        assert sheet["hand"] == len(state["seats"][entry["seat"]]["hand"])
        higher = [
            s
            for s in sheets
            if (s["total"], s["books"], -s["hand"], -s["banned_books"])
            > (sheet["total"], sheet["books"], -sheet["hand"], -sheet["banned_books"])
        ]
        assert sheet["place"] == len(higher) + 1
    assert outcome["winners"] == [p["seat"] for p in outcome["players"] if p["place"] == 1]
    with pytest.raises(ValueError):
        E.result(placement_state())


# ----------------------------------------------------------------------------- solo


def test_x83_solo_rounds_hints_discards_and_clean_up():
    """X83: 5 rounds; rounds 2 and 4 reveal a hint; each Preparation discards `difficulty`
    cards off the deck; no tile is revealed but the solo stack's top, after a clean-up of 2
    face-up tiles (6, then 5 choices, §0): 6, 5, 4, 3, 2 tiles; then the pre-flip and X84."""
    state = E.new_game(1, seed=27, variant="standard", options={"difficulty": 4})
    hints = list(state["solo"]["hints"])
    stack = list(state["locations"]["solo_stack"])
    deck = list(state["deck"])
    state = finish_draft(state)
    assert state["discard"] == deck[:4]
    counts, removed = [], []
    while state["phase"] != "flip":
        counts.append(len(state["locations"]["face_up"]))
        round_ = state["round"]
        while state["round"] == round_ and state["phase"] != "flip":
            kind = pending_kind(state)
            if kind == "solo_remove":
                options = E.legal_actions(state, 0)
                assert len(options) == (7 - round_) - (2 - state["pending"][-1]["left"])
                removed.append(options[-1]["tile"])
                deck = list(state["deck"])
                state = act(state, 0, options[-1])
            else:  # the library while it has room; whatever its special assistant asks
                state = act(state, *decline(state))
        if state["phase"] != "flip":
            assert state["round"] == round_ + 1
            assert state["solo"]["revealed_hints"] == hints[: state["round"] // 2]
            assert stack[round_ - 1] in state["locations"]["permanent"]  # X83: turn up 1
            assert not set(removed) & set(state["locations"]["face_up"])
            assert state["discard"][-4:] == deck[:4]  # the difficulty's discards, in order
    assert counts == [6, 5, 4, 3, 2] and state["round"] == 5
    assert set(removed) <= set(state["locations"]["removed"])
    state = act(state, 0, {"type": "done"})
    outcome = E.result(state)
    assert outcome["solo"] and outcome["players"][0]["seat"] == 0
    assert outcome["players"][0]["place"] == 1  # the one seat; a loss is no winner (protocol)
    assert outcome["winners"] == ([0] if outcome["inspection"]["player_wins"] else [])
    library = outcome["inspection"]["public_library"]
    assert library["cards"] == len(state["discard"]) + len(state["seats"][0]["hand"])  # X84


def test_x83_solo_places_at_most_one_assistant_per_location():
    """X83: one of your assistants per location at a time (the library excepted)."""
    state = finish_draft(E.new_game(1, seed=28, variant="standard", options={}))
    state = lay_tile(state, "bookshop")
    state = act(state, *choose(state, "place", target="bookshop"))
    state = act(state, *choose(state, "take"))
    state = act(state, *choose(state, "done"))
    targets = [a["target"] for a in E.legal_actions(state, 0)]
    assert "bookshop" not in targets and "library" in targets
    assert state["tiles"]["bookshop"]["slots"][1] is None  # a slot is free, yet not offered


def test_x20_assistants_without_a_legal_placement_are_set_aside(monkeypatch):
    """X20: a player with assistants but no legal placement (solo only) sets them aside for
    the round; they come back at the next one. Laid out with a 4th assistant and no tile
    placement offers (as if no effect had landed), so the library's 3 spaces are the only
    targets; the 3 standard assistants go there, the special one is set aside."""
    monkeypatch.setattr(placement, "EFFECTS", {})
    state = finish_draft(E.new_game(1, seed=29, variant="standard", options={}))
    special = state["seats"][0]["special_assistant"]
    assert state["seats"][0]["supply"][-1] == special  # X82: 3 standard and the special one
    for _ in range(3):
        state = act(state, *choose(state, "place", assistant="standard", target="library"))
        state = act(state, *choose(state, "nothing"))
    assert state["seats"][0]["set_aside"] == [special]
    assert pending_kind(state) == "solo_remove"
    state = act(state, *choose(state, "remove_tile"))
    state = act(state, *choose(state, "remove_tile"))
    assert state["round"] == 2 and len(state["seats"][0]["supply"]) == 4
