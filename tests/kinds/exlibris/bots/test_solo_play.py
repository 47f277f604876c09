"""The Greedy in solo plays against the Public Library (X82-X85), which every card it lets go
feeds: the cards nobody takes off a tile at Resolution (X25), its hand at the end (X84), and
the Preparations' discards still to come (X83, X85). The Archivist's playouts and its worth of a
position are the Greedy's, so these shape both.

Hand-made positions are views of a real solo deal with the seat's part edited: the bots read
nothing else."""

import random

from games.kinds.exlibris import bots
from games.kinds.exlibris import engine as E
from games.kinds.exlibris.bots.valuation import CATEGORY_BOOKS, Outlook
from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine import scoring
from games.kinds.exlibris.engine.cards import CARDS


def solo_view(*, round_number=1, hand=(), pending=None, legal=None, shelf=None, difficulty=3):
    """The player's view of a real solo deal (X82) in `round_number`, edited."""
    state = E.new_game(1, seed=3, options={"difficulty": difficulty})
    view = E.view(state, 0)
    mine = view["seats"][0]
    mine.update(hand=list(hand), hand_size=len(hand))
    if shelf is not None:
        mine.update(bookshelf=shelf)
    view.update(round=round_number, final_round=round_number == view["solo"]["rounds"])
    if pending is not None:
        view.update(pending={"seat": 0, **pending}, legal_actions=legal)
    return view


def test_x25_x83_the_clean_up_removes_a_tile_whose_untaken_cards_feed_the_public_library():
    """The Bookshop gives more to whoever visits it than the Wishing Well, but two of the three
    cards it is dealt each Preparation go to the Public Library at Resolution: it goes first."""
    legal = [{"type": "remove_tile", "tile": tile} for tile in ("well", "bookshop")]
    view = solo_view(round_number=2, pending={"kind": "solo_remove"}, legal=legal)
    assert bots.choose("greedy", view, None, random.Random(0)) == legal[1]


def test_x84_a_hand_the_rounds_left_cannot_shelve_is_a_gift_to_the_public_library():
    """Early on, a card in hand is a shelving to come; with two rounds left and eight cards
    held, most of them will end in the Public Library, so a book-heavy one is worth less than
    nothing, and a card held in a small hand keeps its worth."""
    banned = solo_view()["banned"]
    heavy = [c for c in CARDS.values() if banned not in c.books and len(c.books) >= 3]
    card, others = heavy[0].id, [c.id for c in heavy[1:8]]
    early = Outlook(solo_view(round_number=1, hand=[card]), None, random.Random(0))
    crowded = Outlook(solo_view(round_number=4, hand=[card, *others]), None, random.Random(0))
    roomy = Outlook(solo_view(round_number=4, hand=[card]), None, random.Random(0))
    assert early.hand_value(card) > 0
    assert crowded.hand_value(card) < 0 < roomy.hand_value(card)


def test_x72_x83_the_prominent_contest_counts_the_discards_still_to_come():
    """A bookshelf with more Prominent books than the Public Library holds now (none) but
    fewer than twelve cards bring it on average wins B2 (X84) only once no Preparation is left
    to discard more into it: in round 1 of Professor difficulty, those twelve are still to come
    (X83, X85)."""
    prominent = solo_view()["prominent"]
    books = [c.id for c in CARDS.values() if c.books.count(prominent) >= 2]
    shelf = {
        bs.cell_key((0, i)): {"top": card, "up": True, "under": None}
        for i, card in enumerate(sorted(books[:4]))
    }
    mine = scoring.category_counts(shelf)[prominent]
    assert 0 < mine < 12 * CATEGORY_BOOKS
    for round_number, wins in ((1, False), (5, True)):
        view = solo_view(round_number=round_number, shelf=shelf)
        view["discard"] = []  # the library holds nothing yet
        outlook = Outlook(view, None, random.Random(0))
        assert (outlook.b2(mine) == scoring.SOLO_PROMINENT_POINTS) is wins
