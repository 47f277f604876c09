"""The Greedy: every decision scored one step ahead with `valuation.Outlook`, best score played
(ties drawn at random).

- Shelving (X14, X29): a card goes to the free cell where its bookshelf is worth most; among the
  cards an effect lets it shelve, the one that gains most over keeping it in hand, or done.
- Taking (X29: Book Swap X36, Community Center X39, Bon Mot X44, Cabin X47, Flea Market X48): the
  card worth most, counting its shelving when that pays.
- Giving (X36, X39): the hand card worth least to it; the Community Center's gift goes where it
  adds the fewest face-up books.
- Discard loops (X38, X40, X43): one more card while that pays: for a draw at the Wishing Well,
  for the Book Collector's wanted books, and at the Bindery the one card its shelvings need.
- Naming a category (X47): the one whose matching cards are worth most.
- Placement (X20-X22): the target whose effect is worth most now, each tile estimated from its
  cards and the seat's hand and bookshelf; the library by its best home action.
- Shelfmasons Guild (X52): the run move that raises the bookshelf's worth most, or pass.
- Pre-scoring flip (X68): one more card face down while that raises its exact total.
- Solo clean-up (X83): the tiles it expects least from.
- Library draft (X8, X82): at random (no special assistant's power is played yet).
- Any other decision: actions that bring cards first, declining last, random among equals.
"""

import random
from typing import NamedTuple

from games.kinds.exlibris.engine import bookshelf as bs
from games.kinds.exlibris.engine import scoring, shelf_moves
from games.kinds.exlibris.engine.cards import CARDS, CATEGORIES, LOCATIONS

from .valuation import CATEGORY_SHARE, RANK, Outlook, spans, with_card

DECLINES = ("pass", "done", "stop", "nothing")
GAINS = ("take", "draw", "keep", "claim", "steal", "win")
LOSSES = ("give", "pay", "discard", "reveal")
EPSILON = 1e-9
ACT_OVER_DECLINE = 0.2  # an unknown action is preferred to declining by this much
UNKNOWN_TILE = 1.0  # a tile whose effect the Greedy does not know
SPECIAL_DELAY = 0.05  # keep the special assistant while a standard one does as well
TOKEN_WORTH = 0.3  # the first-player token (X28)
GIFT_COST = 0.3  # the Community Center's gift helps an opponent (X39)
WELL_SHELVING = 0.3  # the Wishing Well's shelving of a card drawn (X40)
RUN_TRIALS = 60  # Shelfmasons run moves tried per decision (X52), drawn at random beyond that
PLACEMENT_RUN_TRIALS = 12
RUN_DESTINATIONS = 6  # runs whose destinations are listed: one per this many trials


class CleanUpTile(NamedTuple):
    """Solo clean-up (X83), for one tile: what a visit tends to give over a round, when no card
    is on it yet, and how many of the cards dealt onto it at Preparation a visit takes off (the
    rest go to the Public Library at Resolution, X25, X84)."""

    gives: float
    takes: float = 0.0


CLEAN_UP_TILES = {
    "hut": CleanUpTile(2.0),
    "swap": CleanUpTile(1.5),  # an exchange: its dealt cards stay
    "bindery": CleanUpTile(1.5),
    "well": CleanUpTile(2.0),
    "collector": CleanUpTile(1.2),
    "bookshop": CleanUpTile(2.5, takes=1.0),
    "cabin": CleanUpTile(2.0, takes=1.5),
    "flea": CleanUpTile(2.5, takes=1.5),
    "community": CleanUpTile(2.0, takes=1.0),
    "shelfmasons": CleanUpTile(1.0),
}


def decide(view: dict, memory: dict | None, rng: random.Random, outlook_class=Outlook) -> dict:
    """The Greedy's action; `outlook_class` (an `Outlook`) values it: the Archivist's playouts
    pass a quicker one."""
    legal = view["legal_actions"]
    if len(legal) == 1:
        return legal[0]
    kind = (view["pending"] or {}).get("kind")
    if kind in RANDOM_KINDS:
        return rng.choice(legal)
    outlook = outlook_class(view, memory, rng)
    scorer = SCORERS.get(kind, generic_scores)
    return best(legal, scorer(outlook, legal), rng)


def best(legal: list[dict], scores: list[float], rng: random.Random) -> dict:
    top = max(scores)
    return rng.choice([a for a, s in zip(legal, scores, strict=True) if s >= top - EPSILON])


