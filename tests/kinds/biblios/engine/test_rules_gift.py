"""Gift phase scenarios: R3–R8 (and the R22 secrecy of the gift phase)."""

import json
import random
from collections import Counter

import pytest

from games.kinds.biblios import engine as biblios

from .helpers import (
    DISCARD_CHURCH,
    GIFT_TURNS,
    act,
    dealt_plan,
    pick,
    place,
    play_gift_turn,
    random_playout,
    scripted_game,
)


def shows(view_or_events, card: str) -> bool:
    """Whether a card id appears anywhere in a view or an event list."""
    return f'"{card}"' in json.dumps(view_or_events)


def use(dice, delta):
    return {"type": "use_church", "dice": list(dice), "delta": delta}


# ----------------------------------------------------------------------------------- R3


def test_r3_quotas_one_self_one_auction_rest_public_full_destination_not_offered():
    """R3 (3 players, 4 cards): two public, one self, one auction; a full destination is no
    longer offered, and placing there anyway is refused citing R3."""
    state = scripted_game(3, top=["monks-A", "gold-1-01", "monks-E", "gold-2-01"])
    destinations = lambda s: [a["to"] for a in biblios.legal_actions(s, 0)]  # noqa: E731
    assert destinations(state) == ["self", "auction", "public"]

    state = act(state, (0, place("public")))
    assert destinations(state) == ["self", "auction", "public"]
    state = act(state, (0, place("public")))  # the public space now holds N−1 = 2 cards
    assert destinations(state) == ["self", "auction"]
    with pytest.raises(biblios.IllegalAction, match="R3"):
        biblios.apply_action(state, 0, place("public"))

    state = act(state, (0, place("self")))
    assert destinations(state) == ["auction"]  # forced: the last card has one destination
    assert len(biblios.legal_actions(state, 0)) == 1
    for full in ("self", "public"):
        with pytest.raises(biblios.IllegalAction, match="R3"):
            biblios.apply_action(state, 0, place(full))
    state = act(state, (0, place("auction")))

    assert state.public_space == ["monks-A", "gold-1-01"]
    assert state.auction_pile == ["gold-2-01"]
    assert state.hands[0] == ["monks-E"]
    assert state.step == "pick"


def test_r3_auction_quota_full_after_one_card():
    """R3: exactly one card per turn goes to the auction pile."""
    state = scripted_game(2, top=["monks-A", "monks-B", "monks-C"])
    state = act(state, (0, place("auction")))
    assert [a["to"] for a in biblios.legal_actions(state, 0)] == ["self", "public"]
    with pytest.raises(biblios.IllegalAction, match="R3"):
        biblios.apply_action(state, 0, place("auction"))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r3_r8_every_gift_turn_has_exact_quotas_and_the_phase_has_all_turns(n):
    """R3: every turn places exactly 1 self, 1 auction and N−1 public cards; R8: the gift
    phase lasts 60/3, 72/4, 80/5 turns (20, 18, 16) and then the auction phase starts."""
    state = biblios.new_game(n, seed=f"quota-{n}")
    turns = []
    for current, seat, action in random_playout(
        state, random.Random(n), stop=lambda s: s.phase != "gift"
    ):
        if action is None:
            final = current
            break
        if action["type"] == "place":
            if current.placed == 0:
                turns.append(Counter())
                assert seat == current.active
            turns[-1][action["to"]] += 1
    assert len(turns) == GIFT_TURNS[n] == {2: 20, 3: 18, 4: 16}[n]
    assert all(turn == {"self": 1, "auction": 1, "public": n - 1} for turn in turns)
    assert final.phase == "auction" and not final.draw_pile


