"""The Ex Libris inspection form (spec §10: X68–X76, X90.1–2; solo X84, X90.7).

The rulebook's worked examples are checked where they are printed: A1's M-8, M-3, P-1 (X69),
the four stability figures (X71, rebuilt from the spec because the figures are lost), the
Prominent example and tie table (X72), Quentin's 13 Banned books (X73), Stéphanie's diversity
(X74, only what the spec allows), Quentin's 14 focus books (X75). Whole inspections use
made-up cards (letter Z, which the deck lacks) so that every count is visible in the test.
"""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine import cards
from games.kinds.exlibris.engine import scoring as sc
from games.kinds.exlibris.engine.bookshelf import IllegalAction
from games.kinds.exlibris.engine.cards import CARDS, CATEGORIES

from .test_bookshelf import PROPERTY, by_shelving, layout, shelves

CC, FF, HV, MM, RT, SP = CATEGORIES  # X2 order


def counts_of(**books) -> dict:
    """A2 counts with every category, zero unless given (by its id)."""
    return {category: books.get(category, 0) for category in CATEGORIES}


@pytest.fixture
def fake(monkeypatch):
    """Made-up cards "Z-<ordinal>" with the books a test chooses (the deck has no Z)."""

    def make(card_id: str, *books: str) -> str:
        letter, ordinal = card_id.split("-")
        assert letter == "Z"
        monkeypatch.setitem(CARDS, card_id, cards.Card(card_id, "Z", int(ordinal), 99, books))
        return card_id

    assert not any(card.letter == "Z" for card in CARDS.values())
    return make


# ------------------------------------------------------------------------- A1 (X69)


def test_x69_printed_example_m8_m3_p1_turns_m3_down():
    shelf = by_shelving(("M-8", (0, 0)), ("M-3", (0, 1)), ("P-1", (0, 2)))
    after, flips = sc.alphabetical(shelf)
    assert flips == [(0, 1)]
    assert [bs.stack_at(after, cell)["up"] for cell in bs.reading_order(after)] == [
        True,
        False,
        True,
    ]


def test_x68_x69_with_m8_pre_flipped_m3_and_p1_both_stay():
    shelf = bs.flip_down(by_shelving(("M-8", (0, 0)), ("M-3", (0, 1)), ("P-1", (0, 2))), (0, 0))
    after, flips = sc.alphabetical(shelf)
    assert flips == [] and after == shelf


def test_x69_a_15_compare_with_the_last_card_left_face_up_not_the_previous_card():
    """M-5 follows M-3 but not M-8, the last card left up: both M-3 and M-5 go down."""
    shelf = by_shelving(("M-8", (0, 0)), ("M-3", (0, 1)), ("M-5", (0, 2)), ("N-1", (0, 3)))
    assert sc.alphabetical(shelf)[1] == [(0, 1), (0, 2)]


def test_x17_x69_the_walk_goes_row_by_row_top_row_first():
    """C-1 sits left of B-1's row but one row lower: it is read after B-1 and D-1."""
    shelf = layout("B-1 D-1\nC-1 E-1")
    assert sc.alphabetical(shelf)[1] == [(1, 0)]
    shelf = layout("B-1 D-1\nC-1 E-1", top=-1, left=-5)  # coordinates do not matter
    assert sc.alphabetical(shelf)[1] == [(0, -5)]


def test_x69_under_cards_and_face_down_tops_are_skipped():
    """D-1, face down, would turn C-1 down if it were read; A-1, under B-1, would be out of
    order."""
    shelf = layout("B-1/A-1 ~D-1 C-1")
    assert sc.alphabetical(shelf) == (shelf, [])
    assert sc.alphabetical(layout("B-1 D-1 C-1"))[1] == [(0, 2)]


# ------------------------------------------------------------------------- A2 (X70)


def test_x70_e2_holds_one_historic_one_fiction_one_spells_book():
    """X3's anatomy example: E-2 holds Historic Volumes, Fantastical Fiction, Spells & Potions."""
    assert sc.category_counts(layout("E-2")) == counts_of(**{HV: 1, FF: 1, SP: 1})


def test_x70_face_down_and_under_cards_count_nothing():
    assert sc.category_counts(layout("~E-2")) == counts_of()
    assert sc.category_counts(layout("A-1/E-2")) == sc.category_counts(layout("A-1"))