# ---------------------------------------------------------------------------- the generic rule


def generic_score(outlook: Outlook, action: dict) -> float:
    """An action of a kind the Greedy was not written for, read from its shape: a card coming
    in by its worth, a card going out (from hand or bookshelf) by its loss, a category by its
    books; an unknown change to the bookshelf below declining, any other action above it."""
    kind = action.get("type")
    card = action.get("card") if action.get("card") in CARDS else None
    if kind in DECLINES:
        return 0.0
    if kind == "shelve" and card is not None:
        kept = outlook.hand_value(card) if card in outlook.hand else 0.0
        return outlook.gain(card) - kept
    if kind in GAINS:
        return outlook.take_value(card)
    if kind in LOSSES or str(kind).endswith("_shelved"):
        if card in outlook.hand:
            return -outlook.hand_value(card)
        if "cell" in action and bs.stack_at(outlook.shelf, action["cell"]) is not None:
            return -removal_cost(outlook, action["cell"])
    if action.get("category") in CATEGORIES:
        return outlook.category_worth(action["category"])
    return -ACT_OVER_DECLINE if "cell" in action else ACT_OVER_DECLINE


def removal_cost(outlook: Outlook, cell) -> float:
    """What the bookshelf loses when its top card at `cell` leaves (X15)."""
    shelf, _ = bs.remove(outlook.shelf, cell)
    return outlook.base - outlook.value(shelf)


def generic_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    return [generic_score(outlook, action) for action in legal]


# ---------------------------------------------------------------------------- shelving


def shelve_card_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X29: shelve the card gaining most over keeping it, or done."""
    return [
        outlook.gain(a["card"]) - outlook.hand_value(a["card"])
        if a["type"] == "shelve"
        else generic_score(outlook, a)
        for a in legal
    ]


def shelve_cell_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X14: the free cell where the bookshelf is worth most with the card; a Mummy's stacking
    (X56) or a Wizard's push (X63) by the bookshelf it leaves."""
    card = outlook.view["pending"].get("card")
    return [
        generic_score(outlook, a) if card is None else cell_score(outlook, card, a) for a in legal
    ]


def cell_score(outlook: Outlook, card: str, action: dict) -> float:
    kind, cell = action.get("type"), action.get("cell")
    if cell is None:
        return generic_score(outlook, action)
    if kind == "cell":
        return outlook.value(with_card(outlook.kept, card, cell))
    if kind == "stack":
        return outlook.value(bs.shelve(outlook.shelf, card, cell, action["how"]))
    if kind == "push":
        return outlook.value(shelf_moves.push(outlook.shelf, card, cell, action["direction"]))
    return generic_score(outlook, action)


def home_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X22: draw, shelve the best hand card, or nothing."""
    return [home_score(outlook, a["type"]) for a in legal]


def home_score(outlook: Outlook, choice: str) -> float:
    if choice == "draw":
        return outlook.draw_value() if can_draw(outlook.view) else 0.0
    if choice == "shelve":
        return max((shelving_net(outlook, card) for card in outlook.hand), default=0.0)
    return 0.0


def shelving_net(outlook: Outlook, card: str) -> float:
    return outlook.gain(card) - outlook.hand_value(card)


def can_draw(view: dict) -> bool:
    """X31: a card can come from the deck, or in multiplayer from the reshuffled discards."""
    return view["deck"] > 0 or (view["players"] > 1 and view["discard_size"] > 0)


# ---------------------------------------------------------------------------- cards in and out


def take_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X29: the card worth most to take (and maybe shelve)."""
    return [
        outlook.take_value(a["card"]) if a["type"] == "take" else generic_score(outlook, a)
        for a in legal
    ]


def give_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X36: give the hand card worth least."""
    return [-outlook.hand_value(a["card"]) if a.get("card") in outlook.hand else 0.0 for a in legal]


def community_give_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X39: the gift that adds the fewest face-up books to its receiver's bookshelf."""
    seats = outlook.view["seats"]
    return [
        -books_added(seats[a["to"]]["bookshelf"], a["card"]) if a["type"] == "give" else 0.0
        for a in legal
    ]


def books_added(shelf: dict, card: str) -> int:
    """The books `card` would add face up to another seat's bookshelf: all of them if it keeps
    the alphabetical order in some free cell there (X69), else none."""
    rank = RANK[card]
    fits = any(low < rank < high for _, low, high in spans(scoring.alphabetical(shelf)[0]))
    return len(CARDS[card].books) if fits else 0


