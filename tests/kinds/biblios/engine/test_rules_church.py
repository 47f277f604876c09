"""Church card scenarios: R16 (acquisition, optional use), R17 (effects), R18 (dice 1–6)."""

import itertools
import json

import pytest

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CATEGORIES

from .helpers import (
    DISCARD_CHURCH,
    PASS,
    REFUSE,
    act,
    deal_game,
    pass_until,
    pick,
    place,
    scripted_game,
    win_auction,
)

ONE_DIE = [(c,) for c in CATEGORIES]
TWO_DICE = list(itertools.combinations(CATEGORIES, 2))


def use(dice, delta):
    return {"type": "use_church", "dice": list(dice), "delta": delta}


def uses(state, seat):
    """The legal church uses as {(frozenset of dice, delta)}."""
    return {
        (frozenset(a["dice"]), a["delta"])
        for a in biblios.legal_actions(state, seat)
        if a["type"] == "use_church"
    }


def kept(card, num_players=2, **kwargs):
    """A game where seat 0 has just kept `card` (a church card) for itself (R4)."""
    state = scripted_game(num_players, top=[card, "monks-A", "pigments-A", "gold-1-01"], **kwargs)
    state = act(state, (0, place("self")))
    assert state.step == "church" and biblios.to_act(state) == [0]
    return state


def with_dice(state, dice):
    """The same state with the dice set by hand (for positions real play cannot reach)."""
    data = json.loads(biblios.dumps(state))
    data["dice"] = list(dice)
    return biblios.loads(json.dumps(data))


# ---------------------------------------------------------------------------------- R17


@pytest.mark.parametrize(
    "card, expected",
    [
        ("church-up1-1", {(frozenset(d), 1) for d in ONE_DIE}),
        ("church-up1-2", {(frozenset(d), 1) for d in ONE_DIE}),
        ("church-down1-1", {(frozenset(d), -1) for d in ONE_DIE}),
        ("church-down1-2", {(frozenset(d), -1) for d in ONE_DIE}),
        ("church-either1-1", {(frozenset(d), s) for d in ONE_DIE for s in (1, -1)}),
        ("church-up2-1", {(frozenset(d), 1) for d in TWO_DICE}),
        ("church-up2-2", {(frozenset(d), 1) for d in TWO_DICE}),
        ("church-down2-1", {(frozenset(d), -1) for d in TWO_DICE}),
        ("church-down2-2", {(frozenset(d), -1) for d in TWO_DICE}),
    ],
)
def test_r17_each_church_card_offers_exactly_its_effect(card, expected):
    """R17 with every die at 3: one die by its delta, ±1 either way, or two different dice."""
    state = kept(card)
    assert uses(state, 0) == expected
    assert DISCARD_CHURCH in biblios.legal_actions(state, 0)


@pytest.mark.parametrize(
    "card, dice, delta, after",
    [
        ("church-up1-1", ["pigments"], 1, [3, 4, 3, 3, 3]),
        ("church-down1-2", ["forbidden_tomes"], -1, [3, 3, 3, 3, 2]),
        ("church-either1-1", ["monks"], -1, [2, 3, 3, 3, 3]),
        ("church-either1-1", ["manuscripts"], 1, [3, 3, 3, 4, 3]),
        ("church-up2-2", ["monks", "holy_books"], 1, [4, 3, 4, 3, 3]),
        ("church-down2-1", ["manuscripts", "pigments"], -1, [3, 2, 3, 2, 3]),
    ],
)
def test_r17_using_a_church_card_moves_the_chosen_dice_by_one(card, dice, delta, after):
    state = kept(card)
    state = biblios.apply_action(state, 0, use(dice, delta))  # dice in any order
    assert state.dice == after
    assert card in state.discard and card not in state.hands[0]  # R16
    assert {"type": "church_used", "seat": 0, "card": card, "dice": dice, "delta": delta} in (
        biblios.events_for(state, 1)
    )


@pytest.mark.parametrize(
    "card, action",
    [
        ("church-up1-1", use(["monks"], -1)),  # wrong direction
        ("church-down1-1", use(["monks"], 1)),
        ("church-up1-1", use(["monks"], 2)),
        ("church-up1-1", use(["monks"], True)),
        ("church-up1-1", use(["monks", "pigments"], 1)),  # one die only
        ("church-up1-1", use([], 1)),
        ("church-up1-1", use(["scrolls"], 1)),  # not a category id
        ("church-up2-1", use(["monks"], 1)),  # both or none
        ("church-up2-1", use(["monks", "monks"], 1)),  # never 2 on one die
        ("church-down2-2", use(["monks", "pigments", "holy_books"], -1)),
        ("church-down2-2", use(["monks", "pigments"], 1)),
    ],
)
def test_r17_wrong_uses_are_refused_and_change_nothing(card, action):
    state = kept(card)
    with pytest.raises(biblios.IllegalAction, match="R17"):
        biblios.apply_action(state, 0, action)
    assert state.dice == [3] * 5 and state.step == "church"