def test_x3_x70_a_repeated_icon_counts_two_books():
    card = next(c for c in CARDS.values() if len(set(c.books)) < len(c.books))
    repeated = next(category for category in card.books if card.books.count(category) == 2)
    assert sc.category_counts(layout(card.id))[repeated] == 2
    assert sum(sc.category_counts(layout(card.id)).values()) == len(card.books)


# ------------------------------------------------------------------------- B1 (X71)


def pattern(picture: str) -> dict:
    """A bookshelf drawn with "X" (face up), "~" (face down) and "S" (a Mummy stack), filled
    with distinct deck cards."""
    ids = iter(sorted(CARDS))
    tokens = []
    for line in picture.strip().splitlines():
        row = []
        for mark in line.split():
            if mark == "X":
                row.append(next(ids))
            elif mark == "~":
                row.append("~" + next(ids))
            elif mark == "S":
                row.append(f"{next(ids)}/{next(ids)}")
            else:
                row.append(".")
        tokens.append(" ".join(row))
    return layout("\n".join(tokens))


# The rulebook's four stability figures are lost in its text (only "9, 8, 0, 12 points" and the
# captions survive); these shapes are built from X71 to give those scores for the reasons the
# captions give.
PRINTED_STABILITY = {
    "9: a 3 × 3 block, the wider bottom row only 1 high at its end": (
        """
        . X X X .
        X X X X .
        . X X X X
        """,
        9,
    ),
    "8: low and wide, ideal for Hobbits (4 × 2; the 5th column is 1 high)": (
        """
        X X X X .
        X X X X X
        """,
        8,
    ),
    "0: a 4 × 2 block that does not stand on the bottom row": (
        """
        X X X X
        X X X X
        X . X .
        """,
        0,
    ),
    "12: 4 × 3 beats the 5 × 2 beside it": (
        """
        X X X X .
        X X X X X
        X X X X X
        """,
        12,
    ),
}


@pytest.mark.parametrize("name", PRINTED_STABILITY)
def test_x71_the_printed_stability_examples(name):
    picture, points = PRINTED_STABILITY[name]
    assert sc.stability(pattern(picture)) == points


def test_x71_the_working_names_the_rectangle():
    working = sc.stability_working(pattern("X X X X .\nX X X X X\nX X X X X"))
    assert (working["columns"], working["width"], working["height"]) == ([0, 3], 4, 3)
    assert working["heights"] == {"0": 3, "1": 3, "2": 3, "3": 3, "4": 2}


@pytest.mark.parametrize(
    "picture",
    ["X X X X X X", "X\nX\nX", "X X\n. X\n. X", "X .\nX X"],
    ids=["one row", "one column", "an L", "2 x 2 with a hole"],
)
def test_x71_less_than_2_by_2_scores_nothing(picture):
    assert sc.stability(pattern(picture)) == 0


def test_x71_face_down_cards_count_for_the_rectangle():
    """The rulebook's note: cards turned face down still count for stability."""
    assert sc.stability(pattern("~ ~\n~ X")) == 4


def test_x56_x71_two_points_per_entombed_card_rectangle_or_not():
    assert sc.stability(pattern("S X S")) == 4
    assert sc.stability(pattern("S X\nX S")) == 4 + 4
    shelf = pattern("S X\nX X")
    rest, _ = bs.remove(shelf, (0, 0))  # X15: the card left alone is no longer entombed
    assert sc.stability(rest) == 4


def test_x71_the_empty_bookshelf_scores_nothing():
    assert sc.stability(bs.empty()) == 0


# ------------------------------------------------------------------------- B2 (X72)


def test_x72_printed_example_theo_quentin_stephanie_benoit():
    """Théo 8, Quentin 10, Stéphanie 9, Benoît 7: 4, 15, 9 and nothing."""
    assert sc.prominent_points([8, 10, 9, 7]) == [4, 15, 9, 0]