def discard_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X38, X40, X43: one more discard while it pays, else done."""
    rule = outlook.view["pending"].get("rule")
    if rule == "X40":
        return [well_discard(outlook, a) for a in legal]
    if rule == "X43":
        wanted = wanted_categories(outlook.view)
        return [collector_discard(outlook, a, wanted) for a in legal]
    if rule == "X38":
        started = any(
            event["type"] == "discarded" and event.get("seat") == outlook.me
            for event in outlook.view["events"]
        )
        return [bindery_discard(outlook, a, started) for a in legal]
    return generic_scores(outlook, legal)


def discard_cost(outlook: Outlook, action: dict) -> float | None:
    """What discarding this card loses (a hand card, or a bookshelf card, X15), with what it
    gives the Public Library in solo (X84); None when the action is not a discard."""
    if action["type"] == "discard":
        card = action["card"]
        return outlook.hand_value(card) + outlook.library_gain(card)
    if action["type"] == "discard_shelved":
        card = bs.stack_at(outlook.shelf, action["cell"])["top"]
        return removal_cost(outlook, action["cell"]) + outlook.library_gain(card)
    return None


def well_discard(outlook: Outlook, action: dict) -> float:
    """X40: each hand card discarded brings one more draw."""
    cost = discard_cost(outlook, action)
    return 0.0 if cost is None else outlook.draw_value() - cost


def wanted_categories(view: dict) -> set[str]:
    """X43: the categories on the Book Collector's face-up card."""
    tile = view["tiles"].get("collector", {"cards": []})
    return {
        book for entry in tile["cards"] if entry["up"] and entry["card"] for book in
        CARDS[entry["card"]].books
    }  # fmt: skip


def collector_discard(outlook: Outlook, action: dict, wanted: set[str]) -> float:
    """X43: every two wanted books discarded bring a draw."""
    cost = discard_cost(outlook, action)
    if cost is None:
        return 0.0
    card = action.get("card") or bs.stack_at(outlook.shelf, action["cell"])["top"]
    books = sum(book in wanted for book in CARDS[card].books)
    return books / 2 * outlook.draw_value() - cost


def bindery_discard(outlook: Outlook, action: dict, started: bool) -> float:
    """X38: the first discard buys up to two shelvings from hand; later ones only pay when
    the card is worth less than nothing."""
    cost = discard_cost(outlook, action)
    if cost is None:
        return 0.0
    if started:
        return -cost
    rest = [card for card in outlook.hand if card != action.get("card")]
    return bindery_shelvings(outlook, rest) - cost


def bindery_shelvings(outlook: Outlook, hand: list[str]) -> float:
    nets = sorted((max(0.0, shelving_net(outlook, card)) for card in hand), reverse=True)
    return sum(nets[:2])


