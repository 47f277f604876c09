"""What the Greedy thinks a bookshelf, a card and a category are worth, from one seat's view.

A bookshelf is worth its lines of the inspection form (spec §10), computed by the engine's own
`scoring` functions on the bookshelf the view shows: A1 (cards out of alphabetical order are
lost), B1 stability, B2 Prominent (against the other bookshelves' face-up counts, or the Public
Library's in solo), B3 Banned, B4 diversity and B5 the seat's focus. Mid-game the form misses
what is still to come, so a little shaping is added: a share of the alphabet that still fits a
free cell without breaking the order (so cards are spread to leave room), a small worth per card
and book (more books feed B4 later), and part of the next B4 step. In the final round only the
form counts. In solo, a card also counts for what it would give the Public Library (X84): taking
it off a tile denies it, discarding it or ending with it in hand feeds it.
"""

import random
from bisect import bisect_left
from typing import NamedTuple

from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine import scoring
from games.kinds.exlibris.engine.cards import CARD_IDS, CARDS, CATEGORIES

from .memory import public_library

# A card's place in the whole alphabet (X3 order), from 0 to 1.
RANK = {card: i / (len(CARD_IDS) - 1) for i, card in enumerate(CARD_IDS)}

FLEXIBILITY = 5.0  # times the share of the alphabet some free cell still takes in order (A1)
CARD_WORTH = 0.5  # per card shelved (B1 and the end trigger, X67, grow with it)
BOOK_WORTH = 0.3  # per face-up book outside Banned (B4, B5 and B2 grow with books)
SCARCE_STEP = 0.6  # per non-Banned category above the scarcest one (half-way to the next B4 step)
PROMINENT_BOOK = 0.8  # per Prominent book, beyond the B2 place it earns now
HAND_BASE = 0.6  # a card kept in hand mid-game: a later shelving
HAND_SHARE = 0.4  # plus this share of what shelving it now would gain
FINAL_HAND = -0.05  # a card left in hand at the end: only a tie-break against it (X76)
LIBRARY_BOOK = 0.5  # solo: what a non-Banned book is worth to the Public Library (B4, B5, X84)
# Solo: hand cards each round left is counted on to shelve. The Greedy shelves about three a
# round, but with 3.5 it ended with four cards in hand and won half as often as with 1.0
# (solo games at difficulty 1; 0.5 won about as often, with a lower total).
SOLO_SHELVINGS = 1.0
DRAW_SAMPLES = 6  # unseen cards tried to price a blind draw
NEAREST_CELLS = 4  # cells tried for a card that keeps the order nowhere
MEMO_SIZE = 8192  # bookshelves (and cards on them) remembered across decisions; then forgotten