@pytest.mark.parametrize(
    "books, points, places",
    [
        ([5, 5, 3], [12, 12, 4], [1, 1, 3]),  # 2 tied 1st: 12 each, the next is 3rd
        ([6, 5, 5], [15, 7, 7], [1, 2, 2]),  # 2 tied 2nd: 7 each
        ([6, 5, 5, 1], [15, 7, 7, 0], [1, 2, 2, 4]),
        ([6, 5, 3, 3], [15, 9, 2, 2], [1, 2, 3, 3]),  # 2 tied 3rd: 2 each
        ([4, 4, 4], [10, 10, 10], [1, 1, 1]),  # 3 tied 1st: 28 / 3 rounded up
        ([4, 4, 4, 9], [5, 5, 5, 15], [2, 2, 2, 1]),  # 3 tied 2nd: (9 + 4 + 0) / 3 rounded up
        ([2, 2, 2, 2], [7, 7, 7, 7], [1, 1, 1, 1]),  # 4 tied 1st: 7 each
        ([3, 1], [15, 9], [1, 2]),  # 2 players
        ([3, 3], [12, 12], [1, 1]),
    ],
)
def test_x72_ties_share_the_values_of_every_place_they_cover(books, points, places):
    assert sc.prominent_points(books) == points
    assert [place for place, _ in sc.prominent_places(books)] == places


def test_x72_a_17_no_prominent_book_no_points_and_no_place():
    assert sc.prominent_points([0, 0]) == [0, 0]
    assert sc.prominent_places([2, 0, 1]) == [(1, 15), (None, 0), (2, 9)]
    assert sc.prominent_points([0, 0, 0, 1]) == [0, 0, 0, 15]


@PROPERTY
@given(st.lists(st.integers(0, 30), min_size=1, max_size=4, unique=True))
def test_x72_without_ties_the_points_are_the_places_values(books):
    points = sc.prominent_points(books)
    owners = sum(p >= 1 for p in books)
    assert sum(points) == sum((15, 9, 4)[: min(owners, 3)])
    assert sorted(points, reverse=True)[: min(owners, 3)] == [15, 9, 4][: min(owners, 3)]


@PROPERTY
@given(st.lists(st.integers(0, 6), min_size=1, max_size=4))
def test_x72_more_prominent_books_never_score_fewer_points(books):
    points = sc.prominent_points(books)
    for a, b in itertools.permutations(range(len(books)), 2):
        if books[a] > books[b]:
            assert points[a] >= points[b]
        if books[a] == books[b]:
            assert points[a] == points[b]


# ------------------------------------------------------------------------- B3, B4, B5


def test_x73_printed_example_quentin_loses_13():
    assert sc.banned_points(counts_of(**{CC: 13, FF: 4}), CC) == -13


@pytest.mark.parametrize("spells", [5, 6, 12])
@pytest.mark.parametrize("codices", [0, 3, 13])
def test_x74_stephanie_example_holds_with_at_least_5_spells_and_any_codices(spells, codices):
    """Review G4: the printed four numbers, Spells & Potions s >= 5 (the count the text lost),
    Codices Banned with any count: 15 points, whatever the Codices count."""
    counts = counts_of(**{FF: 5, HV: 9, MM: 7, RT: 6, SP: spells, CC: codices})
    assert sc.diversity(counts, CC) == 15


def test_x74_a_18_only_the_banned_category_is_left_out():
    """The rule itself (not the printed example): a missing non-Banned category gives 0, and
    the smallest may be any non-Banned one, Prominent or focus included."""
    full = counts_of(**{CC: 0, FF: 4, HV: 4, MM: 4, RT: 4, SP: 4})
    assert sc.diversity(full, CC) == 12
    assert sc.diversity({**full, SP: 0}, CC) == 0
    assert sc.diversity({**full, RT: 2}, CC) == 6
    assert sc.diversity(full, FF) == 0  # Codices now count, and there are none


def test_x75_printed_example_quentin_14_monster_manuals_score_28():
    assert sc.focus_points(counts_of(**{MM: 14, FF: 3}), MM) == 28


# ------------------------------------------------------------------------- inspection (X76)


