"""Scoring scenarios: R19 (categories), R20 (Gold), R21 (tie-breaks), via `scoring.score` and
via `biblios.result` on games played to the end."""

import pytest

from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import CARD_IDS, CATEGORY, GOLD_BY_VALUE
from games.kinds.biblios.engine.scoring import score

from .helpers import deal_game, pass_to_end

DICE_3 = [3, 3, 3, 3, 3]


def category(result, name):
    return next(c for c in result["categories"] if c["category"] == name)


def all_of(cat):
    return [card for card in CARD_IDS if CATEGORY[card] == cat]


# Seat 2 holds the two best cards of every category: it wins all five dice, and seats 0 and
# 1 (0 VP each) are separated by the later tie-break steps alone.
SWEEP = [
    "monks-H", "monks-I", "pigments-H", "pigments-I", "holy_books-H", "holy_books-I",
    "manuscripts-H", "manuscripts-I", "forbidden_tomes-H", "forbidden_tomes-I",
]  # fmt: skip


# ---------------------------------------------------------------------------------- R19


def test_r19_highest_total_wins_the_die_current_value():
    """Seat 0: Monks 4 + 4 = 8; seat 1: 2 + 2 + 2 = 6 with better letters: the total decides."""
    result = score([["monks-H", "monks-I"], ["monks-A", "monks-B", "monks-C"]], [5, 3, 3, 3, 3])
    monks = category(result, "monks")
    assert monks["totals"] == [8, 6]
    assert monks["letters"] == ["H", "A"]
    assert monks["winner"] == 0 and monks["tie_letter"] is None and monks["die"] == 5
    assert [p["vp"] for p in result["players"]] == [5, 0]
    assert result["winners"] == [0]


def test_r19_tied_totals_won_by_the_earliest_letter():
    """R19: both hold one Holy Books card of value 1: letter A beats letter G."""
    result = score([["holy_books-G"], ["holy_books-A"]], [3, 3, 6, 3, 3])
    holy = category(result, "holy_books")
    assert holy["totals"] == [1, 1]
    assert holy["winner"] == 1 and holy["tie_letter"] == "A"
    assert [p["vp"] for p in result["players"]] == [0, 6]


def test_r19_tie_letter_is_the_best_letter_of_any_card_in_the_category():
    """R19: the tied player holding the earliest letter wins, whichever card carries it:
    seat 0 Pigments B + I (2 + 4 = 6), seat 1 Pigments A + C + D (2 + 2 + 2 = 6)."""
    hands = [["pigments-I", "pigments-B"], ["pigments-C", "pigments-D", "pigments-A"]]
    pigments = category(score(hands, DICE_3), "pigments")
    assert pigments["totals"] == [6, 6]
    assert pigments["letters"] == ["B", "A"]
    assert pigments["winner"] == 1 and pigments["tie_letter"] == "A"


def test_r19_three_way_tie_letter_decides_among_tied_only():
    """Seat 2 holds letter A but a lower total: it is not among the tied, so E beats F."""
    hands = [["monks-E"], ["monks-F"], ["monks-A"]]  # totals 3, 3, 2
    monks = category(score(hands, DICE_3), "monks")
    assert monks["totals"] == [3, 3, 2]
    assert monks["winner"] == 0 and monks["tie_letter"] == "E"


def test_r19_nobody_scores_a_category_nobody_holds():
    result = score([["monks-A", "gold-3-01"], ["pigments-A"]], [3, 3, 6, 6, 6])
    for name in ("holy_books", "manuscripts", "forbidden_tomes"):
        assert category(result, name)["winner"] is None
        assert category(result, name)["totals"] == [0, 0]
    assert [p["vp"] for p in result["players"]] == [3, 3]


# ---------------------------------------------------------------------------------- R20


def test_r20_gold_scores_nothing_and_counts_by_value():
    hands = [list(GOLD_BY_VALUE[3][:5]), ["manuscripts-G"], ["gold-1-01", "gold-1-02"]]
    result = score(hands, DICE_3)
    assert [p["vp"] for p in result["players"]] == [0, 3, 0]
    assert [p["gold"] for p in result["players"]] == [15, 0, 2]
    assert result["winners"] == [1]
    assert all(c["winner"] in (None, 1) for c in result["categories"])


# ---------------------------------------------------------------------------------- R21


def test_r21_vp_first():
    result = score([["monks-A", "gold-3-01", "gold-3-02"], ["pigments-A", "holy_books-A"]], DICE_3)
    assert [p["vp"] for p in result["players"]] == [3, 6]
    assert result["winners"] == [1] and result["win_decided_by"] == "vp"
    assert result["players"][1]["decided_by"] == "vp"