class Outlook:
    """One seat's position as its view shows it, with the values the Greedy decides on."""

    def __init__(self, view: dict, memory: dict | None, rng: random.Random):
        self.view, self.rng = view, rng
        self.me = view["seat"]
        record = view["seats"][self.me]
        self.record = record
        self.shelf = record["bookshelf"]
        self.hand = list(record["hand"] or [])
        self.focus = record["focus"]
        self.prominent, self.banned = view["prominent"], view["banned"]
        self.solo = view["players"] == 1
        self.final = view["final_round"]
        self.stuck = self._stuck_share(view) if self.solo and not self.final else 0.0
        if self.solo:
            library = public_library(view, memory)
            coming = solo_discards_left(view) * CATEGORY_BOOKS  # X83: Preparations still to come
            self.rival_prominent = [scoring.book_counts(library)[self.prominent] + round(coming)]
        else:
            self.rival_prominent = [
                shelf_facts(seat["bookshelf"]).counts[self.prominent]
                for seat in view["seats"]
                if seat["seat"] != self.me
            ]
        # Everything a bookshelf's worth depends on besides the bookshelf: values are
        # remembered under it, across decisions (a playout asks about the same ones often).
        self.context = (
            self.prominent, self.banned, self.focus, tuple(self.rival_prominent), self.solo,
            self.final,
        )  # fmt: skip
        self.signature = signature(self.shelf)
        self.base = self.value(self.shelf, self.signature)
        # A1 never turns a card back up when one is added (the last key kept only grows), so
        # its flips of this bookshelf can be made once for every shelving tried (X69).
        facts = shelf_facts(self.shelf, self.signature)
        self.kept = facts.kept
        self.spans = facts.spans
        self._gains: dict[str, tuple[float, tuple | None]] = {}
        self._draw_value: float | None = None

    # ---------------------------------------------------------------- the form, and shaping

    def b2(self, prominent_books: int) -> int:
        """X72 (solo X84): the Prominent points these books would earn against the rivals."""
        if self.solo:
            rival = self.rival_prominent[0]
            return scoring.SOLO_PROMINENT_POINTS if prominent_books > rival else 0
        return scoring.prominent_points([prominent_books, *self.rival_prominent])[0]

    def form_points(self, counts: dict) -> int:
        """B2 to B5 from A2's counts (X72-X75); remembered, as many bookshelves share counts."""
        memo_key = (self.context, *counts.values())
        points = _POINTS.get(memo_key)
        if points is None:
            points = (
                self.b2(counts[self.prominent])
                + scoring.banned_points(counts, self.banned)
                + scoring.diversity(counts, self.banned)
                + scoring.focus_points(counts, self.focus)
            )
            remember(_POINTS, memo_key, points)
        return points

    def counts_worth(self, counts: dict) -> float:
        """The form's B2-B5 plus, mid-game, the shaping for books still to come."""
        points = self.form_points(counts)
        if self.final:
            return points
        allowed = [n for category, n in counts.items() if category != self.banned]
        scarcest = min(allowed)
        return (
            points
            + BOOK_WORTH * sum(allowed)
            + SCARCE_STEP * sum(1 for n in allowed if n > scarcest)
            + PROMINENT_BOOK * counts[self.prominent]
        )

    def value(self, shelf: dict, shelf_signature: tuple | None = None) -> float:
        """A bookshelf's worth: its form after A1 (X69), plus mid-game shaping."""
        if shelf_signature is None:
            shelf_signature = signature(shelf)
        memo_key = (self.context, shelf_signature)
        worth = _VALUES.get(memo_key)
        if worth is None:
            facts = shelf_facts(shelf, shelf_signature)
            worth = facts.stability + self.counts_worth(facts.counts)
            if not self.final:
                worth += CARD_WORTH * len(shelf) + FLEXIBILITY * facts.flexibility
            remember(_VALUES, memo_key, worth)
        return worth

    def final_total(self, shelf: dict, flips) -> int:
        """X68-X75: the seat's total if the game ended now with these pre-flips."""
        for cell in flips:
            shelf = bs.flip_down(shelf, cell)
        facts = shelf_facts(shelf)
        return facts.stability + self.form_points(facts.counts)

    # ---------------------------------------------------------------- cards and categories

    def best_cell(self, card: str, shelf: dict | None = None) -> tuple[float, tuple | None]:
        """(what shelving `card` gains at its best free cell, that cell) on this bookshelf.

        Only the cells where it keeps the alphabetical order (X69) are tried, or when there is
        none the few whose neighbours' keys come nearest to its own."""
        if shelf is None:
            if card not in self._gains:
                memo_key = (self.context, self.signature, card)
                best = _BEST_CELLS.get(memo_key)
                if best is None:
                    best = self._best_cell(card, self.base, self.kept, self.spans)
                    remember(_BEST_CELLS, memo_key, best)
                self._gains[card] = best
            return self._gains[card]
        facts = shelf_facts(shelf)
        return self._best_cell(card, self.value(shelf), facts.kept, facts.spans)

    def _best_cell(self, card: str, base: float, target: dict, free: list) -> tuple:
        rank = RANK[card]
        cells = [cell for cell, low, high in free if low < rank < high]
        if not cells:
            nearest = sorted(free, key=lambda span: max(span[1] - rank, rank - span[2]))
            cells = [cell for cell, _, _ in nearest[:NEAREST_CELLS]]
        best = (float("-inf"), None)
        for cell in cells:
            gain = self.value(with_card(target, card, cell)) - base
            if gain > best[0]:
                best = (gain, cell)
        return best

    def gain(self, card: str) -> float:
        return self.best_cell(card)[0]

    def hand_value(self, card: str) -> float:
        """A card kept in hand: a later shelving mid-game; at the end, a small loss (in solo,
        what it gives the Public Library, X84)."""
        if self.final:
            return -self.library_gain(card) if self.solo else FINAL_HAND
        later = HAND_BASE + HAND_SHARE * max(0.0, self.gain(card))
        if self.stuck:
            return (1 - self.stuck) * later - self.stuck * self.library_gain(card)
        return later

    def _stuck_share(self, view: dict) -> float:
        """Solo: the share of a hand one card larger than this one that the rounds left will
        not shelve, about; those cards end in the Public Library (X84)."""
        rounds_left = view["solo"]["rounds"] - max(view["round"], 1) + 1
        held = len(self.hand) + 1
        return max(0.0, held - SOLO_SHELVINGS * rounds_left) / held

    def library_gain(self, card: str) -> float:
        """Solo: what the card gives the Public Library once discarded or left on a tile at
        Resolution (X25, X84): its books (B4, its unknown focus), less its Banned ones (B3)."""
        if not self.solo:
            return 0.0
        books = CARDS[card].books
        return LIBRARY_BOOK * sum(book != self.banned for book in books) - books.count(self.banned)

    def take_value(self, card: str | None, shelvable: bool = True) -> float:
        """A card coming to hand, shelved at once when the effect allows and it pays; in solo a
        card taken off a tile is one the Public Library will not get (X25)."""
        if card is None:
            return self.draw_value()
        kept = self.hand_value(card)
        return (max(kept, self.gain(card)) if shelvable else kept) + self.library_gain(card)

    draw_samples = DRAW_SAMPLES

    def draw_value(self) -> float:
        """A blind draw: the mean worth in hand of a few cards this seat has not seen."""
        if self._draw_value is None:
            unseen = sorted(set(CARD_IDS) - seen_cards(self.view))
            sample = self.rng.sample(unseen, min(self.draw_samples, len(unseen)))
            values = [self.hand_value(card) for card in sample]
            self._draw_value = sum(values) / len(values) if values else 0.0
        return self._draw_value

    def category_worth(self, category: str) -> float:
        """What one more face-up book of `category` adds to B2-B5 and their shaping."""
        counts = shelf_facts(self.shelf, self.signature).counts
        more = {**counts, category: counts[category] + 1}
        return self.counts_worth(more) - self.counts_worth(counts)