def test_x68_x76_the_whole_working_of_an_inspection(fake):
    z = {
        5: fake("Z-5", RT, RT),
        2: fake("Z-2", SP),
        6: fake("Z-6", FF, HV, MM, SP),
        7: fake("Z-7", CC, RT),
        8: fake("Z-8", FF),
        9: fake("Z-9", RT, FF),
        10: fake("Z-10", RT, RT),
        11: fake("Z-11", RT, HV),
        12: fake("Z-12", MM),
    }
    first = layout(f"{z[5]} {z[2]} {z[6]}\n{z[7]}/{z[8]} {z[9]} .")
    players = [
        {"bookshelf": first, "focus": FF, "hand": ["A-1"]},
        {"bookshelf": layout(f"{z[10]} {z[11]}"), "focus": HV, "hand": 0},
        {"bookshelf": layout(z[12]), "focus": MM},
    ]
    result = sc.inspect(players, prominent=RT, banned=CC)
    one, two, three = result["players"]
    # A1: Z-2 follows Z-5; A2 on the face-up tops Z-5, Z-6, Z-7, Z-9 (Z-8 is entombed)
    assert one["a1_flips"] == [[0, 1]] and one["a1_flipped_cards"] == ["Z-2"]
    assert one["counts"] == counts_of(**{CC: 1, FF: 2, HV: 1, MM: 1, RT: 4, SP: 1})
    assert one["books"] == 10 and one["hand"] == 1
    assert one["stability"]["rectangle"] == 4 and one["stability"]["entombed"] == 1
    assert (one["b1"], one["b2"], one["b3"], one["b4"], one["b5"]) == (6, 15, -1, 3, 4)
    assert one["total"] == 27 and one["b2_place"] == 1
    assert one["scarcest"] == [HV, MM, SP]
    assert (two["b1"], two["b2"], two["b3"], two["b4"], two["b5"], two["total"]) == (
        0,
        9,
        0,
        0,
        2,
        11,
    )
    assert (three["b2"], three["b2_place"], three["total"]) == (0, None, 2)
    assert [p["place"] for p in result["players"]] == [1, 2, 3]
    assert [p["decided_by"] for p in result["players"]] == ["total", "total", None]
    assert result["ranking"] == [0, 1, 2] and result["winners"] == [0]
    assert not result["shared_win"]
    assert players[0]["bookshelf"] == first  # the input is left alone


def test_x68_pre_flips_come_before_a1_and_are_shown(fake):
    z5, z2, z6 = fake("Z-5", RT, RT), fake("Z-2", SP), fake("Z-6", FF)
    shelf = layout(f"{z5} {z2} {z6}")
    sheet = sc.inspect([{"bookshelf": shelf, "focus": FF, "pre_flips": [[0, 0]]}], RT, CC)
    (one,) = sheet["players"]
    assert one["pre_flips"] == [[0, 0]] and one["a1_flips"] == []
    assert one["counts"] == counts_of(**{SP: 1, FF: 1})
    with pytest.raises(IllegalAction, match="X90"):  # X90.2: a face-down card is not named
        sc.inspect([{"bookshelf": shelf, "focus": FF, "pre_flips": [[0, 0], [0, 0]]}], RT, CC)


def tie_players(fake, *shelves_hands):
    """Players from (books per card list, hand size), each with focus Fiction."""
    players = []
    ordinal = itertools.count(1)
    for card_books, hand in shelves_hands:
        ids = [fake(f"Z-{next(ordinal)}", *books) for books in card_books]
        picture = " ".join(ids) if ids else ""
        shelf = layout(picture) if ids else bs.empty()
        players.append({"bookshelf": shelf, "focus": FF, "hand": hand})
    return players


def test_x76_a_19_equal_totals_most_face_up_books_first(fake):
    players = tie_players(fake, ([(FF,)], 0), ([(FF, MM)], 0))
    result = sc.inspect(players, RT, CC)
    assert [p["total"] for p in result["players"]] == [2, 2]
    assert [p["place"] for p in result["players"]] == [2, 1]
    assert result["players"][1]["decided_by"] == "books"


def test_x76_then_fewest_cards_in_hand(fake):
    players = tie_players(fake, ([(FF,)], 3), ([(FF,)], ["A-1"]))
    result = sc.inspect(players, RT, CC)
    assert [p["place"] for p in result["players"]] == [2, 1]
    assert result["players"][1]["decided_by"] == "hand"


def test_x76_then_fewest_face_up_banned_books(fake):
    players = tie_players(fake, ([(FF, FF), (CC, CC)], 1), ([(FF, MM), (HV, SP)], 1))
    result = sc.inspect(players, RT, CC)
    one, two = result["players"]
    assert (one["total"], one["books"]) == (two["total"], two["books"]) == (2, 4)
    assert [p["place"] for p in result["players"]] == [2, 1]
    assert two["decided_by"] == "banned"


def test_x76_x90_1_players_equal_on_everything_share_the_place(fake):
    players = tie_players(fake, ([(FF,)], 1), ([(FF,)], 1), ([], 0))
    result = sc.inspect(players, RT, CC)
    assert [p["place"] for p in result["players"]] == [1, 1, 3]
    assert result["winners"] == [0, 1] and result["shared_win"]
    assert [p["decided_by"] for p in result["players"]] == [None, "total", None]