def test_r21_vp_tie_broken_by_gold_value_not_gold_count():
    """Seat 0: one Gold 3 (value 3); seat 1: two Gold 1 (value 2, but more cards)."""
    hands = [["pigments-A", "gold-3-01"], ["monks-A", "gold-1-01", "gold-1-02"]]
    result = score(hands, DICE_3)
    assert [p["vp"] for p in result["players"]] == [3, 3]
    assert [p["gold"] for p in result["players"]] == [3, 2]
    assert result["winners"] == [0] and result["ranking"] == [0, 1]
    assert result["win_decided_by"] == "gold"
    assert result["players"][0]["decided_by"] == "gold"
    assert result["players"][1]["decided_by"] is None  # last place: nobody below


def test_r21_gold_comes_before_the_monks_steps():
    """Seat 0 has the higher Monks total, seat 1 more Gold: Gold decides (both 0 VP)."""
    result = score([["monks-I"], ["monks-A", "gold-1-01"], SWEEP], DICE_3)
    assert [p["vp"] for p in result["players"]] == [0, 0, 15]
    assert result["ranking"] == [2, 1, 0]
    assert result["players"][1]["decided_by"] == "gold"


def test_r21_monks_total_decides_between_players_who_won_other_categories():
    """Seat 2 wins Monks and Manuscripts (6 VP); seats 0 and 1 win Pigments and Holy Books
    (3 VP each), no Gold: seat 1's Monks 3 beats seat 0's Monks 2."""
    hands = [
        ["monks-A", "pigments-H"],
        ["monks-E", "holy_books-H"],
        ["monks-H", "monks-I", "manuscripts-H"],
    ]
    result = score(hands, DICE_3)
    assert [p["vp"] for p in result["players"]] == [3, 3, 6]
    assert result["ranking"] == [2, 1, 0]
    assert [result["players"][s]["place"] for s in (0, 1, 2)] == [3, 2, 1]
    assert result["players"][2]["decided_by"] == "vp"
    assert result["players"][1]["decided_by"] == "monks_total"
    assert result["players"][0]["decided_by"] is None
    assert result["win_decided_by"] == "vp"


def test_r21_monks_letter_decides_equal_monks_totals():
    hands = [
        ["monks-B", "pigments-H"],
        ["monks-A", "holy_books-H"],
        ["monks-H", "monks-I", "manuscripts-H"],
    ]
    result = score(hands, DICE_3)
    assert [p["vp"] for p in result["players"]] == [3, 3, 6]
    assert result["ranking"] == [2, 1, 0]
    assert result["players"][1]["decided_by"] == "monks_letter"


@pytest.mark.parametrize(
    "ahead, behind, step",
    [
        (["monks-E"], ["monks-A"], "monks_total"),
        (["monks-A"], ["monks-B"], "monks_letter"),
        (["pigments-E"], ["pigments-A"], "pigments_total"),
        (["pigments-A"], ["pigments-B"], "pigments_letter"),
        (["holy_books-A", "holy_books-G"], ["holy_books-B"], "holy_books_total"),
        (["holy_books-C"], ["holy_books-D"], "holy_books_letter"),
        (["manuscripts-B", "manuscripts-C"], ["manuscripts-A"], "manuscripts_total"),
        (["manuscripts-B"], ["manuscripts-C"], "manuscripts_letter"),
        (
            ["forbidden_tomes-D", "forbidden_tomes-E"],
            ["forbidden_tomes-A"],
            "forbidden_tomes_total",
        ),
        (["forbidden_tomes-A"], ["forbidden_tomes-C"], "forbidden_tomes_letter"),
        # Gold comes before every category step, even a better letter later on
        (["gold-1-01", "forbidden_tomes-G"], ["forbidden_tomes-F"], "gold"),
    ],
)
def test_r21_each_step_in_scriptorium_order(ahead, behind, step):
    """Seat 2 sweeps every category; seats 0 (ahead) and 1 (behind) are tied on 0 VP and are
    separated by the named R21 step, whichever seat number comes first."""
    for hands, first, second in (([ahead, behind, SWEEP], 0, 1), ([behind, ahead, SWEEP], 1, 0)):
        result = score(hands, DICE_3)
        assert [p["vp"] for p in result["players"]][:2] == [0, 0]
        assert result["ranking"] == [2, first, second]
        assert result["players"][first]["decided_by"] == step
        assert result["players"][first]["place"] == 2 and result["players"][second]["place"] == 3