def test_r3_drawn_card_seen_by_the_active_player_alone_one_at_a_time():
    """R3, R22: the card being placed is visible to the active player only; the next card is
    not drawn until it is placed."""
    top = ["monks-H", "pigments-A", "gold-3-01"]
    state = scripted_game(3, top=top + ["holy_books-A"], first_player=1)
    assert state.active == 1 and state.drawing == "monks-H"
    assert biblios.view(state, 1)["gift"]["drawing"] == "monks-H"
    for other in (0, 2, None):
        seen = biblios.view(state, other)
        assert seen["gift"]["drawing"] is None
        assert not shows(seen, "monks-H")
        assert not shows(biblios.events_for(state, other), "monks-H")
    assert biblios.events_for(state, 1)[-1]["card"] == "monks-H"
    assert state.draw_pile[0] == "pigments-A"  # still in the draw pile
    assert biblios.view(state, 0)["draw_pile_size"] == 72 - 1

    state = act(state, (1, place("self")))
    assert state.drawing == "pigments-A"
    for other in (0, 2, None):
        assert not shows(biblios.view(state, other), "monks-H")  # face down to self
        assert not shows(biblios.view(state, other), "pigments-A")
    assert biblios.view(state, 1)["gift"]["self_card"] == "monks-H"

    state = act(state, (1, place("auction")))
    for other in (0, 2, None):
        assert not shows(biblios.view(state, other), "pigments-A")  # face down to the pile
        assert biblios.view(state, other)["auction_pile_size"] == 1
    assert biblios.view(state, 1)["my_auction_cards"] == ["pigments-A"]
    assert biblios.view(state, 0)["my_auction_cards"] == []

    state = act(state, (1, place("public")))  # face up: everyone sees it
    for seat in (0, 1, 2, None):
        assert biblios.view(state, seat)["public_space"] == ["gold-3-01"]


# ----------------------------------------------------------------------------------- R5


def test_r5_self_card_taken_into_hand_only_after_allocating():
    state = scripted_game(2, top=["monks-H", "gold-1-01", "gold-2-01"])
    state = act(state, (0, place("self")))
    assert state.hands[0] == []
    state = act(state, (0, place("public")))
    assert state.hands[0] == []
    state = act(state, (0, place("auction")))
    assert state.hands[0] == ["monks-H"]
    assert biblios.view(state, 1)["hand_sizes"] == [1, 0]
    assert not shows(biblios.view(state, 1), "monks-H")


def test_r5_picks_go_clockwise_from_active_left_one_each_last_forced_and_public():
    """R5 (4 players, seat 2 active): seats 3, 0, 1 pick in that order, one card each; the
    last pick is forced; everyone, spectators included, sees who took which card."""
    top = ["monks-H", "gold-1-01", "pigments-A", "holy_books-H", "gold-3-01"]
    state = scripted_game(4, top=top, first_player=2)
    for to in ("self", "auction", "public", "public", "public"):
        state = act(state, (2, place(to)))
    assert state.public_space == ["pigments-A", "holy_books-H", "gold-3-01"]
    assert state.hands == [[], [], ["monks-H"], []]

    assert biblios.to_act(state) == [3]
    for wrong in (0, 1, 2):
        with pytest.raises(biblios.IllegalAction, match="R5"):
            biblios.apply_action(state, wrong, pick("pigments-A"))
    assert len(biblios.legal_actions(state, 3)) == 3
    state = act(state, (3, pick("holy_books-H")))
    for seat in (0, 1, 2, None):
        assert {"type": "picked", "seat": 3, "card": "holy_books-H"} in biblios.events_for(
            state, seat
        )
        assert biblios.view(state, seat)["public_space"] == ["pigments-A", "gold-3-01"]

    assert biblios.to_act(state) == [0]
    with pytest.raises(biblios.IllegalAction, match="R5"):
        biblios.apply_action(state, 0, pick("holy_books-H"))  # no longer in the public space
    state = act(state, (0, pick("gold-3-01")))

    assert biblios.to_act(state) == [1]
    assert biblios.legal_actions(state, 1) == [pick("pigments-A")]  # forced
    state = act(state, (1, pick("pigments-A")))

    assert state.hands == [["gold-3-01"], ["pigments-A"], ["monks-H"], ["holy_books-H"]]
    assert state.public_space == []
    assert state.active == 3 and biblios.to_act(state) == [3] and state.step == "place"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r5_every_hand_grows_by_one_card_per_gift_turn(n):
    """R5: with no church cards, each gift turn adds exactly one card to every hand."""
    deck, plan = dealt_plan(n, [], [], hand_fill=("category", "gold"), auction_fill=("church",))
    state = biblios.new_game(n, seed=1, deck=deck, first_player=0)
    for turn, (active, order, picks) in enumerate(plan[:6]):
        state = play_gift_turn(state, active, order, picks)
        assert [len(hand) for hand in state.hands] == [turn + 1] * n