def test_s8_scripts_and_scribes_two_dice_bishops_move_two_different_dice_by_one():
    """§8: the "+2"/"−2" Bishop cards move two different dice by 1 each, as R17."""
    state = kept("church-up2-1", variant="scripts_and_scribes")
    assert uses(state, 0) == {(frozenset(d), 1) for d in TWO_DICE}
    with pytest.raises(biblios.IllegalAction, match="R17"):
        biblios.apply_action(state, 0, use(["monks"], 2))
    with pytest.raises(biblios.IllegalAction, match="R17"):
        biblios.apply_action(state, 0, use(["monks", "monks"], 1))
    state = act(state, (0, use(["monks", "pigments"], 1)))
    assert state.dice == [4, 4, 3, 3, 3]


# ---------------------------------------------------------------------------------- R16


def test_r16_using_a_church_card_is_optional_and_it_is_discarded_either_way():
    state = kept("church-up2-2", num_players=3)
    state = act(state, (0, DISCARD_CHURCH))
    assert state.dice == [3] * 5
    assert "church-up2-2" in state.discard
    assert all("church-up2-2" not in hand for hand in state.hands)
    assert {"type": "church_unused", "seat": 0, "card": "church-up2-2"} in biblios.events_for(
        state, None
    )
    assert state.step == "place" and state.drawing == "monks-A"  # the gift turn resumes


def test_r16_a_church_card_is_not_acquired_when_drawn():
    state = scripted_game(3, top=["church-down1-1", "monks-A", "pigments-A", "gold-1-01"])
    assert state.drawing == "church-down1-1"
    assert state.step == "place" and state.church is None
    assert [a["type"] for a in biblios.legal_actions(state, 0)] == ["place"] * 3


@pytest.mark.parametrize("route", ["kept", "picked", "won"])
def test_r16_church_card_acquired_kept_picked_or_won_waits_for_its_owner(route):
    """R16: the three ways to acquire a church card; each time the game waits for the owner,
    the card never reaches a hand, and play resumes where it stopped."""
    card = "church-up1-2"
    if route == "kept":
        state, owner = kept(card, num_players=3), 0
    elif route == "picked":
        state = scripted_game(3, top=["monks-A", "gold-1-01", card, "gold-2-01"])
        for to in ("self", "auction", "public", "public"):
            state = act(state, (0, place(to)))
        state, owner = act(state, (1, pick(card))), 1
    else:
        state = pass_until(deal_game(3, [[], ["gold-3-01"]], [card]), card)
        state = win_auction(state, 1, 3)
        active = state.active
        state, owner = act(state, (1, {"type": "pay", "cards": ["gold-3-01"]})), 1
    assert state.step == "church" and biblios.to_act(state) == [owner]
    for seat in (0, 1, 2, None):
        assert biblios.view(state, seat)["church"] == {"card": card, "seat": owner}
    hands = [list(hand) for hand in state.hands]
    state = act(state, (owner, use(["holy_books"], 1)))
    assert state.dice == [3, 3, 4, 3, 3]
    assert card in state.discard
    assert state.hands == hands  # nothing entered any hand
    if route == "won":
        assert state.phase == "auction" and state.active == (active + 1) % 3
    elif route == "picked":
        assert state.step == "pick" and biblios.to_act(state) == [2]
    else:
        assert state.step == "place" and biblios.to_act(state) == [0]


def test_r7_r16_church_in_auction_pile_acquired_only_when_won_and_paid():
    card = "church-down2-1"
    state = deal_game(2, [["gold-2-01"]], [card])
    assert state.dice == [3] * 5  # placed in the pile during the gift phase: not resolved
    state = pass_until(state, card)
    assert state.step == "bid" and state.church is None
    state = win_auction(state, 0, 2)
    assert state.step == "pay" and state.church is None  # won, not yet paid for
    state = act(state, (0, {"type": "pay", "cards": ["gold-2-01"]}))
    assert state.step == "church" and state.church == [card, 0]
    state = act(state, (0, use(["monks", "forbidden_tomes"], -1)))
    assert state.dice == [2, 3, 3, 3, 2]


def test_r16_church_card_refused_at_auction_is_not_acquired():
    card = "church-up1-1"
    state = pass_until(deal_game(2, [], [card]), card)
    winner = state.bidder
    state = win_auction(state, winner, 1)
    state = act(state, (winner, REFUSE))
    assert state.step == "bid" and state.church is None and state.auction_card == card
    state = act(state, (biblios.to_act(state)[0], PASS))
    assert card in state.discard and state.dice == [3] * 5 and state.church is None


def test_r16_church_card_unsold_at_auction_is_not_resolved():
    card = "church-either1-1"
    state = pass_until(deal_game(3, [], [card]), card)
    for _ in range(3):
        state = act(state, (biblios.to_act(state)[0], PASS))
    assert card in state.discard and state.church is None and state.dice == [3] * 5


