"""The Ex Libris engine's core (spec §0, X86–X88): the library draft and the round, over the
contract of `games.engine.protocol`.

A state is one plain JSON dict (`State`, a dict with a `version` attribute; so
`loads(dumps(s)) == s` and a copy is a JSON round trip); `version` counts the moves applied.
It carries a stack of pending decisions (`pending`, the top last): the engine runs every step
that needs no choice (reveals, set-ups, draws, Resolution, Restoration, scoring) and stops at the
next decision (X86). Several-part choices are asked part by part (X87: which card, then which
cell) and resolve depth-first in rule order (X88). Chance comes only from the seed: the deal is
`setup.deal`, and every later shuffle (X19, X31) draws from a generator seeded by the seed and a
counter kept in the state, so `replay` rebuilds a game.

What this step covers: the library draft (X8) and the solo keep-1-of-2 (X82); the round of §4
(X18–X28: Preparation, Placement with slot gates, Resolution in tile order, Restoration and the
permanent row), deck exhaustion (X31), home actions (X22), the end trigger and round cap (X67,
X89), the solo rounds' frame (X83: hints, the difficulty's discards, the clean-up), the secret
simultaneous pre-scoring flip (X68), and `result` through `scoring.inspect` (X69–X76, X84).

Growing tables (the next steps fill them in):
- `EFFECTS`: the locations whose effect is implemented: the Diviner's Hut (X35), Ye Olde Book
  Swap (X36), the Bindery (X38), the Community Center (X39), the Wishing Well (X40), the Book
  Collector (X43), the Bon Mot Bookshop (X44), the Mysterious Cabin (X47, with its private look,
  X77), the Flea Market (X48) and the Shelfmasons Guild (X52). Each is asked as steps (X87): a
  tile card, a hand card to give, "one more card to discard, or done", a category, a run's first
  cell, last cell and destination; a shelving the effect allows follows as "a card it gave, or
  done", then the cell (X29). Placement offers only these tiles, so every game this engine plays
  is played by the rules it implements; the other tiles are still revealed, set up, resolved
  (their cards discarded) and made permanent as §4 says.
- `POWERS`: the special assistants whose power is implemented (none yet). A drafted library's
  special assistant stays off the board until its power lands: it is recorded on the seat but
  never joins the supply, rather than being placed as a powerless stand-in (a Snowman that does
  not block, a Sasquatch that goes anywhere) that would break the rules it seems to follow.
"""

import json
import pickle
import random
from collections.abc import Iterable, Iterator

from ..protocol import fold, last
from . import bookshelf as bs
from . import scoring
from .bookshelf import IllegalAction
from .cards import CARDS, CATEGORIES, LOCATIONS
from .setup import PLAYER_COUNTS, SOLO_ROUNDS, deal

__all__ = ["IllegalAction", "PLAYER_COUNTS", "VARIANTS", "OPTIONS", "EFFECTS", "POWERS"]

# The variant slugs (protocol: the default first). Ex Libris variants combine freely (X80), so a
# slug names a combination, its parts joined by "+" in this order.
VARIANT_PARTS = ("beginner", "friendly", "long")
VARIANTS = ("standard",) + tuple(
    "+".join(p for i, p in enumerate(VARIANT_PARTS) if mask >> i & 1) for mask in range(1, 8)
)
# X81: owner-wide powers (no power is implemented yet, so it changes nothing in this step).
OPTIONS = {"owner_wide_powers": False}
DEFAULT_SOLO_DIFFICULTY = 1  # options["difficulty"] in a solo game (X85); Initiate by default

HOME_SPACES = 3  # X5, X21: a library's home spaces
ROUND_CAP = 30  # X89: no trigger by the Restoration of round 30 makes round 31 the final one
HUT = "hut"

# Which rule each decision applies, for IllegalAction messages.
RULES = {
    "draft_take": "X8",
    "draft_remove": "X8",
    "solo_keep": "X82",
    "place": "X20-X21",
    "home": "X22",
    "take_tile_card": "X29",  # the effect's own rule is named too
    "shelve_card": "X29",
    "shelve_cell": "X14",
    "solo_remove": "X83",
    "flip": "X68",
    "swap_give": "X36",
    "community_give": "X39",
    "discard_card": "X30",  # the effect's own rule is named too (X38, X40, X43)
    "cabin_name": "X47",
    "cabin_take": "X47",
    "run_start": "X52",
    "run_end": "X52",
    "run_dest": "X52",
}


# ------------------------------------------------------------------------------ small helpers


class State(dict):
    """A game state: a plain JSON dict (equal to its `loads(dumps(·))`), with the `version`
    attribute the platform reads (protocol.py: the number of moves applied)."""

    __slots__ = ()

    @property
    def version(self) -> int:
        return self["version"]


def _copy(value):
    """A deep copy: the state is plain JSON, so a JSON round trip copies it exactly."""
    return json.loads(json.dumps(value))


def _rng(state: dict, purpose: str) -> random.Random:
    """The next random stream, from the stored seed and a counter only (X86)."""
    state["rng_draws"] += 1
    return random.Random(f"{state['setup']['seed']}/{purpose}/{state['rng_draws']}")


def _event(state: dict, kind: str, secret_to=None, secret=None, **public) -> None:
    """Record what this step did; `secret` fields are shown only to the seats in `secret_to`."""
    event = {"type": kind, **public}
    if secret is not None:
        event["secret_to"] = list(secret_to)
        event["secret"] = secret
    state["events"].append(event)


def _solo(state: dict) -> bool:
    return state["players"] == 1


def _number(tile: str) -> int:
    return LOCATIONS[tile].number


def _top(state: dict) -> dict | None:
    return state["pending"][-1] if state["pending"] else None


def _push(state: dict, kind: str, **fields) -> None:
    state["pending"].append({"kind": kind, **fields})


def _assistants(seat: dict) -> list[str]:
    """A seat's assistants that can be placed: its standard ones, and its special one once its
    power is implemented (`POWERS`)."""
    found = [f"standard-{i + 1}" for i in range(seat["standard_assistants"])]
    if seat["special_assistant"] in POWERS:
        found.append(seat["special_assistant"])
    return found


def _draw_card(state: dict) -> str | None:
    """X31: the deck's top card; an empty deck is first refilled from the shuffled discard pile
    in multiplayer (never in solo); None when no card can come."""
    if not state["deck"]:
        if _solo(state) or not state["discard"]:
            return None
        pile = list(state["discard"])
        _rng(state, "reshuffle").shuffle(pile)
        state["deck"], state["discard"] = pile, []
        _event(state, "deck_reshuffled", cards=len(pile))
    return state["deck"].pop(0)