# ------------------------------------------------------------------------------ R4, R6, R7


def test_r4_church_kept_to_self_is_acquired_at_once_and_uses_the_self_slot():
    """R4: the church card placed to self is resolved before the next card is drawn; it uses
    the self slot, so the active player adds no card to the hand that turn."""
    top = ["gold-1-01", "church-up1-1", "monks-A", "gold-2-01"]
    state = scripted_game(3, top=top)
    state = act(state, (0, place("public")))
    state = act(state, (0, place("self")))

    assert state.step == "church" and biblios.to_act(state) == [0]
    assert state.drawing is None and state.draw_pile[0] == "monks-A"  # allocation paused
    assert biblios.view(state, 2)["church"] == {"card": "church-up1-1", "seat": 0}
    legal = biblios.legal_actions(state, 0)
    assert use(["monks"], 1) in legal and DISCARD_CHURCH in legal
    with pytest.raises(biblios.IllegalAction, match="R16"):
        biblios.apply_action(state, 0, place("auction"))  # the game waits for the church card
    with pytest.raises(biblios.IllegalAction, match="R16"):
        biblios.apply_action(state, 1, pick("gold-1-01"))

    state = act(state, (0, use(["monks"], 1)))
    assert state.dice == [4, 3, 3, 3, 3]
    assert state.step == "place" and state.drawing == "monks-A"  # allocation resumes
    assert [a["to"] for a in biblios.legal_actions(state, 0)] == ["auction", "public"]
    state = act(state, (0, place("auction")), (0, place("public")))

    assert state.hands[0] == []  # no card added to the hand this turn
    assert state.step == "pick" and biblios.to_act(state) == [1]
    assert "church-up1-1" in state.discard
    state = act(state, (1, pick("gold-2-01")), (2, pick("gold-1-01")))
    assert [len(hand) for hand in state.hands] == [0, 1, 1]
    assert state.active == 1


def test_r6_church_picked_from_public_is_resolved_before_the_next_pick():
    top = ["monks-A", "gold-1-01", "church-down1-1", "gold-2-01"]
    state = scripted_game(3, top=top)
    state = act(state, (0, place("self")), (0, place("auction")))
    state = act(state, (0, place("public")))  # drawing the church card acquires nothing
    assert state.step == "place" and state.dice == [3] * 5
    state = act(state, (0, place("public")))

    state = act(state, (1, pick("church-down1-1")))
    assert state.step == "church" and biblios.to_act(state) == [1]
    assert state.public_space == ["gold-2-01"]
    with pytest.raises(biblios.IllegalAction, match="R16"):
        biblios.apply_action(state, 2, pick("gold-2-01"))
    legal = biblios.legal_actions(state, 1)
    assert sorted(a["dice"][0] for a in legal if a["type"] == "use_church") == sorted(
        ["monks", "pigments", "holy_books", "manuscripts", "forbidden_tomes"]
    )
    assert all(a["delta"] == -1 for a in legal if a["type"] == "use_church")
    state = act(state, (1, use(["pigments"], -1)))

    assert state.dice == [3, 2, 3, 3, 3]
    assert state.hands[1] == []  # the church card never stays in hand (R16)
    assert state.step == "pick" and biblios.to_act(state) == [2]
    state = act(state, (2, pick("gold-2-01")))
    assert state.hands == [["monks-A"], [], ["gold-2-01"]]