def test_r21_shared_win_when_everything_ties():
    """Only Gold, of equal value: same VP (0), same Gold (3), nothing else: a shared win."""
    result = score([["gold-3-01"], ["gold-1-01", "gold-2-01"]], DICE_3)
    assert result["winners"] == [0, 1] and result["shared_win"] is True
    assert result["win_decided_by"] == "shared"
    assert [p["place"] for p in result["players"]] == [1, 1]
    assert result["players"][result["ranking"][0]]["decided_by"] == "shared"


def test_r21_shared_place_below_the_winner():
    result = score([["gold-2-01"], SWEEP, ["gold-2-02"]], DICE_3)
    assert result["winners"] == [1] and result["shared_win"] is False
    assert [p["place"] for p in result["players"]] == [2, 1, 2]
    assert result["players"][1]["decided_by"] == "vp"
    second = result["ranking"][1]
    assert result["players"][second]["decided_by"] == "shared"
    assert result["players"][result["ranking"][2]]["decided_by"] is None


def test_r21_four_player_ranking_with_decided_by_per_place():
    """Dice 1..5: seat 3 wins Forbidden Tomes (5 VP); seat 0 Monks (1) + Manuscripts (4) = 5,
    more Gold than seat 3; seat 1 Pigments (2); seat 2 Holy Books (3)."""
    dice = [1, 2, 3, 4, 5]
    hands = [
        ["monks-A", "manuscripts-A", "gold-3-01"],
        ["pigments-A"],
        ["holy_books-A"],
        ["forbidden_tomes-A", "gold-1-01"],
    ]
    result = score(hands, dice)
    assert [p["vp"] for p in result["players"]] == [5, 2, 3, 5]
    assert result["ranking"] == [0, 3, 2, 1]
    assert [result["players"][s]["decided_by"] for s in result["ranking"]] == [
        "gold", "vp", "vp", None,
    ]  # fmt: skip
    assert result["win_decided_by"] == "gold"
    assert [result["players"][s]["place"] for s in range(4)] == [1, 4, 3, 2]


# ------------------------------------------------------------------- result() on real games


def _finished_game(on_church=None, church=None):
    """A 2-player game played through: seat 0 holds all Monks and Pigments, seat 1 all Holy
    Books and Manuscripts; the Forbidden Tomes are auctioned and nobody bids."""
    seat0 = all_of("monks") + all_of("pigments") + ["gold-3-01", church or "gold-3-02"]
    seat1 = all_of("holy_books") + all_of("manuscripts") + ["gold-1-01", "gold-1-02"]
    auction = all_of("forbidden_tomes") + list(GOLD_BY_VALUE[2][:9]) + ["gold-1-03", "gold-1-04"]
    state = deal_game(2, [seat0, seat1], auction, on_church=on_church)
    return pass_to_end(state)


def test_r19_r21_result_of_a_finished_game_vp_tie_won_on_gold():
    """Dice all 3: Monks + Pigments = 6 VP for seat 0, Holy Books + Manuscripts = 6 VP for
    seat 1; Forbidden Tomes left the game unsold so nobody scores it; seat 0 has Gold 6 against
    2 and wins."""
    state = _finished_game()
    assert state.phase == "over" and biblios.to_act(state) == []
    result = biblios.result(state)
    assert result == score(state.hands, state.dice)
    assert [c["winner"] for c in result["categories"]] == [0, 0, 1, 1, None]
    assert [p["vp"] for p in result["players"]] == [6, 6]
    assert [p["gold"] for p in result["players"]] == [6, 2]
    assert result["winners"] == [0] and result["win_decided_by"] == "gold"


def test_r17_r19_result_uses_the_dice_as_moved_by_church_cards():
    """Seat 0 keeps a "−1 one die" church card and lowers Holy Books to 2: 6 VP against 5."""
    state = _finished_game(
        on_church=lambda s: {"type": "use_church", "dice": ["holy_books"], "delta": -1},
        church="church-down1-1",
    )
    assert state.dice == [3, 3, 2, 3, 3]
    result = biblios.result(state)
    assert [p["vp"] for p in result["players"]] == [6, 5]
    assert result["winners"] == [0] and result["win_decided_by"] == "vp"
    assert result["dice"]["holy_books"] == 2


def test_r22_result_only_at_the_end_and_hands_shown_then():
    state = deal_game(2, [], [])
    with pytest.raises(ValueError):
        biblios.result(state)
    assert "hands" not in biblios.view(state, 1) and "result" not in biblios.view(state, None)
    state = pass_to_end(state)
    for seat in (0, 1, None):
        seen = biblios.view(state, seat)
        assert seen["hands"] == [sorted(h, key=CARD_IDS.index) for h in state.hands]
        assert seen["result"] == biblios.result(state)
