"""The inspection form (spec §10, X68–X76, X90.1–2; solo X84, X90.7): pure functions from the
final bookshelves to every line of the form, the whole working and the places.

Each line is its own function so that the engine, the end screen and tests can use them alone;
`inspect` and `solo_inspection` chain them in the form's order (pre-flips, A1, A2, B1 to B5,
total, tie-breaks). Kept apart from the round rules because it reads only bookshelves, the town
board's two categories, foci and hand sizes.
"""

from collections.abc import Sequence

from . import bookshelf as bs
from .bookshelf import IllegalAction
from .cards import CARDS, CATEGORIES, key

PLACE_VALUES = (15, 9, 4)  # X72: 1st, 2nd, 3rd; later places 0
SOLO_PROMINENT_POINTS = 15  # X84: no second place
DIVERSITY_POINTS = 3  # X74: per book of the scarcest non-Banned category
FOCUS_POINTS = 2  # X75: per book of one's focus
ENTOMBED_POINTS = 2  # X71, X56: per card under another
MIN_SIDE = 2  # X71: a rectangle is at least 2 wide and 2 high
TIE_BREAK_STEPS = ("total", "books", "hand", "banned")  # X76, X90.1, in this order


# ------------------------------------------------------------------------------- A1, A2


def alphabetical(shelf: dict) -> tuple[dict, list[bs.Cell]]:
    """A1 (X69): (the bookshelf after the check, the cells it turned face down).

    Walk in reading order (X17) keeping `last`, the key (letter, ordinal) of the last card left
    face up; skip face-down cards; a face-up card with a greater key stays up and becomes
    `last`, any other is turned face down. DECISION (A-15): compare with the last card left
    face up, not the card just before (the rulebook's pre-flip example needs it)."""
    last = None
    flipped = []
    for cell, stack in bs.stacks_in_reading_order(shelf):
        if not stack["up"]:
            continue
        card_key = key(stack["top"])
        if last is None or card_key > last:
            last = card_key
        else:
            flipped.append(cell)
    return bs.turn_down(shelf, flipped) if flipped else shelf, flipped


def book_counts(card_ids: Sequence[str]) -> dict[str, int]:
    """Books per category on these cards, every icon counted (a repeated icon counts twice, X3),
    in X2 order."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for card in card_ids:
        for category in CARDS[card].books:
            counts[category] += 1
    return counts


def category_counts(shelf: dict) -> dict[str, int]:
    """A2 (X70): books per category on face-up top cards; face-down and under cards count
    nothing. In X2 order."""
    return book_counts([stack["top"] for stack in shelf.values() if stack["up"]])


# ------------------------------------------------------------------------------- B1


def column_heights(shelf: dict) -> dict[int, int]:
    """X71: H(c) for every column whose bottom-row cell is occupied: the number of consecutive
    occupied cells going up from (bottom row, c); any card counts, a stack is one cell."""
    bottom = bs.bottom_row(shelf)
    taken = bs.occupied(shelf)
    heights = {}
    for row, col in taken:
        if row == bottom:
            height = 0
            while (bottom - height, col) in taken:
                height += 1
            heights[col] = height
    return dict(sorted(heights.items()))


def stability_working(shelf: dict) -> dict:
    """B1 (X71) with its working: the largest fully occupied rectangle standing on the bottom
    row, at least 2 × 2 (its columns, width, height, area; none gives 0), plus 2 points per
    entombed card. DECISION (A-16): it must stand on the bottom row."""
    heights = column_heights(shelf)
    best = {"columns": None, "width": 0, "height": 0, "rectangle": 0}
    # The best rectangle's height is the smallest H of its columns, so for each H value h it
    # is enough to try the widest stretches of consecutive columns at least h tall.
    for height in sorted({h for h in heights.values() if h >= MIN_SIDE}):
        tall = [col for col, h in heights.items() if h >= height]
        for first, last in bs.stretches(tall):
            width = last - first + 1
            if width >= MIN_SIDE and width * height > best["rectangle"]:
                best = {
                    "columns": [first, last],
                    "width": width,
                    "height": height,
                    "rectangle": width * height,
                }
    entombed = bs.entombed_count(shelf)
    return {
        "heights": {str(col): h for col, h in heights.items()},  # str keys: JSON-stable
        **best,
        "entombed": entombed,
        "points": best["rectangle"] + ENTOMBED_POINTS * entombed,
    }


def stability(shelf: dict) -> int:
    """B1 (X71): the stability points (rectangle + 2 per entombed card)."""
    return stability_working(shelf)["points"]


# ------------------------------------------------------------------------------- B2 to B5


def prominent_places(prominent_books: Sequence[int]) -> list[tuple[int | None, int]]:
    """B2 (X72): (place, points) per player from their face-up Prominent books p.

    Players with p >= 1 are ranked, p highest first; a group of k tied players on places i to
    i + k - 1 shares the sum of those places' values (15, 9, 4, then 0), each getting the sum
    divided by k rounded up; the next group starts at place i + k. DECISION (A-17): p = 0 scores
    nothing and has no place."""
    result: list[tuple[int | None, int]] = [(None, 0)] * len(prominent_books)
    place = 1
    for books in sorted({p for p in prominent_books if p >= 1}, reverse=True):
        group = [seat for seat, p in enumerate(prominent_books) if p == books]
        shared = sum(PLACE_VALUES[i - 1] for i in range(place, place + len(group)) if i <= 3)
        share = -(-shared // len(group))  # rounded up
        for seat in group:
            result[seat] = (place, share)
        place += len(group)
    return result


def prominent_points(prominent_books: Sequence[int]) -> list[int]:
    """B2 (X72): the points of each player, from their face-up Prominent books."""
    return [points for _, points in prominent_places(prominent_books)]


def banned_points(counts: dict[str, int], banned: str) -> int:
    """B3 (X73): -1 per face-up Banned book."""
    return -counts[banned]


def diversity(counts: dict[str, int], banned: str) -> int:
    """B4 (X74): 3 × the smallest count among the five non-Banned categories, Prominent and the
    focus included; 0 when one is missing. DECISION (A-18): only Banned is left out."""
    return DIVERSITY_POINTS * min(n for category, n in counts.items() if category != banned)


def scarcest(counts: dict[str, int], banned: str) -> list[str]:
    """The non-Banned categories B4 (X74) is counted on: those with the smallest count."""
    smallest = min(n for category, n in counts.items() if category != banned)
    return [category for category, n in counts.items() if category != banned and n == smallest]


def focus_points(counts: dict[str, int], focus: str) -> int:
    """B5 (X75): 2 per face-up book of one's focus."""
    return FOCUS_POINTS * counts[focus]