def test_r6_church_as_the_forced_last_pick_is_resolved_before_the_next_turn():
    top = ["monks-A", "gold-1-01", "gold-2-01", "church-either1-1"]
    state = scripted_game(3, top=top)
    for to in ("self", "auction", "public", "public"):
        state = act(state, (0, place(to)))
    state = act(state, (1, pick("gold-2-01")))
    assert biblios.legal_actions(state, 2) == [pick("church-either1-1")]
    state = act(state, (2, pick("church-either1-1")))
    assert state.step == "church" and biblios.to_act(state) == [2]
    assert state.drawing is None and state.active == 0  # next turn not begun
    uses = [a for a in biblios.legal_actions(state, 2) if a["type"] == "use_church"]
    assert len(uses) == 10  # five dice, either direction (R17)
    state = act(state, (2, use(["forbidden_tomes"], 1)))
    assert state.dice == [3, 3, 3, 3, 4]
    assert state.active == 1 and state.step == "place" and state.drawing is not None


def test_r7_church_placed_in_auction_pile_is_not_resolved_then():
    top = ["church-up2-1", "monks-A", "gold-1-01"]
    state = scripted_game(2, top=top)
    state = act(state, (0, place("auction")))
    assert state.step == "place" and state.church is None
    assert state.dice == [3] * 5
    assert state.auction_pile == ["church-up2-1"]
    assert biblios.view(state, 0)["my_auction_cards"] == ["church-up2-1"]
    assert not shows(biblios.view(state, 1), "church-up2-1")
    state = act(state, (0, place("self")), (0, place("public")), (1, pick("gold-1-01")))
    assert state.dice == [3] * 5 and "church-up2-1" not in state.discard
    assert state.auction_pile == ["church-up2-1"]


# ----------------------------------------------------------------------------------- R8


@pytest.mark.parametrize("n", [2, 3, 4])
def test_r8_gift_phase_ends_when_pile_empty_and_last_public_card_taken(n):
    deck, plan = dealt_plan(n, [], [], first_player=n - 1, auction_fill=("gold", "category"))
    state = biblios.new_game(n, seed=4, deck=deck, first_player=n - 1)
    for active, order, picks in plan[:-1]:
        state = play_gift_turn(state, active, order, picks)
    active, order, picks = plan[-1]
    state = play_gift_turn(state, active, order, picks[:-1])
    assert state.phase == "gift" and state.step == "pick"
    assert state.draw_pile == [] and state.drawing is None
    assert len(state.public_space) == 1

    seat, card = picks[-1]
    state = act(state, (seat, pick(card)))
    assert state.phase == "auction"
    assert state.step == "bid"
    assert [len(hand) for hand in state.hands] == [GIFT_TURNS[n]] * n
    assert len(state.auction_pile) + 1 == GIFT_TURNS[n]  # one card is on offer already


def test_r6_r8_church_as_the_very_last_pick_is_resolved_then_the_auctions_start():
    """R6 then R8: the gift phase ends only once the last public card, here a church card,
    has been taken and resolved."""
    hand0 = biblios_cards("category")[:19] + ["church-up1-1"]
    deck, plan = dealt_plan(2, [hand0], [], auction_fill=("gold",))
    state = biblios.new_game(2, seed=2, deck=deck, first_player=0)
    for active, order, picks in plan[:-1]:
        state = play_gift_turn(state, active, order, picks)
    active, order, picks = plan[-1]
    assert picks == [(0, "church-up1-1")]
    state = play_gift_turn(state, active, order, [])
    state = act(state, (0, pick("church-up1-1")))
    assert state.phase == "gift" and state.step == "church" and not state.draw_pile
    assert state.auction_card is None
    state = act(state, (0, use(["manuscripts"], 1)))
    assert state.dice == [3, 3, 3, 4, 3]
    assert state.phase == "auction" and state.step == "bid"
    assert [len(hand) for hand in state.hands] == [19, 20]


def biblios_cards(kind):
    from games.kinds.biblios.engine.cards import CARD_IDS, KIND

    return [card for card in CARD_IDS if KIND[card] == kind]