def with_card(shelf: dict, card: str, cell) -> dict:
    """`shelf` with `card` face up in the free cell `cell` (one of `bs.shelving_cells`)."""
    return {**shelf, bs.cell_key(cell): {"top": card, "up": True, "under": None}}


def spans(kept: dict, free: list | None = None) -> list[tuple[tuple, float, float]]:
    """(free cell, low, high) for every free cell of a bookshelf after A1 (`free`, its
    `bs.shelving_cells` when known): a card whose rank lies strictly between low and high keeps
    the alphabetical order there (X17, X69)."""
    order = sorted(
        (bs.parse_key(key), RANK[stack["top"]]) for key, stack in kept.items() if stack["up"]
    )
    up = [cell for cell, _ in order]
    ranks = [rank for _, rank in order]
    found = []
    for cell in bs.shelving_cells(kept) if free is None else free:
        i = bisect_left(up, cell)
        found.append((cell, ranks[i - 1] if i else 0.0, ranks[i] if i < len(ranks) else 1.0))
    return found


def flexibility(free: list[tuple[tuple, float, float]]) -> float:
    """The share of the alphabet (0 to 1) that some free cell takes in order, from the
    bookshelf's `spans`."""
    covered, reach = 0.0, 0.0
    for low, high in sorted((low, high) for _, low, high in free):
        low = max(low, reach)
        if high > low:
            covered += high - low
            reach = high
    return covered