# ------------------------------------------------------------------------------- the form


def _check_category(category, what: str) -> None:
    if category not in CATEGORIES:
        raise IllegalAction(f"X2: {what} must be one of the six categories, not {category!r}")


def _check_cards(card_ids: Sequence[str], rule: str) -> None:
    unknown = [card for card in card_ids if card not in CARDS]
    if unknown:
        raise IllegalAction(f"{rule}: unknown cards {unknown}")
    if len(set(card_ids)) != len(card_ids):
        raise IllegalAction(f"X3: a card appears twice among {sorted(card_ids)}")


def _hand_size(hand) -> int:
    if isinstance(hand, int) and not isinstance(hand, bool) and hand >= 0:
        return hand
    if isinstance(hand, (list, tuple)):
        return len(hand)
    raise IllegalAction("X76: a hand is a list of cards or a number of cards")


def _bookshelf_lines(player: dict, banned: str) -> dict:
    """Pre-flips, A1, A2, B1, B3, B4, B5 of one player (B2 needs everyone: the caller adds it)."""
    shelf = player["bookshelf"]
    bs.check(shelf)
    _check_cards(bs.cards(shelf), "X3")
    focus = player["focus"]
    _check_category(focus, "a focus")
    pre_flips = [list(bs.as_cell(cell)) for cell in player.get("pre_flips", ())]
    if pre_flips:  # X68, X90.2: before A1; naming a face-down card is refused
        shelf = bs.turn_down(shelf, pre_flips)
    shelf, flips = alphabetical(shelf)
    counts = category_counts(shelf)
    working = stability_working(shelf)
    return {
        "focus": focus,
        "pre_flips": pre_flips,
        "a1_flips": [list(cell) for cell in flips],
        "a1_flipped_cards": [bs.stack_at(shelf, cell)["top"] for cell in flips],
        "bookshelf": shelf,
        "counts": counts,
        "books": sum(counts.values()),  # X76: face-up books after A1, Banned included
        "stability": working,
        "scarcest": scarcest(counts, banned),
        "b1": working["points"],
        "b3": banned_points(counts, banned),
        "b4": diversity(counts, banned),
        "b5": focus_points(counts, focus),
    }


def _deciding_step(upper: tuple, lower: tuple) -> str | None:
    for step, a, b in zip(TIE_BREAK_STEPS, upper, lower, strict=True):
        if a != b:
            return step
    return None


