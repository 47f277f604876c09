"""The worked examples of the printed English rules (biblios-rules-en.txt), replayed with
scripted decks. Seats: Bob 0, James 1 (on Bob's left), Randolph / Steve 2."""

import json

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CATEGORY, KIND, LETTER, VALUE
from games.kinds.biblios.engine.scoring import score

from .helpers import (
    PASS,
    act,
    bid,
    deal_game,
    first_seed,
    pass_until,
    pick,
    place,
    scripted_game,
)

BOB, JAMES, STEVE = 0, 1, 2
RANDOLPH = 2


def shows(view_or_events, card):
    return f'"{card}"' in json.dumps(view_or_events)


def test_example_gift_turn_three_players_r3_r5():
    """ "Example of a Turn in Gift Phase": Bob draws a Monk (to the Auction pile), a Gold 1
    (public), a Monk 2 (to himself), a Gold 2 (forced to public); James picks the Gold 2 and
    leaves the Gold 1 to Randolph; then James is the active player.

    The printed first card is a "Monk 1", a value no Monks card has in this deck (spec §1:
    Monks are 2, 3 and 4), so a Monk 3 stands in for it."""
    monk_1, gold_1, monk_2, gold_2 = "monks-E", "gold-1-01", "monks-A", "gold-2-01"
    assert (CATEGORY[monk_2], VALUE[monk_2]) == ("monks", 2)
    assert VALUE[gold_1] == 1 and VALUE[gold_2] == 2
    state = scripted_game(3, top=[monk_1, gold_1, monk_2, gold_2], first_player=BOB)

    assert state.drawing == monk_1
    state = act(state, (BOB, place("auction")))
    assert state.drawing == gold_1
    state = act(state, (BOB, place("public")))
    assert state.drawing == monk_2
    state = act(state, (BOB, place("self")))
    assert state.drawing == gold_2
    # "which he must allocate to the public space, since the other options are not available"
    assert biblios.legal_actions(state, BOB) == [place("public")]
    state = act(state, (BOB, place("public")))

    assert state.hands[BOB] == [monk_2]  # Bob picks up the card he allocated to himself
    assert state.auction_pile == [monk_1]
    assert state.public_space == [gold_1, gold_2]
    for other in (JAMES, RANDOLPH, None):  # face down: neither Monk is known to the others
        assert not shows(biblios.view(state, other), monk_1)
        assert not shows(biblios.view(state, other), monk_2)

    assert biblios.to_act(state) == [JAMES]  # James, on Bob's left, chooses first
    state = act(state, (JAMES, pick(gold_2)))
    assert biblios.legal_actions(state, RANDOLPH) == [pick(gold_1)]  # left for Randolph
    state = act(state, (RANDOLPH, pick(gold_1)))

    assert state.hands == [[monk_2], [gold_2], [gold_1]]
    assert state.active == JAMES and biblios.to_act(state) == [JAMES]  # James's turn
    assert state.step == "place"


def test_example_auction_with_overpay_r9_r11():
    """Non-Gold auction example: Bob (active) flips a "Forbidden Tome 2"; James bids 1, Steve
    passes, Bob bids 3, James bids 4, Bob passes. James has no Gold 1, pays with a Gold 2 and
    a Gold 3 and "loses 1 Gold".

    Hands and the auction pile are dealt through scripted gift turns; the seed is the first
    whose auction-pile shuffle brings the Forbidden Tome up on Bob's turn (earlier cards are
    passed by everyone and leave the game)."""
    tome = "forbidden_tomes-H"
    assert (CATEGORY[tome], VALUE[tome]) == ("forbidden_tomes", 2)
    james_gold = ["gold-2-01", "gold-3-01"]

    def build(seed):
        state = deal_game(3, [["gold-3-02", "gold-1-01"], james_gold], [tome], seed=seed)
        return pass_until(state, tome)

    _, state = first_seed(build, lambda state: state.active == BOB)
    assert [c for c in state.hands[JAMES] if KIND[c] == "gold"] == james_gold
    assert state.auction_card == tome

    assert biblios.to_act(state) == [JAMES]
    state = act(state, (JAMES, bid(1)))
    state = act(state, (STEVE, PASS))
    state = act(state, (BOB, bid(3)))
    state = act(state, (JAMES, bid(4)))
    state = act(state, (BOB, PASS))

    assert state.step == "pay" and state.high_bidder == JAMES and state.high_bid == 4
    payments = [a["cards"] for a in biblios.legal_actions(state, JAMES) if a["type"] == "pay"]
    assert payments == [james_gold]  # the only way James can cover 4
    state = act(state, (JAMES, {"type": "pay", "cards": james_gold}))

    assert tome in state.hands[JAMES]
    assert not [c for c in state.hands[JAMES] if KIND[c] == "gold"]
    assert set(james_gold) <= set(state.discard)
    paid = next(e for e in biblios.events_for(state, STEVE) if e["type"] == "paid")
    assert paid["amount"] == 4
    assert sum(VALUE[c] for c in paid["cards"]) - paid["amount"] == 1  # "loses 1 Gold"
    assert state.active == JAMES  # the next player becomes the active player