def test_x90_1_the_tie_breaks_order_every_place_not_only_the_first(fake):
    players = tie_players(
        fake,
        ([(FF, FF)], 0),  # total 4
        ([(FF,)], 2),  # total 2, 1 book, hand 2
        ([(FF,)], 1),  # total 2, 1 book, hand 1
        ([(FF,)], 1),  # equal to the one before on every step: they share 2nd
    )
    result = sc.inspect(players, RT, CC)
    assert [p["place"] for p in result["players"]] == [1, 4, 2, 2]
    assert result["ranking"][0] == 0 and set(result["ranking"][1:3]) == {2, 3}


def test_x76_inspection_refuses_what_the_rules_never_produce(fake):
    shelf = layout(fake("Z-1", FF))
    with pytest.raises(IllegalAction, match="X10"):
        sc.inspect([{"bookshelf": shelf, "focus": FF}], RT, RT)
    with pytest.raises(IllegalAction, match="X2"):
        sc.inspect([{"bookshelf": shelf, "focus": "poetry"}], RT, CC)
    with pytest.raises(IllegalAction, match="X3"):
        sc.inspect([{"bookshelf": shelf, "focus": FF}, {"bookshelf": shelf, "focus": HV}], RT, CC)
    with pytest.raises(IllegalAction, match="X3"):
        sc.inspect([{"bookshelf": layout("no-such-card"), "focus": FF}], RT, CC)


# ------------------------------------------------------------------------- solo (X84)


def solo(fake, shelf_books, library_books, hand_books=(), focus=FF, public_focus=HV):
    ordinal = itertools.count(1)
    shelf_ids = [fake(f"Z-{next(ordinal)}", *books) for books in shelf_books]
    library = [fake(f"Z-{next(ordinal)}", *books) for books in library_books]
    hand = [fake(f"Z-{next(ordinal)}", *books) for books in hand_books]
    player = {"bookshelf": layout(" ".join(shelf_ids)) if shelf_ids else {}, "focus": focus}
    if hand:
        player["hand"] = hand
    return sc.solo_inspection(player, library, public_focus, prominent=RT, banned=CC)


def test_x84_the_public_library_wins_prominent_ties(fake):
    result = solo(fake, [(RT, RT)], [(RT,), (RT,)])
    assert (result["player"]["b2"], result["public_library"]["b2"]) == (0, 15)


def test_x84_strictly_more_prominent_books_score_15_no_second_place(fake):
    result = solo(fake, [(RT, RT, RT)], [(RT,), (RT,)])
    assert (result["player"]["b2"], result["public_library"]["b2"]) == (15, 0)
    result = solo(fake, [(FF,)], [(RT,)])
    assert (result["player"]["b2"], result["public_library"]["b2"]) == (0, 15)


def test_x90_7_nobody_scores_b2_when_neither_has_a_prominent_book(fake):
    result = solo(fake, [(FF,)], [(HV,)])
    assert (result["player"]["b2"], result["public_library"]["b2"]) == (0, 0)


def test_x84_the_public_library_scores_a2_b3_b4_b5_never_a1_or_b1(fake):
    library = [(FF, HV), (MM, RT), (SP, CC), (HV, HV), (CC,)]
    result = solo(fake, [(FF,)], library, public_focus=HV)
    lib = result["public_library"]
    assert lib["counts"] == counts_of(**{CC: 2, FF: 1, HV: 3, MM: 1, RT: 1, SP: 1})
    assert (lib["b2"], lib["b3"], lib["b4"], lib["b5"]) == (15, -2, 3, 6)
    assert lib["scarcest"] == [FF, MM, RT, SP]
    assert lib["total"] == 15 - 2 + 3 + 6
    assert "b1" not in lib and "a1_flips" not in lib


def test_x84_the_player_scores_as_usual(fake):
    result = solo(fake, [(FF, FF), (SP,)], [(HV,)], focus=FF)
    me = result["player"]
    assert (me["b1"], me["b2"], me["b3"], me["b4"], me["b5"]) == (0, 0, 0, 0, 4)
    assert me["total"] == 4


def test_x84_x90_7_the_discarded_hand_joins_the_public_library(fake):
    result = solo(fake, [(FF,)], [(HV,)], hand_books=[(RT,), (CC, CC)])
    assert result["discarded_hand"] == ["Z-3", "Z-4"]
    assert result["public_library"]["cards"] == 3
    assert result["public_library"]["counts"] == counts_of(**{HV: 1, RT: 1, CC: 2})
    assert result["player"]["hand"] == 0