def cabin_name_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X47: the category whose face-down cards are worth most, known or expected."""
    return [cabin_worth(outlook, a["category"]) for a in legal]


def cabin_worth(outlook: Outlook, category: str) -> float:
    worth = 0.0
    for entry in outlook.view["tiles"]["cabin"]["cards"]:
        if entry["up"]:
            continue
        if entry["card"] is None:  # not looked at (X77): a chance of a match
            worth += CATEGORY_SHARE[category] * outlook.draw_value()
        elif category in CARDS[entry["card"]].books:
            worth += outlook.take_value(entry["card"])
    return worth + 0.01 * outlook.category_worth(category)


# ---------------------------------------------------------------------------- Shelfmasons (X52)


def run_moves(outlook: Outlook, starts, end=None, trials: int = RUN_TRIALS) -> list:
    """(worth gained, start, end, destination) for run moves of the bookshelf (X52) from these
    first cells: every one when there are at most `trials`, else `trials` drawn at random among
    the destinations of a few runs drawn at random (listing destinations is the cost)."""
    shelf = outlook.shelf
    runs = []
    for first in map(tuple, starts):
        for last in [tuple(end)] if end is not None else run_lasts(shelf, first):
            runs.append((first, last))
    if end is None and len(runs) > trials // RUN_DESTINATIONS:
        runs = outlook.rng.sample(runs, max(1, trials // RUN_DESTINATIONS))
    moves = [(s, e, d) for s, e in runs for d in shelf_moves.run_destinations(shelf, s, e)]
    if len(moves) > trials:
        moves = outlook.rng.sample(moves, trials)
    return [(outlook.value(moved(shelf, s, e, d)) - outlook.base, s, e, d) for s, e, d in moves]


def run_lasts(shelf: dict, start: tuple) -> list[tuple]:
    """The last cells of the runs (X16) that start at `start`: the occupied cells right of it
    without a gap."""
    row, col = start
    lasts = []
    while bs.stack_at(shelf, (row, col)) is not None:
        lasts.append((row, col))
        col += 1
    return lasts


def moved(shelf: dict, start, end, dest) -> dict:
    """`shelf` with the run start..end moved to start at `dest` (one of its destinations)."""
    row, first = start
    length = end[1] - first + 1
    stacks = {key: stack for key, stack in shelf.items()}
    lifted = [stacks.pop(bs.cell_key((row, first + i))) for i in range(length)]
    for i, stack in enumerate(lifted):
        stacks[bs.cell_key((dest[0], dest[1] + i))] = stack
    return stacks


def run_start_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    best_by_start: dict[tuple, float] = {}
    starts = [a["cell"] for a in legal if a["type"] == "run"]
    for gain, start, _, _ in run_moves(outlook, starts):
        best_by_start[start] = max(gain, best_by_start.get(start, float("-inf")))
    return [
        best_by_start.get(tuple(a["cell"]), float("-inf")) if a["type"] == "run" else 0.0
        for a in legal
    ]


def run_end_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    start = tuple(outlook.view["pending"]["start"])
    best_by_end: dict[tuple, float] = {}
    trials = max(RUN_DESTINATIONS, RUN_TRIALS // len(legal))
    for a in legal:
        for gain, _, end, _ in run_moves(outlook, [start], a["cell"], trials):
            best_by_end[end] = max(gain, best_by_end.get(end, float("-inf")))
    return [best_by_end.get(tuple(a["cell"]), float("-inf")) for a in legal]


def run_dest_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    pending = outlook.view["pending"]
    start, end = tuple(pending["start"]), tuple(pending["end"])
    return [outlook.value(moved(outlook.shelf, start, end, a["cell"])) for a in legal]


# ---------------------------------------------------------------------------- placement


def place_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X20-X22: each target by what its effect is worth now."""
    worth = {}
    scores = []
    for action in legal:
        target = action.get("target")
        if target not in worth:
            worth[target] = target_worth(outlook, target)
        delay = SPECIAL_DELAY if action.get("assistant") == "special" else 0.0
        scores.append(worth[target] - delay)
    return scores


def target_worth(outlook: Outlook, target: str) -> float:
    if target == "library":
        return max(home_score(outlook, "draw"), home_score(outlook, "shelve"), 0.0)
    estimate = TILE_WORTH.get(target)
    return UNKNOWN_TILE if estimate is None else estimate(outlook)


def tile_cards(outlook: Outlook, tile: str) -> list[str]:
    """The face-up book cards on a tile."""
    return [e["card"] for e in outlook.view["tiles"][tile]["cards"] if e["up"] and e["card"]]


def best_takes(outlook: Outlook, cards: list[str], count: int) -> float:
    return sum(sorted((outlook.take_value(card) for card in cards), reverse=True)[:count])


def hut_worth(outlook: Outlook) -> float:
    """X35: one draw per distinct assistant placed this round, this one included; the token."""
    record = outlook.record
    placed = record["placed_this_round"]
    count = len(placed) + any(a not in placed for a in record["supply"])
    token = 0.0 if outlook.solo or outlook.view["first_player"] == outlook.me else TOKEN_WORTH
    draws = count * outlook.draw_value() if can_draw(outlook.view) else 0.0
    return draws + token


def swap_worth(outlook: Outlook) -> float:
    """X36: the best tile card for the hand card worth least."""
    cards = tile_cards(outlook, "swap")
    if not cards or not outlook.hand:
        return 0.0
    given = min(outlook.hand_value(card) for card in outlook.hand)
    return best_takes(outlook, cards, 1) - given


def bindery_worth(outlook: Outlook) -> float:
    """X38: the hand card worth least discarded for the two best shelvings of the rest."""
    if len(outlook.hand) < 2:
        return 0.0
    cheapest = min(outlook.hand, key=outlook.hand_value)
    rest = [card for card in outlook.hand if card != cheapest]
    return bindery_shelvings(outlook, rest) - outlook.hand_value(cheapest)


def community_worth(outlook: Outlook) -> float:
    """X39: the best card taken, then one given away."""
    cards = tile_cards(outlook, "community")
    if not cards:
        return 0.0
    return best_takes(outlook, cards, 1) - (GIFT_COST if len(cards) > 1 else 0.0)