def test_example_two_dice_church_card_kept_as_first_card_r4_r17():
    """Church example: Bob allocates his first card, a "Church −1 with two dice", to himself,
    stops allocating, lowers Holy Books from 2 to 1 and Pigments from 3 to 2, then resumes.

    Adaptation: dice start at 3 (R2), so Steve, the first player, first keeps a "−1 one die"
    card and lowers Holy Books to 2; Bob's turn comes next."""
    steve_turn = ["church-down1-1", "monks-A", "pigments-A", "gold-1-01"]
    bob_turn = ["church-down2-1", "monks-B", "pigments-B", "gold-1-02"]
    state = scripted_game(3, top=steve_turn + bob_turn, first_player=STEVE)
    use = lambda dice: {"type": "use_church", "dice": dice, "delta": -1}  # noqa: E731

    state = act(state, (STEVE, place("self")), (STEVE, use(["holy_books"])))
    state = act(state, (STEVE, place("auction")), (STEVE, place("public")))
    state = act(state, (STEVE, place("public")))
    state = act(state, (BOB, pick("pigments-A")), (JAMES, pick("gold-1-01")))
    assert state.dice == [3, 3, 2, 3, 3]
    assert state.active == BOB

    assert state.drawing == "church-down2-1"
    state = act(state, (BOB, place("self")))  # his first card
    assert state.step == "church" and state.placed == 1  # allocation on hold
    state = act(state, (BOB, use(["pigments", "holy_books"])))
    assert state.dice[2] == 1 and state.dice[1] == 2  # Holy Books 2 → 1, Pigments 3 → 2
    assert state.dice == [3, 2, 1, 3, 3]
    assert state.step == "place" and state.drawing == "monks-B"  # he resumes his turn
    assert [a["to"] for a in biblios.legal_actions(state, BOB)] == ["auction", "public"]
    assert "church-down2-1" in state.discard


def test_example_monks_tie_won_by_letter_b_and_vp_tie_won_on_gold_r19_r21():
    """Scoring example: Bob's Monks 2, 3, 4 (best letter C) total 9; Steve's Monks also total
    9 with a B: Steve takes the Monks die (5 VP). Bob wins 3 categories worth 2, 2 and 4 = 8;
    Steve's dice show 5 and 3 = 8 too, but Steve has more Gold and wins the game."""
    bob_monks = ["monks-C", "monks-E", "monks-H"]
    steve_monks = ["monks-B", "monks-F", "monks-I"]
    assert [VALUE[c] for c in bob_monks] == [2, 3, 4] and min(LETTER[c] for c in bob_monks) == "C"
    assert sum(VALUE[c] for c in steve_monks) == 9 and min(LETTER[c] for c in steve_monks) == "B"
    bob = bob_monks + ["pigments-A", "holy_books-A", "manuscripts-A", "gold-1-01"]
    steve = steve_monks + ["forbidden_tomes-A", "gold-3-01"]
    dice = [5, 2, 2, 4, 3]  # Monks 5, Pigments 2, Holy Books 2, Manuscripts 4, Tomes 3

    result = score([bob, steve], dice)
    monks = result["categories"][0]
    assert monks["totals"] == [9, 9]
    assert monks["letters"] == ["C", "B"]
    assert monks["winner"] == 1 and monks["tie_letter"] == "B"
    assert [c["winner"] for c in result["categories"]] == [1, 0, 0, 0, 1]
    assert [p["vp"] for p in result["players"]] == [8, 8]
    assert result["players"][1]["gold"] > result["players"][0]["gold"]
    assert result["winners"] == [1] and result["win_decided_by"] == "gold"