def _draw(state: dict, seat: int, count: int, rule: str) -> list[str]:
    """Draw `count` cards into `seat`'s hand (X29: seen only by the drawer); the cards drawn
    (fewer when the deck and the discard pile run out, X31)."""
    drawn = []
    for _ in range(count):
        card = _draw_card(state)
        if card is None:
            break
        drawn.append(card)
    state["seats"][seat]["hand"] += drawn
    _event(state, "draw", seat=seat, count=len(drawn), rule=rule, secret_to=[seat], secret=drawn)
    return drawn


# ------------------------------------------------------------------------------ setup


def new_game(
    players: int,
    *,
    seed: int | str,
    variant: str = "standard",
    options: dict | None = None,
    first_player: int | None = None,
) -> dict:
    """The state after the deal (`setup.deal`, X6–X11, X78–X82): the library draft (X8), the
    solo choice (X82) or, for beginners (X78), round 1 straight away. `variant` is one of
    `VARIANTS`; `options` holds "owner_wide_powers" (X81) and, in solo, "difficulty" (X85)."""
    if variant not in VARIANTS:
        raise IllegalAction(f"X78-X80: unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS) - {"difficulty"})
    if unknown:
        raise IllegalAction(f"setup: unknown options {unknown}")
    if not isinstance(options.get("owner_wide_powers", False), bool):
        raise IllegalAction("X81: owner_wide_powers is on or off")
    chosen = options.get("owner_wide_powers", OPTIONS["owner_wide_powers"])
    parts = [] if variant == "standard" else variant.split("+")
    difficulty = None
    if players == 1:
        difficulty = options.get("difficulty", DEFAULT_SOLO_DIFFICULTY)
    elif "difficulty" in options:
        raise IllegalAction("X85: a difficulty is chosen only for a solo game")
    table = deal(
        players, seed=seed, variant=parts, solo_difficulty=difficulty, first_player=first_player
    )
    table_options = {"owner_wide_powers": chosen}
    if difficulty is not None:
        table_options["difficulty"] = difficulty
    seats = []
    for seat in table["seat_setup"]:
        seats.append(
            {
                **seat,
                "supply": [],
                "home": [],
                "set_aside": [],
                "placed_this_round": [],
            }
        )
    locations = table["locations"]
    state = State(
        {
            "version": 0,
            "setup": {
                "players": players,
                "seed": seed,
                "variant": variant,
                "options": table_options,
                "first_player": first_player,
            },
            "players": players,
            "variants": table["variants"],
            "options": table_options,
            "end_threshold": table["end_threshold"],
            "round": 0,
            "phase": "draft",
            "final_round": False,
            "end_trigger": None,
            "first_player": table["first_player"],  # the token's holder (X6, X28)
            "round_first": table["first_player"],  # who starts this round's Placement (X28)
            "turn": None,  # the seat that placed last this round
            "locations": {
                "face_up": list(locations["face_up"]),
                "permanent": list(locations["permanent"]),
                "deck": list(locations["deck"]),
                "discard": list(locations["discard"]),
                "removed": list(locations["removed"]),
                "solo_stack": list(locations.get("solo_stack", [])),
            },
            "tiles": {tile: _empty_tile(tile) for tile in locations["face_up"]},
            "libraries": {**table["libraries"], "declined": []},
            "draft_step": 0,
            "prominent": table["prominent"],
            "banned": table["banned"],
            "categories_out": table["categories_out"],
            "deck": table["deck"],
            "discard": table["discard"],
            "seats": seats,
            "solo": None,
            "pending": [],
            "pre_flips": [[] for _ in range(players)],
            "rng_draws": 0,
            "events": [],
        }
    )
    if "solo" in table:
        state["solo"] = {**table["solo"], "revealed_hints": []}
    if players == 1:
        _push(state, "solo_keep", seat=0)
    elif table["libraries"]["draft_order"]:
        _push(state, "draft_take", seat=table["libraries"]["draft_order"][0])
    else:  # X78: beginners hold a library's back: no draft
        state["phase"] = "round_start"
    _proceed(state)
    state["events"] = []
    return state


def _empty_tile(tile: str) -> dict:
    """A face-up tile: its book cards ({"card", "up"}) and one entry per slot (X4)."""
    return {"cards": [], "slots": [None] * len(LOCATIONS[tile].slot_gates)}


# ------------------------------------------------------------------------------ the flow


def _proceed(state: dict) -> None:
    """Run every step that needs no decision until one does or the game is over (X86)."""
    while not state["pending"] and state["phase"] != "over":
        phase = state["phase"]
        if phase == "round_start":
            _preparation(state)
            state["phase"] = "placement"
        elif phase == "placement":
            seat = _next_placer(state)
            if seat is not None:
                _push(state, "place", seat=seat)
                continue
            _resolution(state)
            if state["final_round"]:
                state["phase"] = "flip"  # X67: the final round stops after Resolution
                _push(state, "flip", seats=list(range(state["players"])))
            elif _solo(state):
                state["phase"] = "solo_restoration"
                _push(state, "solo_remove", seat=0, left=2)
            else:
                _restoration(state)
        elif phase == "solo_restoration":  # the two tiles are removed: finish it
            _solo_restoration(state)
        elif phase == "flip":  # every seat is done (X68): the inspection follows
            state["phase"] = "over"
            _event(state, "game_over", pre_flips=state["pre_flips"])
        else:  # pragma: no cover - a state this engine never builds
            raise ValueError(f"unknown phase {phase!r}")


def _preparation(state: dict) -> None:
    """X19 (multiplayer) or X83 (solo): a new round's tiles and their set-up cards."""
    state["round"] += 1
    state["round_first"] = state["first_player"]  # X28: the token's holder starts
    state["turn"] = None
    for seat in state["seats"]:
        seat["supply"] = _assistants(seat)
        seat["home"], seat["set_aside"], seat["placed_this_round"] = [], [], []
    _event(state, "round", round=state["round"])
    if _solo(state):
        solo = state["solo"]
        if state["round"] in (2, 4) and solo["hints"]:  # X83: reveal one hint, remove it
            hint = solo["hints"].pop(0)
            solo["revealed_hints"].append(hint)
            _event(state, "hint_revealed", category=hint)
        discarded = []
        for _ in range(solo["discard_per_preparation"]):  # X83, X85: no reshuffle in solo
            card = _draw_card(state)
            if card is None:
                break
            discarded.append(card)
        state["discard"] += discarded
        _event(state, "solo_discard", cards=discarded)
        if state["round"] == SOLO_ROUNDS:
            state["final_round"] = True
    else:
        wanted = state["players"] - (1 if state["round"] == 1 else 0)  # X19.1: the Hut is out
        revealed = []
        locations = state["locations"]
        for _ in range(wanted):
            if not locations["deck"]:
                if not locations["discard"]:
                    break  # X19: reveal what exists
                pile = list(locations["discard"])
                _rng(state, "locations").shuffle(pile)
                locations["deck"], locations["discard"] = pile, []
                _event(state, "location_deck_reshuffled", tiles=len(pile))
            tile = locations["deck"].pop(0)
            revealed.append(tile)
            locations["face_up"].append(tile)
            state["tiles"][tile] = _empty_tile(tile)
        locations["face_up"].sort(key=_number)
        _event(state, "tiles_revealed", tiles=revealed)
    # X19.2: every face-up tile is set up, permanent ones too, in ascending number.
    for tile in state["locations"]["face_up"]:
        location = LOCATIONS[tile]
        for _ in range(location.setup_count):
            card = _draw_card(state)
            if card is None:
                break
            state["tiles"][tile]["cards"].append({"card": card, "up": location.setup_face == "up"})


def _next_placer(state: dict) -> int | None:
    """X20: the next seat clockwise (from the round's first player) with an assistant in its
    supply; a seat with assistants but no legal placement sets them aside (solo only)."""
    players = state["players"]
    start = state["round_first"] if state["turn"] is None else (state["turn"] + 1) % players
    for i in range(players):
        seat = (start + i) % players
        record = state["seats"][seat]
        if not record["supply"]:
            continue
        if _placements(state, seat):
            return seat
        _event(state, "set_aside", seat=seat, assistants=list(record["supply"]))
        record["set_aside"] += record["supply"]
        record["supply"] = []
    return None


def _resolution(state: dict) -> None:
    """X25: every face-up tile in ascending number: (a) its delayed effect (none of the tiles
    placement offers is delayed yet), (b) its book cards to the discard pile, face up, (c) its
    assistants back to their owners."""
    for tile in state["locations"]["face_up"]:
        record = state["tiles"][tile]
        cards = [entry["card"] for entry in record["cards"]]
        state["discard"] += cards
        record["cards"] = []
        record.pop("looked", None)  # X47: the cards looked at are gone
        for i, holder in enumerate(record["slots"]):
            if holder is not None:
                state["seats"][holder["seat"]]["supply"].append(holder["assistant"])
                record["slots"][i] = None
        if cards:
            _event(state, "tile_cleared", tile=tile, cards=cards)


def _return_home_assistants(state: dict) -> None:
    for seat in state["seats"]:
        seat["supply"] += seat["home"]
        seat["home"] = []


def _restoration(state: dict) -> None:
    """X27: the lowest-numbered non-permanent tile becomes permanent, the others go to the
    location discard, home assistants return; then the end trigger (X67) and round cap (X89)."""
    locations = state["locations"]
    passing = [tile for tile in locations["face_up"] if tile not in locations["permanent"]]
    if passing:
        locations["permanent"].append(passing[0])
        locations["permanent"].sort(key=_number)
        for tile in passing[1:]:
            locations["face_up"].remove(tile)
            locations["discard"].append(tile)
            del state["tiles"][tile]
        _event(state, "restoration", permanent=passing[0], discarded=passing[1:])
    _return_home_assistants(state)
    triggered = [
        seat["seat"]
        for seat in state["seats"]
        if bs.shelved_count(seat["bookshelf"]) >= state["end_threshold"]
    ]
    if triggered:  # X67: the next round is the final one
        state["final_round"] = True
        state["end_trigger"] = {"round": state["round"], "by": triggered, "rule": "X67"}
        _event(state, "end_triggered", seats=triggered)
    elif state["round"] >= ROUND_CAP:  # X89
        state["final_round"] = True
        state["end_trigger"] = {"round": state["round"], "by": [], "rule": "X89"}
        _event(state, "round_cap")
    state["phase"] = "round_start"


def _solo_restoration(state: dict) -> None:
    """X83, after the two tiles are removed: turn up the solo stack's top tile (it joins the
    permanent row) and bring the home assistants back."""
    locations = state["locations"]
    if locations["solo_stack"]:
        tile = locations["solo_stack"].pop(0)
        locations["face_up"].append(tile)
        locations["face_up"].sort(key=_number)
        locations["permanent"].append(tile)
        locations["permanent"].sort(key=_number)
        state["tiles"][tile] = _empty_tile(tile)
        _event(state, "tiles_revealed", tiles=[tile])
    _return_home_assistants(state)
    state["phase"] = "round_start"


# ------------------------------------------------------------------------------ locations


def _hut(state: dict, seat: int) -> None:
    """X35: draw 1 card per distinct assistant of yours placed this round (this one included,
    home spaces too); take the first-player token, which counts from the next round (X28)."""
    count = len(state["seats"][seat]["placed_this_round"])
    _draw(state, seat, count, "X35")
    state["first_player"] = seat
    _event(state, "first_player", seat=seat)


def _take_from_tile(
    state: dict, seat: int, tile: str, rule: str, *, takes: int = 1, shelve: int = 1, then=None
) -> None:
    """X29: ask for `takes` cards of the tile one at a time (fewer if it runs out), then the
    shelving of up to `shelve` of them; `then` is the effect's last part ("swap_give": X36,
    "give": X39). Nothing when the tile is empty (X34)."""
    if state["tiles"][tile]["cards"]:
        _push(
            state,
            "take_tile_card",
            seat=seat,
            tile=tile,
            left=takes,
            taken=[],
            shelve=shelve,
            then=then,
            rule=rule,
        )


def _may_shelve(state: dict, seat: int, cards: list[str] | None, left: int, rule: str) -> None:
    """X29, X87: "you may shelve" up to `left` of `cards` (None: any hand card), asked only when
    one of them is in hand."""
    hand = state["seats"][seat]["hand"]
    if left > 0 and any(cards is None or card in cards for card in hand):
        _push(state, "shelve_card", seat=seat, cards=cards, left=left, rule=rule)


def _opponents(state: dict, seat: int) -> list[int]:
    """X33: every opponent, clockwise from the active player's left."""
    players = state["players"]
    return [(seat + k) % players for k in range(1, players)]


def _bookshop(state: dict, seat: int) -> None:
    """X44: take 1 card of the tile, then you may shelve it; nothing when it is empty (X34)."""
    _take_from_tile(state, seat, "bookshop", "X44")


def _swap(state: dict, seat: int) -> None:
    """X36: holding a card while the tile holds one, you must exchange: a tile card (your
    choice), then a hand card given face up onto the tile; you may shelve the card taken.
    No hand card or no tile card: nothing (X34)."""
    if state["seats"][seat]["hand"]:
        _take_from_tile(state, seat, "swap", "X36", then="swap_give")


def _community(state: dict, seat: int) -> None:
    """X39: take 1 card of the tile, you may shelve it; then, if cards remain, give one of them
    to an opponent of your choice (to hand, in plain sight, X77)."""
    _take_from_tile(state, seat, "community", "X39", then="give")


def _flea(state: dict, seat: int) -> None:
    """X48: take 1 card of the tile, or 2 when any assistant (yours included) was already here
    when this one arrived; you may shelve every card taken."""
    holders = [h for h in state["tiles"]["flea"]["slots"] if h is not None]
    takes = 2 if len(holders) > 1 else 1  # the newcomer holds one of the slots already
    _take_from_tile(state, seat, "flea", "X48", takes=takes, shelve=takes)


def _discard_loop(state: dict, seat: int, rule: str, then: str, *, shelf: bool) -> None:
    """X87: "discard any number of cards" as a loop: one more card (from hand, or with `shelf`
    a removable top card, X15) or done; `then` names what the effect does with the discards."""
    _push(state, "discard_card", seat=seat, shelf=shelf, discarded=[], then=then, rule=rule)
    if not _discard_options(state, seat):  # nothing to discard: straight to what follows
        _finish_discards(state, seat, state["pending"].pop())


def _bindery(state: dict, seat: int) -> None:
    """X38: discard 1 or more cards from hand and/or bookshelf; then you may shelve 1 or 2 cards
    from hand. Without a discard, no shelving; with nothing to discard, nothing (X34)."""
    record = state["seats"][seat]
    if record["hand"] or record["bookshelf"]:
        _discard_loop(state, seat, "X38", "bindery", shelf=True)


def _well(state: dict, seat: int) -> None:
    """X40: discard k >= 0 hand cards (X30: from hand only), draw k + 1; you may shelve 1 of the
    cards drawn."""
    _discard_loop(state, seat, "X40", "well", shelf=False)


def _collector(state: dict, seat: int) -> None:
    """X43: discard any cards from hand and/or bookshelf; draw half (rounded down) of their
    books whose category is on the wanted card; you may shelve up to 2 of the cards drawn."""
    record = state["seats"][seat]
    if record["hand"] or record["bookshelf"]:
        _discard_loop(state, seat, "X43", "collector", shelf=True)


def _wanted_categories(state: dict) -> set[str]:
    """X43: the categories on the Book Collector's face-up card (none when it is gone)."""
    cards = state["tiles"]["collector"]["cards"]
    return {book for entry in cards if entry["up"] for book in CARDS[entry["card"]].books}


def _finish_discards(state: dict, seat: int, top: dict) -> None:
    """What follows a discard loop (X38, X40, X43)."""
    discarded = top["discarded"]
    if top["then"] == "well":
        drawn = _draw(state, seat, len(discarded) + 1, "X40")
        _may_shelve(state, seat, drawn, 1, "X40")
    elif top["then"] == "bindery":
        if discarded:
            _may_shelve(state, seat, None, 2, "X38")
    elif top["then"] == "collector":
        wanted = _wanted_categories(state)
        books = sum(1 for card in discarded for book in CARDS[card].books if book in wanted)
        _event(state, "collector_count", seat=seat, books=books, rule="X43")
        drawn = _draw(state, seat, books // 2, "X43")
        _may_shelve(state, seat, drawn, 2, "X43")
    else:  # pragma: no cover - a state this engine never builds
        raise ValueError(f"unknown discard follow-up {top['then']!r}")


def _cabin(state: dict, seat: int) -> None:
    """X47: name a category, look privately at the face-down cards here, take any of those
    holding a book of it (shown), you may shelve 1 of them; no face-down card: nothing (X34)."""
    if any(not entry["up"] for entry in state["tiles"]["cabin"]["cards"]):
        _push(state, "cabin_name", seat=seat, rule="X47")


def _cabin_matches(state: dict, category: str) -> list[str]:
    return [
        entry["card"]
        for entry in state["tiles"]["cabin"]["cards"]
        if not entry["up"] and category in CARDS[entry["card"]].books
    ]


def _shelfmasons(state: dict, seat: int) -> None:
    """X52: you may move a run of your bookshelf (first cell or pass, last cell, destination,
    X87); a bookshelf with no movable run offers nothing (X34)."""
    starts = bs.run_starts(state["seats"][seat]["bookshelf"])
    if starts:  # each step's options are kept with it: the bookshelf cannot change meanwhile
        _push(state, "run_start", seat=seat, options=[list(c) for c in starts], rule="X52")


# The locations whose effect exists, by tile id; this table grows with the next steps, and
# placement offers no other tile (X21 as far as the engine implements the rules).
EFFECTS = {
    HUT: _hut,
    "swap": _swap,
    "bindery": _bindery,
    "community": _community,
    "well": _well,
    "collector": _collector,
    "bookshop": _bookshop,
    "cabin": _cabin,
    "flea": _flea,
    "shelfmasons": _shelfmasons,
}

# The special assistants whose power exists (X53-X65); none yet, see the module docstring.
POWERS: frozenset[str] = frozenset()


# ------------------------------------------------------------------------------ the protocol


def to_act(state: dict) -> list[int]:
    """X86: the seats that must answer now: one, or every unfinished seat during the pre-scoring
    flip (X68); [] exactly when the game is over."""
    top = _top(state)
    if top is None:
        return []
    if top["kind"] == "flip":
        return list(top["seats"])
    return [top["seat"]]


def _free_slot(state: dict, tile: str) -> int | None:
    """X21: the lowest-numbered free slot whose gate the player count reaches (X4)."""
    slots = state["tiles"][tile]["slots"]
    for number in LOCATIONS[tile].slots(state["players"]):
        if slots[number - 1] is None:
            return number
    return None


def _placements(state: dict, seat: int) -> list[dict]:
    """X21: every (assistant kind, target) the seat may place now."""
    record = state["seats"][seat]
    kinds = []
    if any(a.startswith("standard-") for a in record["supply"]):
        kinds.append("standard")
    if record["special_assistant"] in record["supply"]:
        kinds.append("special")
    actions = []
    for kind in kinds:
        for tile in state["locations"]["face_up"]:
            if tile not in EFFECTS or _free_slot(state, tile) is None:
                continue
            if kind == "special" and record["special_assistant"] == "ghost" and tile == HUT:
                continue  # X35, X60: the Ghost never comes to the Hut
            if _solo(state) and any(
                holder is not None and holder["seat"] == seat
                for holder in state["tiles"][tile]["slots"]
            ):
                continue  # X83: one of your assistants per location at a time
            actions.append({"type": "place", "assistant": kind, "target": tile})
        if len(record["home"]) < HOME_SPACES:
            actions.append({"type": "place", "assistant": kind, "target": "library"})
    return actions


def legal_actions(state: dict, seat) -> list[dict]:
    """X86: every action `seat` may take now; [] when it is not asked anything."""
    if seat not in to_act(state):
        return []
    top = _top(state)
    kind = top["kind"]
    record = state["seats"][seat]
    if kind == "draft_take":
        return [{"type": "take", "library": lib} for lib in state["libraries"]["pool"]]
    if kind == "draft_remove":
        return [{"type": "remove", "library": lib} for lib in state["libraries"]["pool"]]
    if kind == "solo_keep":
        return [{"type": "keep", "library": lib} for lib in state["libraries"]["pool"]]
    if kind == "place":
        return _placements(state, seat)
    if kind == "home":
        actions = [{"type": "draw"}]
        if record["hand"]:
            actions.append({"type": "shelve"})
        return actions + [{"type": "nothing"}]
    if kind == "take_tile_card":
        cards = [entry["card"] for entry in state["tiles"][top["tile"]]["cards"]]
        return [{"type": "take", "card": card} for card in cards]
    if kind == "swap_give":  # X36: a card held before the exchange
        return [{"type": "give", "card": c} for c in record["hand"] if c != top["taken"]]
    if kind == "community_give":  # X39: a remaining tile card, to an opponent
        return [
            {"type": "give", "card": entry["card"], "to": other}
            for entry in state["tiles"]["community"]["cards"]
            for other in _opponents(state, seat)
        ]
    if kind == "discard_card":
        return _discard_options(state, seat) + [{"type": "done"}]
    if kind == "cabin_name":
        return [{"type": "name", "category": category} for category in CATEGORIES]
    if kind == "cabin_take":
        cards = _cabin_matches(state, top["category"])
        return [{"type": "take", "card": card} for card in cards] + [{"type": "done"}]
    if kind == "run_start":  # X52: options computed when the step was pushed
        return [{"type": "run", "cell": cell} for cell in top["options"]] + [{"type": "pass"}]
    if kind == "run_end":
        return [{"type": "run_end", "cell": cell} for cell in top["options"]]
    if kind == "run_dest":
        return [{"type": "move", "cell": cell} for cell in top["options"]]
    if kind == "shelve_card":
        allowed = record["hand"] if top["cards"] is None else top["cards"]
        cards = [card for card in record["hand"] if card in allowed]
        return [{"type": "shelve", "card": card} for card in cards] + [{"type": "done"}]
    if kind == "shelve_cell":
        cells = bs.shelving_cells(record["bookshelf"])
        return [{"type": "cell", "cell": list(cell)} for cell in cells]
    if kind == "solo_remove":
        return [{"type": "remove_tile", "tile": t} for t in state["locations"]["face_up"]]
    if kind == "flip":
        chosen = state["pre_flips"][seat]
        actions = [
            {"type": "flip", "cell": list(cell)}
            for cell in bs.reading_order(record["bookshelf"])
            if bs.stack_at(record["bookshelf"], cell)["up"] and list(cell) not in chosen
        ]
        return actions + [{"type": "done"}]
    raise ValueError(f"unknown decision {kind!r}")  # pragma: no cover


def _discard_options(state: dict, seat: int) -> list[dict]:
    """X30, X15, X87: one more card to discard: any hand card and, where the effect names the
    bookshelf, any top card whose removal keeps it connected."""
    record = state["seats"][seat]
    top = _top(state)
    actions = [{"type": "discard", "card": card} for card in record["hand"]]
    if top["shelf"]:
        actions += [
            {"type": "discard_shelved", "cell": list(cell)}
            for cell in bs.removable_cells(record["bookshelf"])
        ]
    return actions


def apply_action(state: dict, seat, action) -> dict:
    """X86: the state after `seat` takes `action`; `state` is left unchanged. IllegalAction,
    naming the rule, for anything `legal_actions` does not list."""
    if state["phase"] == "over":
        raise IllegalAction("X67: the game is over")
    if seat not in to_act(state):
        raise IllegalAction(f"X86: seat {seat!r} is not asked anything now")
    top = _top(state)
    rule = RULES[top["kind"]]
    if top.get("rule") and top["rule"] != rule:
        rule = f"{top['rule']}, {rule}"  # the effect's rule, then the step's
    try:
        action = json.loads(json.dumps(action))
    except (TypeError, ValueError):
        raise IllegalAction(f"{rule}: an action is a small JSON object") from None
    if action not in legal_actions(state, seat):
        raise IllegalAction(f"{rule}: {action!r} is not a legal {top['kind']} action now")
    # A pickle round trip copies plain JSON data exactly as `_copy` does, in half the time (the
    # copy is most of a move's cost).
    new = State(pickle.loads(pickle.dumps(dict(state), pickle.HIGHEST_PROTOCOL)))
    new["events"] = []
    new["version"] += 1
    _DO[top["kind"]](new, seat, action)
    _proceed(new)
    return new


def _do_draft_take(state: dict, seat: int, action: dict) -> None:
    """X8: take a library from the pool; its special assistant comes with it (X9)."""
    lib = action["library"]
    state["libraries"]["pool"].remove(lib)
    state["seats"][seat]["library"] = {"id": lib, "side": "front"}
    state["seats"][seat]["special_assistant"] = lib
    _event(state, "library_taken", seat=seat, library=lib)
    state["pending"].pop()
    _push(state, "draft_remove", seat=seat)


def _do_draft_remove(state: dict, seat: int, action: dict) -> None:
    """X8: remove another library from the game; the next player (reverse turn order) drafts."""
    lib = action["library"]
    state["libraries"]["pool"].remove(lib)
    state["libraries"]["declined"].append(lib)
    _event(state, "library_removed", seat=seat, library=lib)
    state["pending"].pop()
    state["draft_step"] += 1
    order = state["libraries"]["draft_order"]
    if state["draft_step"] < len(order):
        _push(state, "draft_take", seat=order[state["draft_step"]])
    else:
        state["phase"] = "round_start"


def _do_solo_keep(state: dict, seat: int, action: dict) -> None:
    """X82.2: keep 1 of the 2 solo libraries offered; the other leaves the game."""
    lib = action["library"]
    pool = state["libraries"]["pool"]
    pool.remove(lib)
    state["libraries"]["declined"] += pool
    state["libraries"]["pool"] = []
    state["seats"][seat]["library"] = {"id": lib, "side": "front"}
    state["seats"][seat]["special_assistant"] = lib
    _event(state, "library_taken", seat=seat, library=lib)
    state["pending"].pop()
    state["phase"] = "round_start"


def _do_place(state: dict, seat: int, action: dict) -> None:
    """X20-X23: place one assistant from the supply; a standard one not yet placed this round
    when there is one (X21). On the library: the home action (X22); on a tile: its instant
    effect (X23 step 4)."""
    record = state["seats"][seat]
    if action["assistant"] == "special":
        assistant = record["special_assistant"]
    else:
        standard = [a for a in record["supply"] if a.startswith("standard-")]
        fresh = [a for a in standard if a not in record["placed_this_round"]]
        assistant = (fresh or standard)[0]
    record["supply"].remove(assistant)
    if assistant not in record["placed_this_round"]:
        record["placed_this_round"].append(assistant)
    state["turn"] = seat
    state["pending"].pop()
    target = action["target"]
    if target == "library":
        record["home"].append(assistant)
        _event(state, "placed", seat=seat, assistant=assistant, target="library")
        _push(state, "home", seat=seat, rule="X22")
        return
    slot = _free_slot(state, target)
    state["tiles"][target]["slots"][slot - 1] = {"seat": seat, "assistant": assistant}
    _event(state, "placed", seat=seat, assistant=assistant, target=target, slot=slot)
    EFFECTS[target](state, seat)


def _do_home(state: dict, seat: int, action: dict) -> None:
    """X22: draw 1 card, or shelve 1 card from hand (then which card and where), or nothing."""
    state["pending"].pop()
    if action["type"] == "draw":
        _draw(state, seat, 1, "X22")
    elif action["type"] == "shelve":
        _push(state, "shelve_card", seat=seat, cards=None, left=1, rule="X22")
    else:
        _event(state, "home_nothing", seat=seat)


def _do_take_tile_card(state: dict, seat: int, action: dict) -> None:
    """X29: take a tile card into hand (one more while the effect allows and the tile holds
    one); then, in the effect's order, the gift (X39: after the shelving; X36: before it) and
    the shelving of up to `shelve` of the cards taken."""
    top = state["pending"].pop()
    card = action["card"]
    tile = state["tiles"][top["tile"]]
    tile["cards"] = [entry for entry in tile["cards"] if entry["card"] != card]
    state["seats"][seat]["hand"].append(card)
    _event(state, "took", seat=seat, tile=top["tile"], card=card, rule=top["rule"])
    taken = top["taken"] + [card]
    if top["left"] > 1 and tile["cards"]:
        state["pending"].append({**top, "left": top["left"] - 1, "taken": taken})
        return
    if top["then"] == "give" and tile["cards"] and _opponents(state, seat):
        _push(state, "community_give", seat=seat, rule=top["rule"])
    _may_shelve(state, seat, taken, min(top["shelve"], len(taken)), top["rule"])
    if top["then"] == "swap_give":
        _push(state, "swap_give", seat=seat, taken=card, rule=top["rule"])


def _do_swap_give(state: dict, seat: int, action: dict) -> None:
    """X36: the card given lies face up on the tile for later visitors."""
    top = state["pending"].pop()
    card = action["card"]
    state["seats"][seat]["hand"].remove(card)
    state["tiles"]["swap"]["cards"].append({"card": card, "up": True})
    _event(state, "gave_to_tile", seat=seat, tile="swap", card=card, rule=top["rule"])


def _do_community_give(state: dict, seat: int, action: dict) -> None:
    """X39: a remaining tile card to an opponent's hand, in plain sight (X77); no shelving."""
    top = state["pending"].pop()
    card, other = action["card"], action["to"]
    tile = state["tiles"]["community"]
    tile["cards"] = [entry for entry in tile["cards"] if entry["card"] != card]
    state["seats"][other]["hand"].append(card)
    _event(state, "gave", seat=seat, to=other, card=card, tile="community", rule=top["rule"])


def _do_discard_card(state: dict, seat: int, action: dict) -> None:
    """X30: one more card to the discard pile, face up (a bookshelf's top card: X15, its under
    card stays face down); or done, and the effect goes on."""
    top = state["pending"].pop()
    if action["type"] == "done":
        _finish_discards(state, seat, top)
        return
    record = state["seats"][seat]
    if action["type"] == "discard":
        card = action["card"]
        record["hand"].remove(card)
        _event(state, "discarded", seat=seat, card=card, source="hand", rule=top["rule"])
    else:
        record["bookshelf"], card = bs.remove(record["bookshelf"], action["cell"])
        _event(
            state,
            "discarded",
            seat=seat,
            card=card,
            source="bookshelf",
            cell=action["cell"],
            rule=top["rule"],
        )
    state["discard"].append(card)
    top = {**top, "discarded": top["discarded"] + [card]}
    state["pending"].append(top)
    if not _discard_options(state, seat):
        _finish_discards(state, seat, state["pending"].pop())


def _do_cabin_name(state: dict, seat: int, action: dict) -> None:
    """X47: the category is named aloud; the visitor alone looks at the face-down cards."""
    top = state["pending"].pop()
    category = action["category"]
    tile = state["tiles"]["cabin"]
    looked = tile.setdefault("looked", [])
    if seat not in looked:
        looked.append(seat)
    _event(state, "named", seat=seat, tile="cabin", category=category, rule=top["rule"])
    seen = [entry["card"] for entry in tile["cards"] if not entry["up"]]
    _event(state, "looked", seat=seat, tile="cabin", secret_to=[seat], secret=seen)
    if _cabin_matches(state, category):
        _push(state, "cabin_take", seat=seat, category=category, taken=[], rule=top["rule"])


def _do_cabin_take(state: dict, seat: int, action: dict) -> None:
    """X47: take one more matching card, shown to all, or done; then you may shelve 1."""
    top = state["pending"].pop()
    taken = list(top["taken"])
    if action["type"] == "take":
        card = action["card"]
        tile = state["tiles"]["cabin"]
        tile["cards"] = [entry for entry in tile["cards"] if entry["card"] != card]
        state["seats"][seat]["hand"].append(card)
        _event(state, "took", seat=seat, tile="cabin", card=card, rule=top["rule"])
        taken.append(card)
        if _cabin_matches(state, top["category"]):
            state["pending"].append({**top, "taken": taken})
            return
    _may_shelve(state, seat, taken, 1, top["rule"])


def _do_run_start(state: dict, seat: int, action: dict) -> None:
    """X52: the run's first cell, or pass (the move may be declined)."""
    top = state["pending"].pop()
    if action["type"] == "run":
        start = action["cell"]
        ends = [list(c) for c in bs.run_ends(state["seats"][seat]["bookshelf"], start)]
        _push(state, "run_end", seat=seat, start=start, options=ends, rule=top["rule"])


def _do_run_end(state: dict, seat: int, action: dict) -> None:
    """X52: the run's last cell; then where it goes."""
    top = state["pending"].pop()
    start, end = top["start"], action["cell"]
    spots = bs.run_destinations(state["seats"][seat]["bookshelf"], start, end)
    options = [list(c) for c in spots]
    _push(state, "run_dest", seat=seat, start=start, end=end, options=options, rule=top["rule"])


def _do_run_dest(state: dict, seat: int, action: dict) -> None:
    """X52, X90.4: the run lands on the destination's consecutive cells, stacks and order kept."""
    top = state["pending"].pop()
    record = state["seats"][seat]
    record["bookshelf"] = bs.move_run(record["bookshelf"], top["start"], top["end"], action["cell"])
    _event(
        state,
        "run_moved",
        seat=seat,
        start=top["start"],
        end=top["end"],
        to=action["cell"],
        rule=top["rule"],
    )


def _do_shelve_card(state: dict, seat: int, action: dict) -> None:
    """X29, X87: one more card to shelve (then its cell), or done."""
    top = state["pending"].pop()
    if action["type"] == "done":
        return
    card = action["card"]
    left = top["left"] - 1
    if left > 0:  # X87: one more card is asked only while one is left to choose
        cards = None if top["cards"] is None else [c for c in top["cards"] if c != card]
        hand = [c for c in state["seats"][seat]["hand"] if c != card]
        if any(cards is None or c in cards for c in hand):
            _push(state, "shelve_card", seat=seat, cards=cards, left=left, rule=top["rule"])
    _push(state, "shelve_cell", seat=seat, card=card, rule=top["rule"])


def _do_shelve_cell(state: dict, seat: int, action: dict) -> None:
    """X14: the chosen card goes face up into the chosen cell."""
    top = state["pending"].pop()
    record = state["seats"][seat]
    record["bookshelf"] = bs.shelve(record["bookshelf"], top["card"], action["cell"])
    record["hand"].remove(top["card"])
    _event(state, "shelved", seat=seat, card=top["card"], cell=action["cell"], rule=top["rule"])


def _do_solo_remove(state: dict, seat: int, action: dict) -> None:
    """X83: remove a face-up tile from the game (twice per Restoration)."""
    top = state["pending"].pop()
    tile = action["tile"]
    locations = state["locations"]
    locations["face_up"].remove(tile)
    if tile in locations["permanent"]:
        locations["permanent"].remove(tile)
    locations["removed"].append(tile)
    del state["tiles"][tile]
    _event(state, "tile_removed", tile=tile)
    if top["left"] > 1 and locations["face_up"]:
        _push(state, "solo_remove", seat=seat, left=top["left"] - 1)


def _do_flip(state: dict, seat: int, action: dict) -> None:
    """X68: turn one more top card face down, or done; kept secret until every seat is done."""
    top = state["pending"][-1]
    if action["type"] == "flip":
        state["pre_flips"][seat].append(action["cell"])
        return
    top["seats"].remove(seat)
    _event(state, "flip_done", seat=seat)
    if not top["seats"]:
        state["pending"].pop()


_DO = {
    "draft_take": _do_draft_take,
    "draft_remove": _do_draft_remove,
    "solo_keep": _do_solo_keep,
    "place": _do_place,
    "home": _do_home,
    "take_tile_card": _do_take_tile_card,
    "shelve_card": _do_shelve_card,
    "shelve_cell": _do_shelve_cell,
    "solo_remove": _do_solo_remove,
    "flip": _do_flip,
    "swap_give": _do_swap_give,
    "community_give": _do_community_give,
    "discard_card": _do_discard_card,
    "cabin_name": _do_cabin_name,
    "cabin_take": _do_cabin_take,
    "run_start": _do_run_start,
    "run_end": _do_run_end,
    "run_dest": _do_run_dest,
}


# ------------------------------------------------------------------------------ views


def _visible_event(event: dict, seat) -> dict:
    if "secret" not in event:
        return dict(event)
    public = {k: v for k, v in event.items() if k not in ("secret", "secret_to")}
    if seat == "all" or seat in event["secret_to"]:
        public["secret"] = event["secret"]
    return public


def events_for(state: dict, seat) -> list[dict]:
    """What the last step did, as `seat` may see it (X77: a card drawn is its drawer's)."""
    return [_visible_event(event, seat) for event in state["events"]]


def _view_bookshelf(shelf: dict, owner: bool) -> dict:
    """X77: top cards are public; an under card only its owner knows (the Mummy may put a card
    straight under another), so others see only that there is one."""
    if owner:
        return _copy(shelf)
    return {
        key: {**stack, "under": None if stack["under"] is None else "hidden"}
        for key, stack in shelf.items()
    }


def view(state: dict, seat) -> dict:
    """X77, X86: all `seat` may know now (None: a spectator; "all": everything)."""
    acting = to_act(state)
    if seat == "all":
        everything = _copy(state)
        everything.update(
            seat="all", to_act=acting, events=events_for(state, "all"), legal_actions=[]
        )
        return everything
    over = state["phase"] == "over"
    top = _top(state)
    seats = []
    for record in state["seats"]:
        mine = record["seat"] == seat
        seats.append(
            {
                "seat": record["seat"],
                "colour": record["colour"],
                "library": record["library"],
                "special_assistant": record["special_assistant"],
                "standard_assistants": record["standard_assistants"],
                "supply": list(record["supply"]),
                "home": list(record["home"]),
                "set_aside": list(record["set_aside"]),
                "placed_this_round": list(record["placed_this_round"]),
                "bookshelf": _view_bookshelf(record["bookshelf"], mine or over),
                "shelved_count": bs.shelved_count(record["bookshelf"]),
                "hand": list(record["hand"]) if mine or over else None,
                "hand_size": len(record["hand"]),
                "focus": record["focus"] if mine or over else None,
                # X68: pre-flip choices stay secret until every seat is done.
                "pre_flips": _copy(state["pre_flips"][record["seat"]]) if mine or over else None,
            }
        )
    tiles = {}
    for tile, record in state["tiles"].items():
        looked = record.get("looked", [])  # X47, X77: who has seen the face-down cards here
        tiles[tile] = {
            "cards": [
                entry if entry["up"] or seat in looked else {"card": None, "up": False}
                for entry in record["cards"]
            ],
            "slots": _copy(record["slots"]),
            "looked": list(looked),
        }
    locations = state["locations"]
    libraries = state["libraries"]
    solo = None
    if state["solo"] is not None:
        s = state["solo"]
        solo = {
            "difficulty": s["difficulty"],
            "difficulty_name": s["difficulty_name"],
            "discard_per_preparation": s["discard_per_preparation"],
            "rounds": s["rounds"],
            "revealed_hints": list(s["revealed_hints"]),
            "hints": list(s["hints"]) if over else len(s["hints"]),
            "public_library_focus": s["public_library_focus"] if over else None,
        }
    pending = None
    if top is not None:
        pending = {"kind": top["kind"]}
        pending.update({k: _copy(v) for k, v in top.items() if k in ("seat", "seats")})
        if "card" in top and top["seat"] == seat:  # a hand card on its way: the owner's (X77)
            pending["card"] = top["card"]
        if top["kind"] == "take_tile_card":
            pending["tile"] = top["tile"]
        if top["kind"] in ("take_tile_card", "swap_give", "community_give", "discard_card"):
            pending["rule"] = top["rule"]
        if top["kind"] in ("run_end", "run_dest"):  # public: the bookshelf's top cards are
            pending.update({k: _copy(v) for k, v in top.items() if k in ("start", "end")})
    discard = state["discard"]
    return {
        "version": state["version"],
        "seat": seat,
        "to_act": acting,
        "legal_actions": legal_actions(state, seat) if seat in acting else [],
        "players": state["players"],
        "variants": list(state["variants"]),
        "options": dict(state["options"]),
        "round": state["round"],
        "phase": state["phase"],
        "final_round": state["final_round"],
        "end_trigger": _copy(state["end_trigger"]),
        "end_threshold": state["end_threshold"],
        "first_player": state["first_player"],
        "round_first": state["round_first"],
        "prominent": state["prominent"],
        "banned": state["banned"],
        "categories_out": len(state["categories_out"]),  # X77: unseen
        "deck": len(state["deck"]),  # X77: only its size
        # X30: the multiplayer discard pile is public; solo shows only its top card (X83).
        "discard": list(discard) if state["players"] > 1 or over else discard[-1:],
        "discard_size": len(discard),
        "locations": {
            "face_up": list(locations["face_up"]),
            "permanent": list(locations["permanent"]),
            "deck": len(locations["deck"]),
            "discard": list(locations["discard"]),
            "removed": list(locations["removed"]),
            "solo_stack": len(locations["solo_stack"]),
        },
        "tiles": tiles,
        "libraries": {
            "pool": list(libraries["pool"]),
            "draft_order": list(libraries["draft_order"]),
            "declined": list(libraries["declined"]),
            "removed": list(libraries["removed"]),
            "out": len(libraries["out"]),
        },
        "seats": seats,
        "solo": solo,
        "pending": pending,
        "events": events_for(state, seat),
    }


# ------------------------------------------------------------------------------ the end


def result(state: dict) -> dict:
    """The inspection (X68-X76; solo X84) once the game is over: "players" (seat, place, total),
    "winners", and the whole working from `scoring`."""
    if state["phase"] != "over":
        raise ValueError("result: the game is not over")
    entries = [
        {
            "bookshelf": seat["bookshelf"],
            "focus": seat["focus"],
            "hand": list(seat["hand"]),
            "pre_flips": state["pre_flips"][seat["seat"]],
        }
        for seat in state["seats"]
    ]
    if _solo(state):
        working = scoring.solo_inspection(
            entries[0],
            state["discard"],
            state["solo"]["public_library_focus"],
            state["prominent"],
            state["banned"],
        )
        wins = working["player_wins"]
        # X84: the player against the Public Library; places rank the seats (protocol), so the
        # one seat is placed 1, and a loss to the Public Library is no winner.
        return {
            "players": [{"seat": 0, "place": 1, "total": working["player"]["total"]}],
            "winners": [0] if wins else [],
            "solo": True,
            "inspection": working,
        }
    working = scoring.inspect(entries, state["prominent"], state["banned"])
    return {
        "players": [
            {"seat": sheet["seat"], "place": sheet["place"], "total": sheet["total"]}
            for sheet in working["players"]
        ],
        "winners": list(working["winners"]),
        "solo": False,
        "inspection": working,
    }


# ------------------------------------------------------------------------------ persistence


def dumps(state: dict) -> str:
    """The state as JSON text; `loads(dumps(s)) == s`."""
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> dict:
    state = json.loads(text)
    if not isinstance(state, dict) or "pending" not in state or "setup" not in state:
        raise ValueError("loads: not an Ex Libris state")
    return State(state)


def setup_of(state: dict) -> dict:
    """What `replay` and `steps` start this game from (the `new_game` arguments)."""
    return _copy(state["setup"])


def steps(setup: dict, moves: Iterable, *, resume: dict | None = None) -> Iterator[dict]:
    """The one fold over a move log: the deal, then the state after each (seat, action); with
    `resume`, only the states after it. IllegalAction at a refused move."""
    return fold(
        lambda: new_game(
            setup["players"],
            seed=setup["seed"],
            variant=setup.get("variant", "standard"),
            options=setup.get("options"),
            first_player=setup.get("first_player"),
        ),
        apply_action,
        moves,
        resume=resume,
    )


def replay(setup: dict, moves: Iterable) -> dict:
    """The state after `moves`; `replay(setup_of(s), log) == s`."""
    return last(steps(setup, moves))


def public_setup(setup: dict) -> dict:
    """The setup without the seed, which would recompute every hidden card."""
    return {key: value for key, value in setup.items() if key != "seed"}


def open_hands_view(states: list, step: int) -> dict:
    """A spectator's view of `states[step]`, with every hand and focus open once the last of
    `states` is over (X77: after the game, hands and foci are shown)."""
    state = states[step]
    seen = view(state, None)
    if states[-1]["phase"] == "over":  # more shown, under keys of its own
        seen["open_hands"] = [list(record["hand"]) for record in state["seats"]]
        seen["open_foci"] = [record["focus"] for record in state["seats"]]
    return seen


def redraw_hidden(state: dict, seat, rng: random.Random) -> dict:
    """`state` with what `seat` cannot know dealt anew (X77): the deck, the other seats' hands and
    face-down tile cards shuffled together and dealt back in the same sizes; the foci it does
    not hold and the categories out; the location deck's order; in solo, the hints and the
    Public Library's focus. `view(·, seat)` does not change."""
    new = State(_copy(state))
    # The seed decides every later shuffle (X31, X19), which nobody can know in advance.
    new["setup"]["seed"] = f"{state['setup']['seed']}/redrawn/{rng.random()}"
    if new["phase"] == "over":
        return new
    others = [r for r in new["seats"] if r["seat"] != seat]
    face_down = [  # X47: the face-down cards a seat has looked at stay as they are
        (tile, i)
        for tile in sorted(new["tiles"])
        if seat not in new["tiles"][tile].get("looked", [])
        for i, entry in enumerate(new["tiles"][tile]["cards"])
        if not entry["up"]
    ]
    pool = list(new["deck"]) + [c for r in others for c in r["hand"]]
    pool += [new["tiles"][tile]["cards"][i]["card"] for tile, i in face_down]
    rng.shuffle(pool)
    for record in others:
        size = len(record["hand"])
        record["hand"], pool = pool[:size], pool[size:]
    for tile, i in face_down:
        new["tiles"][tile]["cards"][i]["card"] = pool.pop()
    new["deck"] = pool
    categories = [r["focus"] for r in others] + list(new["categories_out"])
    if new["solo"] is not None:
        categories += list(new["solo"]["hints"]) + [new["solo"]["public_library_focus"]]
    rng.shuffle(categories)
    for record in others:
        record["focus"] = categories.pop()
    new["categories_out"] = [categories.pop() for _ in new["categories_out"]]
    if new["solo"] is not None:
        new["solo"]["hints"] = [categories.pop() for _ in new["solo"]["hints"]]
        new["solo"]["public_library_focus"] = categories.pop()
    rng.shuffle(new["locations"]["deck"])
    rng.shuffle(new["locations"]["solo_stack"])
    return new


def public_action(seat: int, action: dict, reader) -> dict:
    """A logged action as `reader` may know it once the game is over: every action of this step
    is public then (pre-flips are revealed by the inspection, X68)."""
    return dict(action)