def well_worth(outlook: Outlook) -> float:
    """X40: the hand cards worth less than a draw go, one more card than that comes."""
    if not can_draw(outlook.view):
        return 0.0
    draw = outlook.draw_value()
    losses = [value for value in map(outlook.hand_value, outlook.hand) if value < draw]
    return draw * (len(losses) + 1) - sum(losses) + WELL_SHELVING


def collector_worth(outlook: Outlook) -> float:
    """X43: hand cards whose wanted books buy more than they are worth, for a draw per two."""
    wanted = wanted_categories(outlook.view)
    if not wanted or not can_draw(outlook.view):
        return 0.0
    draw = outlook.draw_value()
    books, cost = 0, 0.0
    for card in outlook.hand:
        matching = sum(book in wanted for book in CARDS[card].books)
        value = outlook.hand_value(card)
        if matching * draw / 2 > value:
            books, cost = books + matching, cost + value
    return books // 2 * draw - cost


def bookshop_worth(outlook: Outlook) -> float:
    """X44: the best face-up card of the tile."""
    return best_takes(outlook, tile_cards(outlook, "bookshop"), 1)


def cabin_place_worth(outlook: Outlook) -> float:
    """X47: the best category's face-down cards."""
    if all(entry["up"] for entry in outlook.view["tiles"]["cabin"]["cards"]):
        return 0.0
    return max(cabin_worth(outlook, category) for category in CATEGORIES)


def flea_worth(outlook: Outlook) -> float:
    """X48: one card, or two when an assistant is already there."""
    takes = 2 if any(outlook.view["tiles"]["flea"]["slots"]) else 1
    return best_takes(outlook, tile_cards(outlook, "flea"), takes)


def shelfmasons_worth(outlook: Outlook) -> float:
    """X52: the best of a few run moves, or nothing."""
    if not outlook.shelf:
        return 0.0
    starts = [bs.parse_key(key) for key in outlook.shelf]
    gains = [gain for gain, *_ in run_moves(outlook, starts, trials=PLACEMENT_RUN_TRIALS)]
    return max([0.0, *gains])


TILE_WORTH = {
    "hut": hut_worth,
    "swap": swap_worth,
    "bindery": bindery_worth,
    "community": community_worth,
    "well": well_worth,
    "collector": collector_worth,
    "bookshop": bookshop_worth,
    "cabin": cabin_place_worth,
    "flea": flea_worth,
    "shelfmasons": shelfmasons_worth,
}


# ---------------------------------------------------------------------------- end and solo


def flip_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X68: turn one more card face down when that raises the exact total."""
    chosen = [tuple(cell) for cell in outlook.record["pre_flips"] or []]
    now = outlook.final_total(outlook.shelf, chosen)
    return [
        outlook.final_total(outlook.shelf, [*chosen, tuple(a["cell"])]) - now
        if a["type"] == "flip"
        else 0.0
        for a in legal
    ]


def solo_remove_scores(outlook: Outlook, legal: list[dict]) -> list[float]:
    """X83: remove the tiles expected to give least, less what the cards they are dealt and
    nobody takes would give the Public Library."""
    per_card = sum(map(outlook.library_gain, CARDS)) / len(CARDS)
    return [-tile_worth(a["tile"], per_card) for a in legal]


def tile_worth(tile: str, library_card: float) -> float:
    """What a tile gives its visitor over a round, less its untaken cards' worth to the
    Public Library (`library_card` each)."""
    known = CLEAN_UP_TILES.get(tile, CleanUpTile(UNKNOWN_TILE))
    left = LOCATIONS[tile].setup_count - known.takes
    return known.gives - max(0.0, left) * library_card


RANDOM_KINDS = ("draft_take", "draft_remove", "solo_keep")

SCORERS = {
    "place": place_scores,
    "home": home_scores,
    "take_tile_card": take_scores,
    "cabin_take": take_scores,
    "shelve_card": shelve_card_scores,
    "shelve_cell": shelve_cell_scores,
    "swap_give": give_scores,
    "community_give": community_give_scores,
    "discard_card": discard_scores,
    "cabin_name": cabin_name_scores,
    "run_start": run_start_scores,
    "run_end": run_end_scores,
    "run_dest": run_dest_scores,
    "flip": flip_scores,
    "solo_remove": solo_remove_scores,
}