# ---------------------------------------------------------------------------------- R18


def test_r18_dice_at_6_and_at_1_moves_outside_1_to_6_neither_offered_nor_accepted():
    """R18 in real play (2 players): Monks is pushed to 6 and Holy Books to 1 with church
    cards; later cards are offered only moves that keep every die within 1–6, the others are
    refused citing R18, and nothing is clamped."""
    top = [
        *("church-up2-1", "monks-A", "church-up1-1"),  # turn 1, seat 0 active
        *("church-up1-2", "monks-B", "church-either1-1"),  # turn 2, seat 1
        *("church-up2-2", "monks-C", "church-down1-1"),  # turn 3, seat 0
        *("church-down2-1", "monks-D", "church-down1-2"),  # turn 4, seat 1
    ]
    state = scripted_game(2, top=top)
    # turn 1
    state = act(state, (0, place("self")), (0, use(["monks", "pigments"], 1)))
    state = act(state, (0, place("auction")), (0, place("public")))
    state = act(state, (1, pick("church-up1-1")), (1, use(["monks"], 1)))
    assert state.dice == [5, 4, 3, 3, 3]
    # turn 2
    state = act(state, (1, place("self")), (1, use(["monks"], 1)))
    assert state.dice == [6, 4, 3, 3, 3]
    state = act(state, (1, place("auction")), (1, place("public")))
    state = act(state, (0, pick("church-either1-1")))
    expected = {(frozenset(d), s) for d in ONE_DIE for s in (1, -1)} - {(frozenset(["monks"]), 1)}
    assert uses(state, 0) == expected  # Monks at 6 can only go down
    with pytest.raises(biblios.IllegalAction, match="R18"):
        biblios.apply_action(state, 0, use(["monks"], 1))
    state = act(state, (0, use(["holy_books"], -1)))
    assert state.dice == [6, 4, 2, 3, 3]
    # turn 3: a +1 two-dice card with Monks at 6
    state = act(state, (0, place("self")))
    others = ["pigments", "holy_books", "manuscripts", "forbidden_tomes"]
    assert uses(state, 0) == {(frozenset(d), 1) for d in itertools.combinations(others, 2)}
    with pytest.raises(biblios.IllegalAction, match="R18"):
        biblios.apply_action(state, 0, use(["monks", "pigments"], 1))
    assert state.dice == [6, 4, 2, 3, 3]  # not clamped, not half-applied
    state = act(state, (0, use(["pigments", "manuscripts"], 1)))
    state = act(state, (0, place("auction")), (0, place("public")))
    state = act(state, (1, pick("church-down1-1")), (1, use(["holy_books"], -1)))
    assert state.dice == [6, 5, 1, 4, 3]
    # turn 4: a −1 two-dice card with Holy Books at 1
    state = act(state, (1, place("self")))
    others = ["monks", "pigments", "manuscripts", "forbidden_tomes"]
    assert uses(state, 1) == {(frozenset(d), -1) for d in itertools.combinations(others, 2)}
    with pytest.raises(biblios.IllegalAction, match="R18"):
        biblios.apply_action(state, 1, use(["holy_books", "forbidden_tomes"], -1))
    state = act(state, (1, DISCARD_CHURCH))
    state = act(state, (1, place("auction")), (1, place("public")))
    state = act(state, (0, pick("church-down1-2")))
    assert (frozenset(["holy_books"]), -1) not in uses(state, 0)
    assert len(uses(state, 0)) == 4
    with pytest.raises(biblios.IllegalAction, match="R18"):
        biblios.apply_action(state, 0, use(["holy_books"], -1))
    state = act(state, (0, use(["forbidden_tomes"], -1)))
    assert state.dice == [6, 5, 1, 4, 2]


@pytest.mark.parametrize(
    "card, dice",
    [
        ("church-up2-1", [6, 6, 6, 6, 3]),
        ("church-up2-2", [6, 6, 6, 6, 6]),
        ("church-down2-1", [1, 4, 1, 1, 1]),
        ("church-up1-1", [6, 6, 6, 6, 6]),
        ("church-down1-1", [1, 1, 1, 1, 1]),
    ],
)
def test_r18_card_with_too_few_movable_dice_can_only_be_discarded(card, dice):
    """R18: a two-dice card with fewer than two movable dice (or a one-die card with none)
    can only be discarded. Real play cannot reach these dice (at most 7 single steps of each
    direction exist in the deck), so the dice are set by hand on a real church-step state."""
    state = with_dice(kept(card), dice)
    assert biblios.legal_actions(state, 0) == [DISCARD_CHURCH]
    delta = 1 if "up" in card else -1
    for combo in itertools.combinations(CATEGORIES, 2 if "2-" in card else 1):
        with pytest.raises(biblios.IllegalAction, match="R18"):
            biblios.apply_action(state, 0, use(combo, delta))
    state = act(state, (0, DISCARD_CHURCH))
    assert state.dice == dice