def inspect(players: list[dict], prominent: str, banned: str) -> dict:
    """The inspection (X68–X76) of every player, with the whole working and the places.

    Each player is `{"bookshelf": …, "focus": category, "hand": cards or their number,
    "pre_flips": [cells] (optional, X68)}`. Returns per seat: pre-flips, A1 flips (cells and
    cards), the bookshelf after A1, A2 counts, face-up books, B1 (with its rectangle), B2 (books,
    place, points), B3, B4, B5, total, place and the tie-break step that separated it from the
    next seat down; then the ranking, winners and whether the win is shared. Places (X76,
    X90.1): highest total, then most face-up books, fewest cards in hand, fewest face-up Banned
    books; seats equal on all of it share the place (1, 1, 3)."""
    _check_category(prominent, "Prominent")
    _check_category(banned, "Banned")
    if prominent == banned:
        raise IllegalAction("X10: Prominent and Banned are two different categories")
    if not players:
        raise IllegalAction("X1: an inspection needs at least one player")
    lines = [_bookshelf_lines(player, banned) for player in players]
    all_cards = [card for line in lines for card in bs.cards(line["bookshelf"])]
    _check_cards(all_cards, "X3")
    places = prominent_places([line["counts"][prominent] for line in lines])
    sheets = []
    for seat, (player, line, (b2_place, b2)) in enumerate(zip(players, lines, places, strict=True)):
        total = line["b1"] + b2 + line["b3"] + line["b4"] + line["b5"]
        sheets.append(
            {
                "seat": seat,
                **line,
                "hand": _hand_size(player.get("hand", 0)),
                "prominent_books": line["counts"][prominent],
                "b2_place": b2_place,
                "b2": b2,
                "banned_books": line["counts"][banned],
                "total": total,
            }
        )

    def tie_key(sheet: dict) -> tuple:
        return (sheet["total"], sheet["books"], -sheet["hand"], -sheet["banned_books"])

    ranking = sorted(range(len(sheets)), key=lambda seat: tie_key(sheets[seat]), reverse=True)
    place = 1
    for i, seat in enumerate(ranking):
        if i and tie_key(sheets[seat]) != tie_key(sheets[ranking[i - 1]]):
            place = i + 1
        sheets[seat]["place"] = place
        below = ranking[i + 1] if i + 1 < len(ranking) else None
        sheets[seat]["decided_by"] = (
            None if below is None else _deciding_step(tie_key(sheets[seat]), tie_key(sheets[below]))
        )
    winners = [seat for seat in ranking if sheets[seat]["place"] == 1]
    return {
        "prominent": prominent,
        "banned": banned,
        "players": sheets,
        "ranking": ranking,
        "winners": winners,
        "shared_win": len(winners) > 1,
    }


def solo_inspection(
    player: dict, public_library: Sequence[str], public_focus: str, prominent: str, banned: str
) -> dict:
    """The solo inspection (X84, X90.7).

    `player` as for `inspect`; its "hand", if any cards are left in it, is discarded into the
    Public Library first (X84). `public_library` is the whole discard pile, all face up. The
    player scores A1, A2, B1, B3, B4, B5 as usual; the Public Library scores A2, B3, B4 and B5
    with `public_focus`, never A1 or B1. B2: whoever has strictly more Prominent books scores 15,
    the Public Library winning ties; nobody scores it when neither has one (X90.7). The player
    wins only with a strictly higher total."""
    _check_category(prominent, "Prominent")
    _check_category(banned, "Banned")
    _check_category(public_focus, "the Public Library's focus")
    if prominent == banned:
        raise IllegalAction("X10: Prominent and Banned are two different categories")
    hand = player.get("hand", [])
    if not isinstance(hand, (list, tuple)):
        raise IllegalAction("X84: the solo player's hand is a list of cards (it is discarded)")
    library = [*public_library, *hand]
    _check_cards(library, "X84")
    mine = _bookshelf_lines(player, banned)
    _check_cards([*library, *bs.cards(mine["bookshelf"])], "X3")
    counts = book_counts(library)
    theirs = {
        "focus": public_focus,
        "cards": len(library),
        "counts": counts,
        "books": sum(counts.values()),
        "scarcest": scarcest(counts, banned),
        "b3": banned_points(counts, banned),
        "b4": diversity(counts, banned),
        "b5": focus_points(counts, public_focus),
    }
    p, q = mine["counts"][prominent], counts[prominent]
    mine_b2 = SOLO_PROMINENT_POINTS if p > q else 0
    theirs_b2 = SOLO_PROMINENT_POINTS if q >= p and q >= 1 else 0  # ties to the library
    mine.update(hand=0, prominent_books=p, banned_books=mine["counts"][banned], b2=mine_b2)
    mine["total"] = mine["b1"] + mine_b2 + mine["b3"] + mine["b4"] + mine["b5"]
    theirs.update(
        prominent_books=q,
        banned_books=counts[banned],
        b2=theirs_b2,
        total=theirs_b2 + theirs["b3"] + theirs["b4"] + theirs["b5"],
    )
    return {
        "prominent": prominent,
        "banned": banned,
        "player": mine,
        "public_library": theirs,
        "discarded_hand": list(hand),
        "player_wins": mine["total"] > theirs["total"],
    }