# ---------------------------------------------------------------------------- remembered


class ShelfFacts(NamedTuple):
    """What the valuation reads of a bookshelf, whoever looks: after A1 (X69), its A2 counts,
    B1 points, free cells with their spans and the share of the alphabet they take."""

    kept: dict
    counts: dict
    stability: int
    spans: list
    flexibility: float


_FACTS: dict[tuple, ShelfFacts] = {}
_VALUES: dict[tuple, float] = {}
_BEST_CELLS: dict[tuple, tuple] = {}
_LAYOUTS: dict[tuple, tuple[int, list]] = {}
_POINTS: dict[tuple, int] = {}  # form_points by context and counts in X2 order


def signature(shelf: dict) -> tuple:
    """A bookshelf's content as a key: equal bookshelves built in the same order share it."""
    return tuple([(key, s["top"], s["up"], s["under"]) for key, s in shelf.items()])


def shelf_facts(shelf: dict, shelf_signature: tuple | None = None) -> ShelfFacts:
    if shelf_signature is None:
        shelf_signature = signature(shelf)
    facts = _FACTS.get(shelf_signature)
    if facts is None:
        kept, _ = scoring.alphabetical(shelf)
        stability, cells = layout_facts(kept)
        free = spans(kept, cells)
        counts = scoring.category_counts(kept)
        facts = ShelfFacts(kept, counts, stability, free, flexibility(free))
        remember(_FACTS, shelf_signature, facts)
    return facts


def layout_facts(shelf: dict) -> tuple[int, list]:
    """(B1 points, free cells) of a bookshelf: both read only which cells are taken and how
    many cards are entombed (X14, X71), so every card tried in one cell shares them."""
    memo_key = (tuple(shelf), bs.entombed_count(shelf))
    facts = _LAYOUTS.get(memo_key)
    if facts is None:
        facts = (scoring.stability(shelf), bs.shelving_cells(shelf))
        remember(_LAYOUTS, memo_key, facts)
    return facts


def remember(memo: dict, key: tuple, value) -> None:
    """Keep `value` under `key`, forgetting everything once the memo is full (a game's
    bookshelves soon stop coming back)."""
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[key] = value


def seen_cards(view: dict) -> set[str]:
    """Every card whose place this view shows: hands it may read, top cards, tiles, discards."""
    seen = set(view["discard"])
    for seat in view["seats"]:
        seen.update(seat["hand"] or ())
        for stack in seat["bookshelf"].values():
            seen.add(stack["top"])
            if stack["under"] not in (None, "hidden"):
                seen.add(stack["under"])
    for tile in view["tiles"].values():
        seen.update(entry["card"] for entry in tile["cards"] if entry["card"])
    return seen


def solo_discards_left(view: dict) -> int:
    """Solo: the cards the Preparations still to come will discard into the Public Library
    (X83, X85), from the deck as it stands."""
    solo = view["solo"]
    later = solo["rounds"] - max(view["round"], 1)
    return min(view["deck"], later * solo["discard_per_preparation"])


# The share of the deck's cards holding at least one book of each category (X3).
CATEGORY_SHARE = {
    category: sum(category in card.books for card in CARDS.values()) / len(CARDS)
    for category in CATEGORIES
}
# The books of one category on a card, on average (X3).
CATEGORY_BOOKS = sum(len(card.books) for card in CARDS.values()) / len(CARDS) / len(CATEGORIES)