def test_x84_the_player_wins_only_with_a_strictly_higher_total(fake):
    equal = solo(fake, [(FF,)], [(HV,)], focus=FF, public_focus=HV)
    assert equal["player"]["total"] == equal["public_library"]["total"] == 2
    assert not equal["player_wins"]
    ahead = solo(fake, [(FF, FF)], [(HV,)], focus=FF, public_focus=HV)
    assert ahead["player_wins"]


def test_x84_a_card_may_not_be_both_shelved_and_in_the_public_library(fake):
    card = fake("Z-1", FF)
    with pytest.raises(IllegalAction, match="X3"):
        sc.solo_inspection({"bookshelf": layout(card), "focus": FF}, [card], HV, RT, CC)


# ------------------------------------------------------------------------- properties


def brute_force_rectangle(shelf: dict) -> int:
    """X71 read literally: every rectangle of occupied cells whose lowest row is the bottom
    row, at least 2 × 2; the largest area (0 without one)."""
    taken = bs.occupied(shelf)
    if not taken:
        return 0
    bottom = bs.bottom_row(shelf)
    cols = [c for _, c in taken]
    best = 0
    for first in range(min(cols), max(cols) + 1):
        for last in range(first + 1, max(cols) + 1):
            for height in (2, 3):
                if all(
                    (bottom - d_row, col) in taken
                    for d_row in range(height)
                    for col in range(first, last + 1)
                ):
                    best = max(best, (last - first + 1) * height)
    return best


@PROPERTY
@given(shelves())
def test_x71_stability_is_the_largest_bottom_rectangle_plus_entombed(shelf):
    points = sc.stability(shelf)
    assert points >= 0
    assert points == brute_force_rectangle(shelf) + 2 * bs.entombed_count(shelf)


@PROPERTY
@given(shelves())
def test_x69_after_a1_face_up_keys_strictly_increase_in_reading_order(shelf):
    after, flips = sc.alphabetical(shelf)
    up_keys = [
        cards.key(bs.stack_at(after, cell)["top"])
        for cell in bs.reading_order(after)
        if bs.stack_at(after, cell)["up"]
    ]
    assert up_keys == sorted(up_keys) and len(set(up_keys)) == len(up_keys)
    # A1 only turns cards down, exactly the flipped ones, and a second pass flips nothing
    for cell in bs.reading_order(shelf):
        before, now = bs.stack_at(shelf, cell), bs.stack_at(after, cell)
        assert now == {**before, "up": before["up"] and cell not in flips}
    assert sc.alphabetical(after) == (after, [])


@PROPERTY
@given(st.integers(1, 4), st.data())
def test_x76_every_total_is_the_sum_of_its_lines_and_places_follow_the_key(seats, data):
    deck = data.draw(st.permutations(sorted(CARDS)))
    pools = [deck[seat::seats] for seat in range(seats)]  # no card in two bookshelves
    shelf_list = [data.draw(shelves(max_cards=12, pool=pool)) for pool in pools]
    players = []
    for shelf in shelf_list:
        focus = data.draw(st.sampled_from(CATEGORIES))
        players.append({"bookshelf": shelf, "focus": focus, "hand": data.draw(st.integers(0, 5))})
    prominent, banned = data.draw(st.permutations(CATEGORIES))[:2]
    result = sc.inspect(players, prominent, banned)
    sheets = result["players"]
    for sheet in sheets:
        assert sheet["total"] == sum(sheet[line] for line in ("b1", "b2", "b3", "b4", "b5"))
        assert sheet["books"] == sum(sheet["counts"].values())
    points = sc.prominent_points([sheet["counts"][prominent] for sheet in sheets])
    assert [sheet["b2"] for sheet in sheets] == points

    def tie_key(s):
        return (s["total"], s["books"], -s["hand"], -s["banned_books"])

    for a, b in itertools.permutations(sheets, 2):
        if tie_key(a) > tie_key(b):
            assert a["place"] < b["place"]
        if tie_key(a) == tie_key(b):
            assert a["place"] == b["place"]
    for sheet in sheets:  # shared places skip: 1, 1, 3
        assert sheet["place"] == 1 + sum(tie_key(o) > tie_key(sheet) for o in sheets)
