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

What it covers: the library draft (X8) and the solo keep-1-of-2 (X82); the round of §4
(X18–X28: Preparation, Placement with slot gates, Resolution in tile order, Restoration and the
permanent row), deck exhaustion (X31), home actions (X22), the end trigger and round cap (X67,
X89), the solo rounds' frame (X83: hints, the difficulty's discards, the clean-up), the secret
simultaneous pre-scoring flip (X68), and `result` through `scoring.inspect` (X69–X76, X84).

Its tables and the machinery around them (docs/exlibris.md has the whole reference):
- `EFFECTS`: every location's effect at arrival (X23 step 4), all 18 tiles (X35-X52); a delayed
  tile's (the Auction House X37, the Town Dump X45, the Friendly Tavern X46) does nothing then,
  its effect being in `DELAYED`, run at Resolution step (a) once per visit (X25, X26).
  Resolution keeps a cursor (`resolution`: tile, step, visit) so that it can stop for decisions
  and go on. Each effect is asked as steps (X87): a tile card, a hand card to give, "one more
  card, or done", a category, a bid, a run's first cell, last cell and destination, and so on;
  a shelving the effect allows follows as "a card it gave, or done", then the cell (X29). An
  effect that asks several players asks them one at a time in printed order (X88), and where an
  effect goes on after decisions it cannot see (the Yard Sale's draw-2-shelve-1 per card), it
  leaves a pending "then" entry under them, run by `_proceed` once they are answered.
- `POWERS`: the special assistants whose power is implemented, all 12 (X53-X65); a drafted
  special assistant joins its owner's supply only when its power is there (`_assistants`).
  Every arrival on a location, by placement, Ghost sharing or the Guild, goes through
  `_arrive` (X23): step 1 (the tile's placement rule: a lower bid or a displaced assistant goes
  home) at once, then steps 2 (the Cube, the Sasquatch already there, X66: in arrival order,
  each holder stamped with the `arrivals` counter), 3 (the newcomer's power) and 4 (the
  effect) as "then" entries, each run once the decisions of the step before are answered.
  Placement restrictions (Snowman, Sasquatch, Ghost) are `_may_enter`; a sharing Ghost is kept
  in the tile's "shared" list, and `_occupants` lists everyone on a tile. The Mummy, the Wizard
  and the Witch act on what their assistant drives (X53): `drivers` names the assistants whose
  arrival, home space or slot drive the effect under way (all of the Tavern's, X26), and
  `_power` says whether one of the three applies to a seat's shelving or acquisition (always,
  with the owner-wide option, X81). A shelving's cell step offers the Mummy's stackings or the
  Wizard's pushes; a card an effect gives goes through `_gained`, which queues the Witch's
  cards (`witch_queue`), settled by `_proceed` before the effect goes on (X64, X88). The Junk
  Golem takes its turn at Resolution step (b) (X62).
"""

import json
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from ..protocol import fold, last
from . import bookshelf as bs
from . import scoring
from .bookshelf import IllegalAction
from .cards import CARDS, CATEGORIES, LOCATIONS
from .setup import PLAYER_COUNTS, SOLO_ROUNDS, deal

__all__ = [
    "IllegalAction",
    "PLAYER_COUNTS",
    "VARIANTS",
    "OPTIONS",
    "EFFECTS",
    "POWERS",
    "DECISIONS",
]

# The variant slugs (protocol: the default first). Ex Libris variants combine freely (X80), so a
# slug names a combination, its parts joined by "+" in this order.
VARIANT_PARTS = ("beginner", "friendly", "long")
VARIANTS = ("standard",) + tuple(
    "+".join(p for i, p in enumerate(VARIANT_PARTS) if mask >> i & 1) for mask in range(1, 8)
)
# X81: owner-wide powers: the Mummy, the Wizard and the Witch act on every shelving or
# acquisition by their owner, not only on what their assistant drives (X53).
OPTIONS = {"owner_wide_powers": False}
DEFAULT_SOLO_DIFFICULTY = 1  # options["difficulty"] in a solo game (X85); Initiate by default

HOME_SPACES = 3  # X5, X21: a library's home spaces
ROUND_CAP = 30  # X89: no trigger by the Restoration of round 30 makes round 31 the final one
HUT = "hut"

# ------------------------------------------------------------------------------ the registries
# Each decision kind, each location's effect and each "then" step is registered by name where
# it is written (`decision`, `effect`, `delayed`, `then`), so that one place holds it whole.


@dataclass(frozen=True, slots=True)
class Decision:
    """One kind of decision (X86, X87): the rule it applies (named in refusals), what it offers
    (`choices(state, seat, top)`, `top` its pending entry), what an answer does
    (`effect(state, seat, action)`, which takes its entry off the stack), and the fields of its
    entry a view shows everyone (X77; the owner's own card aside, `view`)."""

    kind: str
    rule: str
    choices: Callable[[dict, int, dict], list[dict]]
    effect: Callable[[dict, int, dict], None]
    shown: tuple[str, ...] = ()


DECISIONS: dict[str, Decision] = {}
# X23 step 4: every location's effect at arrival, by tile id; a delayed tile's does nothing
# then, its effect being in DELAYED, run at Resolution step (a) once per visit (X25, X26).
EFFECTS: dict[str, Callable[[dict, int], None]] = {}
DELAYED: dict[str, Callable[[dict, int], None]] = {}
# The rest of an effect after the decisions it waits for (`_proceed`, pending kind "then").
THEN: dict[str, Callable[[dict, dict], None]] = {}


def decision(kind: str, *, rule: str, choices, shown: tuple[str, ...] = ()):
    """Register the decorated function as the effect of the decision `kind`."""

    def register(effect):
        DECISIONS[kind] = Decision(kind, rule, choices, effect, shown)
        return effect

    return register


def effect(tile: str):
    """Register the decorated function as `tile`'s effect at arrival (X23 step 4)."""

    def register(function):
        EFFECTS[tile] = function
        return function

    return register


def delayed(tile: str):
    """Register the decorated function as `tile`'s delayed effect (X25 (a)); its arrival does
    nothing (`_wait`)."""

    def register(function):
        EFFECTS[tile] = _wait
        DELAYED[tile] = function
        return function

    return register


def _wait(state: dict, seat: int) -> None:
    """X23 step 4 on a delayed tile: nothing yet, its effect waits for Resolution (X25)."""


def then(step: str):
    """Register the decorated function as the "then" step `step` (`_proceed`)."""

    def register(function):
        THEN[step] = function
        return function

    return register


# ------------------------------------------------------------------------------ small helpers


class State(dict):
    """A game state: a plain JSON dict (equal to its `loads(dumps(·))`), with the `version`
    attribute the platform reads (protocol.py: the number of moves applied).

    A move's state shares with the one before it every value the move leaves alone (copy on
    write, `_next_state`): a seat's record and a tile's record are copied the first time the
    move touches them (`_seat`, `_tile`), and the other values are either copied with every
    move or changed only by replacing them. Two attributes outside the dict, so that no JSON,
    equality or view ever sees them: `_own`, the seats and tiles copied for the move under way
    (empty once it is done, so that a later change copies first; unset: the state shares
    nothing, as after `new_game` or `loads`, and is changed in place), and `_legal`, the last
    `legal_actions` list and its seat, which `apply_action` checks an action against before
    listing them again."""

    __slots__ = ("_own", "_legal")

    @property
    def version(self) -> int:
        return self["version"]


def _copy(value):
    """A deep copy of plain JSON data (a tuple becomes a list, as a JSON round trip makes it)."""
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    if kind is list or kind is tuple:
        return [_copy(item) for item in value]
    if kind is dict or isinstance(value, dict):  # a State too: the copy is a plain dict
        return {key: _copy(item) for key, item in value.items()}
    return value


# The lists of strings a seat record holds; its other values are scalars, or values never
# changed in place (`_next_state`).
_SEAT_LISTS = ("hand", "supply", "home", "set_aside", "placed_this_round", "hidden_under")
# The lists a tile record may hold beside its cards and slots.
_TILE_EXTRAS = ("shared", "looked", "revealed")


def _next_state(state: dict) -> "State":
    """A new state for the next move to change, `state` staying as it is: copy on write. The
    copy is most of a move's cost, and a move changes one or two seats and tiles, so the new
    state starts with new top-level containers (the seats list, the tiles dict, the pending
    stack, the deck and discard pile, the Resolution cursor) holding `state`'s values; the
    move copies a seat or a tile record the first time it touches it (`_seat`, `_tile`). Every
    other value is shared, the engine only ever replacing it whole: the setup and options, the
    locations and libraries (`_locations`, `_libraries`), pending entries, pre-flips, the Witch's
    queue, the solo record, the end trigger, drivers, bookshelves and their stacks, a tile's
    card entries, slot holders and sharing Ghosts, a seat's library."""
    new = State(state)
    new._own = set()
    new["events"] = []
    new["pending"] = state["pending"][:]
    if state["resolution"] is not None:
        new["resolution"] = state["resolution"].copy()
    new["deck"] = state["deck"][:]
    new["discard"] = state["discard"][:]
    new["tiles"] = state["tiles"].copy()
    new["seats"] = state["seats"][:]
    return new


def _seat(state: dict, seat: int) -> dict:
    """`seat`'s record, this state's own to change (copied once per move, `_next_state`).
    Every change to a seat goes through here, and so does every read that a change could
    follow in the same function, so that no one holds the record the move left behind."""
    own = getattr(state, "_own", None)
    record = state["seats"][seat]
    if own is None or seat in own:
        return record
    own.add(seat)
    copied = state["seats"][seat] = record.copy()
    for key in _SEAT_LISTS:
        copied[key] = record[key][:]
    return copied


def _tile(state: dict, tile: str) -> dict:
    """`tile`'s record, this state's own to change, as `_seat` for a seat."""
    own = getattr(state, "_own", None)
    record = state["tiles"][tile]
    if own is None or tile in own:
        return record
    own.add(tile)
    copied = state["tiles"][tile] = record.copy()
    copied["cards"] = record["cards"][:]
    copied["slots"] = record["slots"][:]
    if len(record) > 2:  # more than its cards and slots
        for key in _TILE_EXTRAS:
            if key in record:
                copied[key] = record[key][:]
    return copied


def _new_tile(state: dict, tile: str) -> None:
    """A tile turned face up: an empty record, this state's own."""
    state["tiles"][tile] = _empty_tile(tile)
    own = getattr(state, "_own", None)
    if own is not None:
        own.add(tile)


def _locations(state: dict) -> dict:
    """The location lists, copied for a change (only Preparation, Restoration and the solo
    removal change them, once a round)."""
    locations = state["locations"] = {key: tiles[:] for key, tiles in state["locations"].items()}
    return locations


def _libraries(state: dict) -> dict:
    """The library lists, copied for a change (the draft only)."""
    libraries = state["libraries"] = {key: libs[:] for key, libs in state["libraries"].items()}
    return libraries


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
    if drawn:
        _seat(state, seat)["hand"] += drawn
    _event(state, "draw", seat=seat, count=len(drawn), rule=rule, secret_to=[seat], secret=drawn)
    _gained(state, seat, drawn)
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
                "hidden_under": [],  # X77: cards its Mummy put straight under another
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
            "resolution": None,  # X25: where Resolution goes on after a decision
            "drivers": [],  # X53: the assistants whose arrival or slot drive the effect
            "witch_queue": [],  # X64: cards a Witch-driven effect gave, awaiting the power
            "arrivals": 0,  # X23, X66: arrivals so far, to order the assistants on a tile
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
    """Run every step that needs no decision until one does or the game is over (X86). A
    pending entry of kind "then" is no decision but the rest of an effect, waiting below the
    decisions it follows (X88: depth-first): it runs once they are all answered."""
    pending = state["pending"]  # the same list all along (only a move, `_do_witch`, replaces it)
    while state["phase"] != "over":
        if state["witch_queue"]:
            _witch_flush(state)
        if pending:
            top = pending[-1]
            if top["kind"] != "then":
                return
            pending.pop()
            THEN[top["step"]](state, top)
            continue
        phase = state["phase"]
        if phase == "round_start":
            _preparation(state)
            state["phase"] = "placement"
        elif phase == "placement":
            seat = _next_placer(state)
            if seat is not None:
                _push(state, "place", seat=seat)
                continue
            state["phase"] = "resolution"
            state["resolution"] = {"index": 0, "step": "delayed", "visit": 0}
        elif phase == "resolution":
            if not _resolution(state):
                continue  # stopped for a decision: it comes back here once answered
            state["resolution"] = None
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
    for seat in range(state["players"]):
        record = _seat(state, seat)
        record["supply"] = _assistants(record)
        record["home"], record["set_aside"], record["placed_this_round"] = [], [], []
    _event(state, "round", round=state["round"])
    if _solo(state):
        solo = state["solo"]
        if state["round"] in (2, 4) and solo["hints"]:  # X83: reveal one hint, remove it
            hint = solo["hints"][0]
            revealed = [*solo["revealed_hints"], hint]
            solo = state["solo"] = {**solo, "hints": solo["hints"][1:], "revealed_hints": revealed}
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
        locations = _locations(state)
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
            _new_tile(state, tile)
        locations["face_up"].sort(key=_number)
        _event(state, "tiles_revealed", tiles=revealed)
    # X19.2 (A-11): every face-up tile is set up, permanent ones too, in ascending number.
    for tile in state["locations"]["face_up"]:
        location = LOCATIONS[tile]
        for _ in range(location.setup_count):
            card = _draw_card(state)
            if card is None:
                break
            _tile(state, tile)["cards"].append({"card": card, "up": location.setup_face == "up"})


def _next_placer(state: dict) -> int | None:
    """X20: the next seat clockwise (from the round's first player) with an assistant in its
    supply; a seat with assistants but no legal placement sets them aside (solo only)."""
    players = state["players"]
    start = state["round_first"] if state["turn"] is None else (state["turn"] + 1) % players
    for i in range(players):
        seat = (start + i) % players
        if not state["seats"][seat]["supply"]:
            continue
        if _may_place(state, seat):
            return seat
        record = _seat(state, seat)
        _event(state, "set_aside", seat=seat, assistants=list(record["supply"]))
        record["set_aside"] += record["supply"]
        record["supply"] = []
    return None


def _resolution(state: dict) -> bool:
    """X25: every face-up tile in ascending number: (a) its delayed effect, once per visit
    (X26); (b) its book cards to the discard pile, face up; (c) its assistants back to their
    owners. A visit may stop for decisions: the cursor `state["resolution"]` (tile index, step,
    visit) says where to go on, and this returns False; True once every tile is done."""
    cursor = state["resolution"]
    tiles = state["locations"]["face_up"]
    while cursor["index"] < len(tiles):
        tile = tiles[cursor["index"]]
        if cursor["step"] == "delayed":  # (a)
            seat = _delayed_visitor(state, tile, cursor["visit"])
            if seat is None:
                cursor["step"] = "leftovers"
            else:
                state["drivers"] = _visit_drivers(state, tile, cursor["visit"])
                cursor["visit"] += 1
                DELAYED[tile](state, seat)
        elif cursor["step"] == "leftovers" and _golem_turn(state, tile):  # (b): X62 first
            cursor["step"] = "discard"
        else:  # (b) the leftovers are discarded, then (c)
            _clear_tile(state, tile)
            cursor.update(index=cursor["index"] + 1, step="delayed", visit=0)
        if state["pending"]:
            return False
    return True


def _delayed_visitor(state: dict, tile: str, visit: int) -> int | None:
    """X26: the seat whose delayed visit number `visit` (from 0) is resolved at `tile` (the
    active player, X33), or None when there is no such visit: the Town Dump is visited once per
    assistant in slot order, the Auction House and the Friendly Tavern once, by the lowest
    occupied slot's owner (X37: there is at most one assistant; X46: the revealer)."""
    if tile not in DELAYED:
        return None
    holders = [holder["seat"] for holder in state["tiles"][tile]["slots"] if holder is not None]
    if tile != "dump" and visit > 0:
        return None
    return holders[visit] if visit < len(holders) else None


def _visit_drivers(state: dict, tile: str, visit: int) -> list[str]:
    """X53 (c): the assistants whose slots the delayed visit `visit` resolves: the Town Dump's
    visit is one slot's, the other delayed effects run once for all of their slots (X26)."""
    holders = [holder["assistant"] for holder in state["tiles"][tile]["slots"] if holder]
    return [holders[visit]] if tile == "dump" else holders


def _clear_tile(state: dict, tile: str) -> None:
    """X25 (b), (c): the tile's book cards go to the discard pile, face up; its assistants go
    back to their owners."""
    record = state["tiles"][tile]
    if (
        not record["cards"]
        and len(record) == 2
        and record["slots"].count(None) == len(record["slots"])
    ):
        return  # nothing on it (no cards, assistants, sharing Ghost or cards looked at)
    record = _tile(state, tile)
    cards = [entry["card"] for entry in record["cards"]]
    state["discard"] += cards
    record["cards"] = []
    record.pop("looked", None)  # X47: the cards looked at are gone
    for i, holder in enumerate(record["slots"]):
        if holder is not None:
            _seat(state, holder["seat"])["supply"].append(holder["assistant"])
            record["slots"][i] = None
    for entry in record.pop("shared", []):  # X60: a Ghost sharing a slot goes home too
        _seat(state, entry["seat"])["supply"].append(entry["assistant"])
    if cards:
        _event(state, "tile_cleared", tile=tile, cards=cards)


def _return_home_assistants(state: dict) -> None:
    for seat, record in enumerate(state["seats"]):
        if record["home"]:
            record = _seat(state, seat)
            record["supply"] += record["home"]
            record["home"] = []


def _restoration(state: dict) -> None:
    """X27: the lowest-numbered non-permanent tile becomes permanent, the others go to the
    location discard, home assistants return; then the end trigger (X67) and round cap (X89)."""
    locations = _locations(state)
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
    locations = _locations(state)
    if locations["solo_stack"]:
        tile = locations["solo_stack"].pop(0)
        locations["face_up"].append(tile)
        locations["face_up"].sort(key=_number)
        locations["permanent"].append(tile)
        locations["permanent"].sort(key=_number)
        _new_tile(state, tile)
        _event(state, "tiles_revealed", tiles=[tile])
    _return_home_assistants(state)
    state["phase"] = "round_start"


# ------------------------------------------------------------------------------ locations


@effect(HUT)
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
    if left > 0 and hand and (cards is None or not set(cards).isdisjoint(hand)):
        _push(state, "shelve_card", seat=seat, cards=cards, left=left, rule=rule)


def _opponents(state: dict, seat: int) -> list[int]:
    """X33: every opponent, clockwise from the active player's left."""
    players = state["players"]
    return [(seat + k) % players for k in range(1, players)]


@effect("bookshop")
def _bookshop(state: dict, seat: int) -> None:
    """X44: take 1 card of the tile, then you may shelve it; nothing when it is empty (X34)."""
    _take_from_tile(state, seat, "bookshop", "X44")


@effect("swap")
def _swap(state: dict, seat: int) -> None:
    """X36: holding a card while the tile holds one, you must exchange: a tile card (your
    choice), then a hand card given face up onto the tile; you may shelve the card taken.
    No hand card or no tile card: nothing (X34)."""
    if state["seats"][seat]["hand"]:
        _take_from_tile(state, seat, "swap", "X36", then="swap_give")


@effect("community")
def _community(state: dict, seat: int) -> None:
    """X39: take 1 card of the tile, you may shelve it; then, if cards remain, give one of them
    to an opponent of your choice (to hand, in plain sight, X77)."""
    _take_from_tile(state, seat, "community", "X39", then="give")


@effect("flea")
def _flea(state: dict, seat: int) -> None:
    """X48: take 1 card of the tile, or 2 when any assistant (yours included) was already here
    when this one arrived; you may shelve every card taken."""
    here = _occupants(state, "flea")  # X60: a Ghost sharing a slot finds its holder here
    takes = 2 if len(here) > 1 else 1  # the newcomer is one of them already
    _take_from_tile(state, seat, "flea", "X48", takes=takes, shelve=takes)


def _discard_loop(state: dict, seat: int, rule: str, then: str, *, shelf: bool) -> None:
    """X87: "discard any number of cards" as a loop: one more card (from hand, or with `shelf`
    a removable top card, X15) or done; `then` names what the effect does with the discards."""
    _push(state, "discard_card", seat=seat, shelf=shelf, discarded=[], then=then, rule=rule)
    if not _can_discard(state, seat):  # nothing to discard: straight to what follows
        _finish_discards(state, seat, state["pending"].pop())


@effect("bindery")
def _bindery(state: dict, seat: int) -> None:
    """X38: discard 1 or more cards from hand and/or bookshelf; then you may shelve 1 or 2 cards
    from hand. Without a discard, no shelving; with nothing to discard, nothing (X34)."""
    record = state["seats"][seat]
    if record["hand"] or record["bookshelf"]:
        _discard_loop(state, seat, "X38", "bindery", shelf=True)


@effect("well")
def _well(state: dict, seat: int) -> None:
    """X40: discard k >= 0 hand cards (X30: from hand only), draw k + 1; you may shelve 1 of the
    cards drawn."""
    _discard_loop(state, seat, "X40", "well", shelf=False)


@effect("collector")
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


@effect("cabin")
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


@effect("shelfmasons")
def _shelfmasons(state: dict, seat: int) -> None:
    """X52: you may move a run of your bookshelf (first cell or pass, last cell, destination,
    X87); a bookshelf with no movable run offers nothing (X34)."""
    starts = bs.run_starts(state["seats"][seat]["bookshelf"])
    if starts:  # each step's options are kept with it: the bookshelf cannot change meanwhile
        _push(state, "run_start", seat=seat, options=[list(c) for c in starts], rule="X52")


# ------------------------------------------------------------------------------ more locations
# Each tile's entry (called on arrival, or at Resolution for a delayed tile), then each of its
# decisions: what it offers, and the effect of an answer, registered together (`decision`).


def _seats_at(state: dict, tile: str) -> set[int]:
    """The seats with an assistant on `tile` (a sharing Ghost included, X60)."""
    return {entry["seat"] for entry in _occupants(state, tile)}


def _clockwise_from(state: dict, seat: int, seats: Iterable[int]) -> list[int]:
    """`seats` in turn order, starting with `seat` (X33)."""
    players = state["players"]
    return sorted(seats, key=lambda other: (other - seat) % players)


def _reveal(state: dict, count: int) -> list[str]:
    """Up to `count` cards off the deck, face up (X31: fewer when none can come)."""
    revealed = []
    for _ in range(count):
        card = _draw_card(state)
        if card is None:
            break
        revealed.append(card)
    return revealed


def _own_card_options(record: dict, kinds: tuple[str, str], exclude=()) -> list[dict]:
    """X15, X30: a card of one's own to give up, as actions of the two `kinds` (hand, bookshelf):
    a hand card (not one of `exclude`), or a top card whose removal keeps the bookshelf
    connected."""
    from_hand, from_shelf = kinds
    exclude = set(exclude)  # a long Tax Collector exchange excludes many cards from a long hand
    actions = [{"type": from_hand, "card": card} for card in record["hand"] if card not in exclude]
    actions += [
        {"type": from_shelf, "cell": list(cell)} for cell in bs.removable_cells(record["bookshelf"])
    ]
    return actions


def _give_up(state: dict, seat: int, action: dict) -> tuple[str, str]:
    """Take the card an action of `_own_card_options` names out of `seat`'s hand or bookshelf:
    (the card, where it was)."""
    record = _seat(state, seat)
    if "card" in action:
        record["hand"].remove(action["card"])
        return action["card"], "hand"
    record["bookshelf"], card = bs.remove(record["bookshelf"], action["cell"])
    return card, "bookshelf"


# 3 Auction House (X37)


@delayed("auction")
def _auction(state: dict, seat: int) -> None:
    """X37 at Resolution: with cards here, the bidder pays exactly the bid in hand cards, one
    at a time (their choice, compulsory), then takes every card here and may shelve any; a
    bidder holding fewer cards than the bid pays nothing and gets nothing (A-22)."""
    record = state["tiles"]["auction"]
    bid = next(n for n, holder in enumerate(record["slots"], start=1) if holder is not None)
    if not record["cards"]:
        return
    if len(state["seats"][seat]["hand"]) < bid:
        _event(state, "auction_unpaid", seat=seat, bid=bid, rule="X37")
        return
    _push(state, "auction_pay", seat=seat, left=bid, rule="X37")


def _auction_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "pay", "card": card} for card in state["seats"][seat]["hand"]]


@decision("auction_pay", rule="X37", choices=_auction_choices)
def _do_auction_pay(state: dict, seat: int, action: dict) -> None:
    """X37, X30: one more hand card to the discard pile, face up (X77: the payment is public);
    after the last, the bidder takes every card here and may shelve any of them."""
    top = state["pending"].pop()
    card = action["card"]
    _seat(state, seat)["hand"].remove(card)
    state["discard"].append(card)
    _event(state, "discarded", seat=seat, card=card, source="hand", rule="X37")
    if top["left"] > 1:
        state["pending"].append({**top, "left": top["left"] - 1})
        return
    record = _tile(state, "auction")
    won = [entry["card"] for entry in record["cards"]]
    record["cards"] = []
    _seat(state, seat)["hand"] += won
    _gained(state, seat, won)
    _event(state, "took", seat=seat, tile="auction", cards=won, rule="X37")
    _may_shelve(state, seat, won, len(won), "X37")


# 7 Gambling Den (X41)


@effect("den")
def _den(state: dict, seat: int) -> None:
    """X41: every arrival is a new contest: each player with an assistant here names a
    category, the active player first, then clockwise (X88); then the contest."""
    namers = _clockwise_from(state, seat, _seats_at(state, "den"))
    _push(state, "den_name", seat=namers[0], rest=namers[1:], names=[], rule="X41")


def _den_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "name", "category": category} for category in CATEGORIES]


@decision("den_name", rule="X41", choices=_den_choices, shown=("names",))
def _do_den_name(state: dict, seat: int, action: dict) -> None:
    """X41.1: a public name (a later namer may follow it, X88); after the last, the contest."""
    top = state["pending"].pop()
    names = top["names"] + [[seat, action["category"]]]
    _event(state, "named", seat=seat, tile="den", category=action["category"], rule="X41")
    if top["rest"]:
        rest = top["rest"]
        state["pending"].append({**top, "seat": rest[0], "rest": rest[1:], "names": names})
    else:
        _den_contest(state, names)


def _den_contest(state: dict, names: list[list]) -> None:
    """X41.2-5: reveal 4 cards; the name whose category shows most books wins, a tie going to
    the earliest namer (the active player, then clockwise); the winner takes the cards holding
    it, the others are discarded; the winner may shelve one per player here."""
    revealed = _reveal(state, 4)
    counts = [sum(CARDS[card].books.count(category) for card in revealed) for _, category in names]
    winner, category = names[counts.index(max(counts))]
    won = [card for card in revealed if category in CARDS[card].books]
    lost = [card for card in revealed if card not in won]
    if won:
        _seat(state, winner)["hand"] += won
    _gained(state, winner, won)
    state["discard"] += lost
    _event(
        state,
        "contest",
        tile="den",
        revealed=revealed,
        counts=counts,
        winner=winner,
        won=won,
        discarded=lost,
        rule="X41",
    )
    _may_shelve(state, winner, won, len(names), "X41")


# 8 Librarians Lodge (X42)


@effect("lodge")
def _lodge(state: dict, seat: int) -> None:
    """X42: (a) and (b) in the order you choose, each optional; nothing when neither can be
    done (X34)."""
    parts = [part for part in ("a", "b") if _lodge_part_possible(state, seat, part)]
    if parts:
        _push(state, "lodge_part", seat=seat, parts=parts, rule="X42")


def _lodge_movable(state: dict, seat: int) -> list[dict]:
    """X42 (a): your assistants on other locations (not the one just come to the Lodge),
    while a home space is free."""
    if len(state["seats"][seat]["home"]) >= HOME_SPACES:
        return []
    return [
        {"type": "move_home", "assistant": entry["assistant"], "tile": tile}
        for tile in state["locations"]["face_up"]
        if tile != "lodge"
        for entry in _occupants(state, tile)
        if entry["seat"] == seat
    ]


def _lodge_part_possible(state: dict, seat: int, part: str) -> bool:
    """Whether (a) or (b) can be done: (b) needs a card to exchange with a hand card, or two
    cards. Neither part can make the other impossible (a home action only adds a card to the
    hand or the bookshelf), so the answer holds until the other part is done."""
    if part == "a":
        return bool(_lodge_movable(state, seat))
    record = state["seats"][seat]
    cells = len(record["bookshelf"])
    return cells >= 2 or (cells == 1 and bool(record["hand"]))


def _lodge_part_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "part", "part": part} for part in top["parts"]] + [{"type": "done"}]


@decision("lodge_part", rule="X42", choices=_lodge_part_choices)
def _do_lodge_part(state: dict, seat: int, action: dict) -> None:
    """X42: the part chosen now; the other is offered again once it is done."""
    top = state["pending"].pop()
    if action["type"] == "done":
        return
    rest = [part for part in top["parts"] if part != action["part"]]
    if rest and _lodge_part_possible(state, seat, rest[0]):
        state["pending"].append({**top, "parts": rest})
    if action["part"] == "a":
        _push(state, "lodge_assistant", seat=seat, rule="X42")
    else:
        _push(state, "lodge_shelf", seat=seat, rule="X42")


def _lodge_assistant_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return _lodge_movable(state, seat)


@decision("lodge_assistant", rule="X42", choices=_lodge_assistant_choices)
def _do_lodge_assistant(state: dict, seat: int, action: dict) -> None:
    """X42 (a), X24: the assistant leaves its slot (its delayed effect is lost) for a free home
    space, where it stays until Restoration; no power triggers; then 1 home action."""
    state["pending"].pop()
    assistant, tile = action["assistant"], action["tile"]
    record = _tile(state, tile)
    mine = {"seat": seat, "assistant": assistant}
    for i, holder in enumerate(record["slots"]):
        if holder is not None and {k: holder[k] for k in mine} == mine:
            record["slots"][i] = None
    if "shared" in record:  # a Ghost sharing a slot (X60)
        record["shared"] = [e for e in record["shared"] if {k: e[k] for k in mine} != mine]
    _seat(state, seat)["home"].append(assistant)
    _event(state, "moved_home", seat=seat, assistant=assistant, tile=tile, rule="X42")
    _push(state, "home", seat=seat, rule="X42")


def _lodge_shelf_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X42 (b), X87: the kind and the cell first: exchange with a hand card, swap with another
    cell, or re-shelve (a card that can land somewhere else, by the Mummy's or the Wizard's
    power too when it drives the Lodge, X53)."""
    record = state["seats"][seat]
    shelf = record["bookshelf"]
    cells = [list(cell) for cell in bs.reading_order(shelf)]
    actions = []
    if record["hand"]:
        actions += [{"type": "exchange", "cell": cell} for cell in cells]
    if len(cells) >= 2:
        actions += [{"type": "swap", "cell": cell} for cell in cells]
    origins = bs.reshelve_origins(shelf, _lodge_power(state, seat))
    return actions + [{"type": "reshelve", "cell": list(cell)} for cell in origins]


def _lodge_power(state: dict, seat: int) -> str | None:
    """X42, X53: the re-shelving is a real shelving: the Mummy may stack it (X56), the Wizard
    push (X63), when it drives the Lodge's effect."""
    power = _power(state, seat)
    return power if power in SHELVING_POWERS else None


@decision("lodge_shelf", rule="X42", choices=_lodge_shelf_choices)
def _do_lodge_shelf(state: dict, seat: int, action: dict) -> None:
    """X42 (b): the second step follows: the hand card, the other cell, or the destination."""
    state["pending"].pop()
    kind = f"lodge_{action['type']}"
    power = _lodge_power(state, seat)
    _push(state, kind, seat=seat, cell=action["cell"], power=power, rule="X42")


def _lodge_second_choices(state: dict, seat: int, top: dict) -> list[dict]:
    record = state["seats"][seat]
    shelf = record["bookshelf"]
    if top["kind"] == "lodge_exchange":
        return [{"type": "give", "card": card} for card in record["hand"]]
    if top["kind"] == "lodge_swap":
        partners = bs.swap_partners(shelf, top["cell"])
        return [{"type": "swap_with", "cell": list(cell)} for cell in partners]
    origin = top["cell"]
    actions = [{"type": "cell", "cell": list(c)} for c in bs.reshelve_cells(shelf, origin)]
    if top["power"] == "mummy":  # X56, X90.5: on top of or under a single card (2n)
        actions += [
            {"type": "stack", "cell": list(cell), "how": how}
            for cell in bs.reshelve_stacking_cells(shelf, origin)
            for how in ("on", "under")
        ]
    elif top["power"] == "wizard":  # X63, X90.5: a push on the lifted bookshelf (4n)
        actions += [
            {"type": "push", "cell": list(cell), "direction": direction}
            for cell, direction in bs.reshelve_pushes(shelf, origin)
        ]
    return actions


@decision("lodge_exchange", rule="X42", choices=_lodge_second_choices, shown=("cell",))
def _do_lodge_exchange(state: dict, seat: int, action: dict) -> None:
    """X42 (b): the hand card takes the cell, face up (the under card stays entombed); the top
    card goes to hand. Both cards are public (X77: top cards are)."""
    top = state["pending"].pop()
    record = _seat(state, seat)
    record["bookshelf"], old = bs.swap_with_hand(record["bookshelf"], top["cell"], action["card"])
    record["hand"].remove(action["card"])
    record["hand"].append(old)
    _event(
        state, "exchanged", seat=seat, cell=top["cell"], card=action["card"], took=old, rule="X42"
    )


@decision("lodge_swap", rule="X42", choices=_lodge_second_choices, shown=("cell",))
def _do_lodge_swap(state: dict, seat: int, action: dict) -> None:
    """X42 (b): the top cards of two cells change places (not a shelving, X16)."""
    top = state["pending"].pop()
    record = _seat(state, seat)
    record["bookshelf"] = bs.swap_cells(record["bookshelf"], top["cell"], action["cell"])
    _event(state, "swapped", seat=seat, cells=[top["cell"], action["cell"]], rule="X42")


@decision("lodge_reshelve", rule="X42", choices=_lodge_second_choices, shown=("cell",))
def _do_lodge_reshelve(state: dict, seat: int, action: dict) -> None:
    """X42 (b), X90.5: the card is lifted and shelved again, face up, judged on the final
    bookshelf only (it may have bridged two parts); or stacked by the Mummy, or pushed in by the
    Wizard. The card was a public top card, so even put under it stays known (X77)."""
    top = state["pending"].pop()
    record = _seat(state, seat)
    shelf, origin, cell = record["bookshelf"], top["cell"], action["cell"]
    if action["type"] == "push":
        record["bookshelf"] = bs.reshelve_push(shelf, origin, cell, action["direction"])
        how = action["direction"]
    else:
        how = action.get("how")
        record["bookshelf"] = bs.reshelve(shelf, origin, cell, how)
    _event(state, "reshelved", seat=seat, origin=origin, cell=cell, how=how, rule="X42")


# 11 Town Dump (X45)


@delayed("dump")
def _dump(state: dict, seat: int) -> None:
    """X45, one visit (X26): name a category, then take a discarded card holding it, or none;
    an empty discard pile gives nothing (X34)."""
    if state["discard"]:
        _push(state, "dump_name", seat=seat, rule="X45")


def _dump_matches(state: dict, category: str) -> list[str]:
    return [card for card in state["discard"] if category in CARDS[card].books]


def _dump_name_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "name", "category": category} for category in CATEGORIES]


@decision("dump_name", rule="X45", choices=_dump_name_choices)
def _do_dump_name(state: dict, seat: int, action: dict) -> None:
    """X45: the name is public; the search is asked only when a card holds it (X87)."""
    state["pending"].pop()
    category = action["category"]
    _event(state, "named", seat=seat, tile="dump", category=category, rule="X45")
    if _dump_matches(state, category):
        _push(state, "dump_take", seat=seat, category=category, rule="X45")


def _dump_take_choices(state: dict, seat: int, top: dict) -> list[dict]:
    cards = _dump_matches(state, top["category"])
    return [{"type": "take", "card": card} for card in cards] + [{"type": "none"}]


@decision("dump_take", rule="X45", choices=_dump_take_choices, shown=("category",))
def _do_dump_take(state: dict, seat: int, action: dict) -> None:
    """X45: the card leaves the discard pile for the hand, in plain sight; you may shelve it."""
    state["pending"].pop()
    if action["type"] == "none":
        return
    card = action["card"]
    state["discard"].remove(card)
    _seat(state, seat)["hand"].append(card)
    _gained(state, seat, [card])
    _event(state, "took", seat=seat, tile="dump", card=card, source="discard", rule="X45")
    _may_shelve(state, seat, [card], 1, "X45")


# 12 Friendly Tavern (X46)


@delayed("tavern")
def _tavern(state: dict, seat: int) -> None:
    """X46, once for all: the lowest occupied slot's owner (`seat`) reveals 2 cards per
    assistant here, face up on the tile; the slots' owners pick in slot order, lap after lap."""
    order = [holder["seat"] for holder in state["tiles"]["tavern"]["slots"] if holder is not None]
    revealed = _reveal(state, 2 * len(order))
    _event(state, "revealed", seat=seat, tile="tavern", cards=revealed, rule="X46")
    if revealed:
        _tile(state, "tavern")["revealed"] = revealed
        taken = [[] for _ in range(state["players"])]
        _push(state, "tavern_pick", seat=order[0], order=order, turn=0, taken=taken, rule="X46")


def _tavern_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "take", "card": card} for card in state["tiles"]["tavern"]["revealed"]]


@decision("tavern_pick", rule="X46", choices=_tavern_choices)
def _do_tavern_pick(state: dict, seat: int, action: dict) -> None:
    """X46: one revealed card to hand, in plain sight; the next slot picks. Once none is left,
    each player, in the order of their first slot, may shelve any of the cards they took (one
    shelving turn each, review G6)."""
    top = state["pending"].pop()
    card = action["card"]
    tile = _tile(state, "tavern")
    tile["revealed"].remove(card)
    _seat(state, seat)["hand"].append(card)
    _gained(state, seat, [card])
    _event(state, "took", seat=seat, tile="tavern", card=card, rule="X46")
    taken = _copy(top["taken"])
    taken[seat].append(card)
    order, turn = top["order"], top["turn"] + 1
    if tile["revealed"]:
        state["pending"].append(
            {**top, "seat": order[turn % len(order)], "turn": turn, "taken": taken}
        )
        return
    del tile["revealed"]
    shelving = list(dict.fromkeys(order))
    for player in reversed(shelving):  # the stack answers the first player's shelving first
        _may_shelve(state, player, taken[player], len(taken[player]), "X46")


# 15 Assistants Guild (X49)


@effect("guild")
def _guild(state: dict, seat: int) -> None:
    """X49: move one of your assistants from a home space onto a slot held by an opponent;
    nothing without an assistant at home or such a slot (X34)."""
    if _guild_kinds(state, seat):
        _push(state, "guild_assistant", seat=seat, rule="X49")


def _guild_assistant(record: dict, kind: str) -> str:
    """The home assistant a kind names: the special one, or a standard one (interchangeable,
    X21)."""
    if kind == "special":
        return record["special_assistant"]
    return next(a for a in record["home"] if a.startswith("standard-"))


def _guild_kinds(state: dict, seat: int) -> list[str]:
    """X49: "standard" and "special", for each kind at home with a slot to go to."""
    record = state["seats"][seat]
    kinds = []
    if any(a.startswith("standard-") for a in record["home"]):
        kinds.append("standard")
    if record["special_assistant"] in record["home"]:
        kinds.append("special")
    return [kind for kind in kinds if _guild_slots(state, seat, _guild_assistant(record, kind))]


def _guild_slots(state: dict, seat: int, assistant: str) -> list[dict]:
    """X49: a slot an opponent's assistant holds, on a location other than the Guild: « un
    emplacement [...] déjà occupé par un Assistant adverse », whose owner takes it back; never a
    free slot, nor one of yours (one an opponent's Ghost shares included: the newcomer would
    replace your own holder). At the Auction House the newcomer takes over the held bid (A-10).
    The Snowman's block and the Sasquatch's restriction do not apply (X66), the Hut's ban on the
    Ghost does (X35)."""
    found = []
    for tile in state["locations"]["face_up"]:
        if tile == "guild" or (assistant == "ghost" and tile == HUT):
            continue
        slots = state["tiles"][tile]["slots"]
        for number in LOCATIONS[tile].slots(state["players"]):
            holder = slots[number - 1]
            if holder is not None and holder["seat"] != seat:
                found.append({"type": "slot", "tile": tile, "slot": number})
    return found


def _guild_assistant_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "assistant", "assistant": kind} for kind in _guild_kinds(state, seat)]


@decision("guild_assistant", rule="X49", choices=_guild_assistant_choices)
def _do_guild_assistant(state: dict, seat: int, action: dict) -> None:
    """X49, X87: which home assistant; then which slot."""
    state["pending"].pop()
    assistant = _guild_assistant(state["seats"][seat], action["assistant"])
    _push(state, "guild_slot", seat=seat, assistant=assistant, rule="X49")


def _guild_slot_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return _guild_slots(state, seat, top["assistant"])


@decision("guild_slot", rule="X49", choices=_guild_slot_choices)
def _do_guild_slot(state: dict, seat: int, action: dict) -> None:
    """X49: the home space is freed (the home action taken there stands); the assistant
    arrives on the slot (X23): the opponents there go back to their supplies (X24), then the
    tile's instant effect applies for you; on a delayed tile it holds the slot (at the Auction
    House, with its bid) until Resolution."""
    top = state["pending"].pop()
    _seat(state, seat)["home"].remove(top["assistant"])
    _event(state, "guild_move", seat=seat, assistant=top["assistant"], rule="X49")
    _arrive(state, seat, top["assistant"], action["tile"], action["slot"])


# 16 Tax Collector (X50)


@effect("tax")
def _tax(state: dict, seat: int) -> None:
    """X50 (1): each opponent, from your left, pays 1 card of their hand or bookshelf face up
    onto the tile (nothing without a card anywhere); then (2) your exchange."""
    _tax_next(state, seat, _opponents(state, seat))


def _tax_next(state: dict, active: int, rest: list[int]) -> None:
    """X50: the next opponent with a card to pay, or, after the last, the active player's
    exchange: one own card to the discard pile, then one tile card; again or done (X87)."""
    for k, other in enumerate(rest):
        record = state["seats"][other]
        if record["hand"] or record["bookshelf"]:
            _push(state, "tax_pay", seat=other, active=active, rest=rest[k + 1 :], rule="X50")
            return
    record = state["seats"][active]
    if state["tiles"]["tax"]["cards"] and (record["hand"] or record["bookshelf"]):
        _push(state, "tax_discard", seat=active, taken=[], rule="X50")


def _tax_pay_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return _own_card_options(state["seats"][seat], ("pay", "pay_shelved"))


@decision("tax_pay", rule="X50", choices=_tax_pay_choices)
def _do_tax_pay(state: dict, seat: int, action: dict) -> None:
    """X50 (1), X15: the card goes face up onto the tile, in plain sight (X77)."""
    top = state["pending"].pop()
    card, source = _give_up(state, seat, action)
    _tile(state, "tax")["cards"].append({"card": card, "up": True})
    _event(state, "paid", seat=seat, tile="tax", card=card, source=source, rule="X50")
    _tax_next(state, top["active"], top["rest"])


def _tax_discard_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X50 (2): a card of yours (not one just taken from the tile: k cards are given for k
    taken), or done."""
    options = _own_card_options(state["seats"][seat], ("discard", "discard_shelved"), top["taken"])
    return options + [{"type": "done"}]


@decision("tax_discard", rule="X50", choices=_tax_discard_choices)
def _do_tax_discard(state: dict, seat: int, action: dict) -> None:
    """X50 (2), review G7: your card goes to the discard pile; a tile card follows. Done: you
    may shelve any of the cards taken."""
    top = state["pending"].pop()
    if action["type"] == "done":
        _may_shelve(state, seat, top["taken"], len(top["taken"]), "X50")
        return
    card, source = _give_up(state, seat, action)
    state["discard"].append(card)
    _event(state, "discarded", seat=seat, card=card, source=source, rule="X50")
    _push(state, "tax_take", seat=seat, taken=top["taken"], rule="X50")


def _tax_take_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "take", "card": entry["card"]} for entry in state["tiles"]["tax"]["cards"]]


@decision("tax_take", rule="X50", choices=_tax_take_choices)
def _do_tax_take(state: dict, seat: int, action: dict) -> None:
    """X50 (2): a tile card of your choice to hand; one more exchange while the tile holds a
    card and you hold one to give, else the shelving."""
    top = state["pending"].pop()
    card = action["card"]
    tile = _tile(state, "tax")
    tile["cards"] = [entry for entry in tile["cards"] if entry["card"] != card]
    _seat(state, seat)["hand"].append(card)
    _gained(state, seat, [card])
    _event(state, "took", seat=seat, tile="tax", card=card, rule="X50")
    taken = top["taken"] + [card]
    kinds = ("discard", "discard_shelved")
    if tile["cards"] and _own_card_options(state["seats"][seat], kinds, taken):
        _push(state, "tax_discard", seat=seat, taken=taken, rule="X50")
    else:
        _may_shelve(state, seat, taken, len(taken), "X50")


# 17 Yard Sale (X51)


@effect("yard_sale")
def _yard_sale(state: dict, seat: int) -> None:
    """X51: reveal 1 or more hand cards, one at a time (X87); an empty hand does nothing
    (X34). The revealed cards lie on the tile's record for all to see (X77), still yours."""
    if state["seats"][seat]["hand"]:
        _tile(state, "yard_sale")["revealed"] = []
        _push(state, "yard_reveal", seat=seat, rule="X51")


def _yard_reveal_choices(state: dict, seat: int, top: dict) -> list[dict]:
    revealed = state["tiles"]["yard_sale"]["revealed"]
    actions = [
        {"type": "reveal", "card": card}
        for card in state["seats"][seat]["hand"]
        if card not in revealed
    ]
    return actions + ([{"type": "done"}] if revealed else [])


@decision("yard_reveal", rule="X51", choices=_yard_reveal_choices)
def _do_yard_reveal(state: dict, seat: int, action: dict) -> None:
    """X51: one more card shown to all, or done; then the opponents' laps, from your left."""
    state["pending"].pop()
    if action["type"] == "reveal":
        revealed = _tile(state, "yard_sale")["revealed"]
        revealed.append(action["card"])
        _event(state, "revealed", seat=seat, tile="yard_sale", cards=[action["card"]], rule="X51")
        if len(revealed) < len(state["seats"][seat]["hand"]):
            _push(state, "yard_reveal", seat=seat, rule="X51")
            return
    opponents = _opponents(state, seat)
    _push(
        state,
        "yard_claim",
        seat=opponents[0],
        seller=seat,
        turn=0,
        lap_claimed=False,
        claimed=0,
        rule="X51",
    )


def _yard_claim_choices(state: dict, seat: int, top: dict) -> list[dict]:
    revealed = state["tiles"]["yard_sale"]["revealed"]
    actions = [{"type": kind, "card": card} for card in revealed for kind in ("take", "shelve")]
    return actions + [{"type": "pass"}]


@decision("yard_claim", rule="X51", choices=_yard_claim_choices, shown=("seller",))
def _do_yard_claim(state: dict, seat: int, action: dict) -> None:
    """X51: take a revealed card into hand, shelve one straight into your bookshelf (its cell
    next), or pass. Laps go on, clockwise from the seller's left, until no revealed card is
    left or a whole lap is all passes; then, per card claimed, the seller draws 2 and may
    shelve 1 card from hand."""
    top = state["pending"].pop()
    claimed, lap_claimed = top["claimed"], top["lap_claimed"]
    if action["type"] != "pass":
        card = action["card"]
        _tile(state, "yard_sale")["revealed"].remove(card)
        _seat(state, top["seller"])["hand"].remove(card)
        _seat(state, seat)["hand"].append(card)  # a shelving goes through the hand (X14)
        kind = "claimed_to_shelve"
        if action["type"] == "take":  # X64: a card taken, not one shelved at once
            kind = "took"
            _gained(state, seat, [card])
        _event(state, kind, seat=seat, tile="yard_sale", card=card, rule="X51")
        claimed, lap_claimed = claimed + 1, True
    opponents = _opponents(state, top["seller"])
    turn = top["turn"] + 1
    lap_over = turn % len(opponents) == 0
    if state["tiles"]["yard_sale"]["revealed"] and not (lap_over and not lap_claimed):
        state["pending"].append(
            {
                **top,
                "seat": opponents[turn % len(opponents)],
                "turn": turn,
                "lap_claimed": lap_claimed and not lap_over,
                "claimed": claimed,
            }
        )
    else:
        del _tile(state, "yard_sale")["revealed"]  # the unclaimed cards stay in the seller's hand
        if claimed:
            _push(state, "then", step="yard_reward", seat=top["seller"], left=claimed)
    if action["type"] == "shelve":  # answered before the next opponent is asked (X88)
        power = _power(state, seat)  # X53, X81
        _push(state, "shelve_cell", seat=seat, card=action["card"], rule="X51", power=power)


@then("yard_reward")
def _yard_reward(state: dict, entry: dict) -> None:
    """X51, per card claimed: draw 2, then you may shelve 1 card from hand; again for the next
    card once that shelving is answered."""
    if entry["left"] > 1:
        state["pending"].append({**entry, "left": entry["left"] - 1})
    _draw(state, entry["seat"], 2, "X51")
    _may_shelve(state, entry["seat"], None, 1, "X51")


# ------------------------------------------------------------------------------ arrivals, powers
# The arrival sequence (X23) and the special assistants' powers (X53-X65, priority X66). The
# steps of an arrival after the first are "then" entries (`_proceed`), each pushed under the
# decisions of the step before, so a step runs once those are answered (X88).

SHELVING_POWERS = ("mummy", "wizard")  # X56, X63: a shelving may stack or push
DRIVEN_POWERS = (*SHELVING_POWERS, "witch")  # X53, X81: powers over what their assistant drives


def _occupants(state: dict, tile: str) -> list[dict]:
    """Every assistant on `tile`, in arrival order: each slot's holder and a Ghost sharing a
    slot (X60: on the tile for every purpose), as {"seat", "assistant", "slot", "arrival"}."""
    record = state["tiles"][tile]
    found = [
        {**holder, "slot": number}
        for number, holder in enumerate(record["slots"], start=1)
        if holder is not None
    ]
    found += [dict(entry) for entry in record.get("shared", [])]
    return sorted(found, key=lambda entry: entry["arrival"])


def _leave_tile(state: dict, tile: str, assistant: str, seat: int) -> None:
    """`seat`'s `assistant` leaves `tile` (its slot, or the slot it shares) for its owner's
    supply (X24: it may be placed again this round)."""
    record = _tile(state, tile)
    mine = (seat, assistant)
    for i, holder in enumerate(record["slots"]):
        if holder is not None and (holder["seat"], holder["assistant"]) == mine:
            record["slots"][i] = None
    if "shared" in record:
        record["shared"] = [e for e in record["shared"] if (e["seat"], e["assistant"]) != mine]
    _seat(state, seat)["supply"].append(assistant)
    _event(state, "returned", seat=seat, assistant=assistant, tile=tile, rule="X24")


def _power(state: dict, seat: int) -> str | None:
    """X53, X81: the Mummy's, Wizard's or Witch's power when it acts on what `seat` shelves or
    acquires now: its own assistant drives the effect under way, or the table plays owner-wide
    powers."""
    special = state["seats"][seat]["special_assistant"]
    driven = special in state["drivers"] or state["options"]["owner_wide_powers"]
    return special if special in DRIVEN_POWERS and special in POWERS and driven else None


def _arrive(
    state: dict, seat: int, assistant: str, target: str, slot: int | None = None, *, share=False
) -> None:
    """X23: `seat`'s `assistant` arrives on `target`, a location or "library" (a home space),
    placed from the supply, moved there by the Guild (X49) or sharing `slot` as the Ghost (X60).

    Step 1, the location's placement rule, acts at once: the opponents' assistants on `slot`
    (the Guild's) go home, and so does a lower bid at a bidding tile (X37), all to the supply
    (X24); the newcomer takes `slot` (None: the lowest free one, X21) or shares it. Steps 2 to
    4 follow (`_arrival_step`): the powers of specials already here, the newcomer's own, the
    instant effect for `seat`. On a home space only step 3 applies, then the home action."""
    state["drivers"] = [assistant]
    state["arrivals"] += 1
    if target == "library":
        _seat(state, seat)["home"].append(assistant)
        _event(state, "placed", seat=seat, assistant=assistant, target="library")
        _home_arrival(state, seat, assistant)
        return
    record = _tile(state, target)
    if slot is None:
        slot = _free_slot(state, target)
    # Who could have to leave: anyone at a bidding tile, or whoever is on the slot taken.
    if not share and (
        target in _BIDDING or record["slots"][slot - 1] is not None or "shared" in record
    ):
        for entry in _occupants(state, target):
            outbid = LOCATIONS[target].bids and entry["slot"] != slot
            if entry["seat"] != seat and entry["slot"] == slot or outbid:
                _leave_tile(state, target, entry["assistant"], entry["seat"])
    here = {"seat": seat, "assistant": assistant, "arrival": state["arrivals"]}
    if share:
        record.setdefault("shared", []).append({**here, "slot": slot})
    else:
        record["slots"][slot - 1] = here
    _event(state, "placed", seat=seat, assistant=assistant, target=target, slot=slot, share=share)
    _arrival_step(state, {"seat": seat, "assistant": assistant, "tile": target, "stage": 2})


@then("arrival")
def _arrival_step(state: dict, entry: dict) -> None:
    """X23 steps 2 to 4 (X66: the tile's rule, then the powers already here in arrival order,
    then the newcomer): each pushes the next under its own decisions. A stage that asks nothing
    (the usual case) goes straight on to the next, as `_proceed` would, without its loop: this
    runs at every arrival."""
    seat, assistant, tile, stage = entry["seat"], entry["assistant"], entry["tile"], entry["stage"]
    pending = state["pending"]
    while True:
        state["drivers"] = [assistant]
        if stage == 4:
            EFFECTS[tile](state, seat)
            return
        then = {  # `_push`'s entry, kept to see whether it is still on top afterwards
            "kind": "then",
            "step": "arrival",
            "seat": seat,
            "assistant": assistant,
            "tile": tile,
            "stage": stage + 1,
        }
        pending.append(then)
        if stage == 2:
            _arrival_reactions(state, seat, tile)
        else:
            _arrival_power(state, seat, assistant, tile)
        if pending[-1] is not then or state["witch_queue"]:
            return  # decisions first: `_proceed` comes back to the next stage
        # No decision and no Witch's card (`_proceed` would settle it first): the next
        # stage at once, as `_proceed` would run it, without going round its loop.
        pending.pop()
        stage += 1


def _arrival_reactions(state: dict, seat: int, tile: str) -> None:
    """X23 step 2: the Gelatinous Cube (X57) and the Sasquatch (X58) already here react to an
    opponent's arrival, in their arrival order (pushed last first, so asked first first)."""
    here = _holders(state["tiles"][tile])
    if not any(entry["assistant"] in ("cube", "sasquatch") for entry in here):
        return
    reactions = []
    for entry in _occupants(state, tile):
        if entry["seat"] == seat or entry["assistant"] not in POWERS:
            continue
        if entry["assistant"] == "cube":
            reactions.append(("cube", {"seat": seat, "owner": entry["seat"], "rule": "X57"}))
        elif entry["assistant"] == "sasquatch":
            reactions.append(("sasquatch", {"seat": entry["seat"], "tile": tile, "rule": "X58"}))
    for kind, fields in reversed(reactions):
        _push(state, kind, **fields)


def _arrival_power(state: dict, seat: int, assistant: str, tile: str) -> None:
    """X23 step 3: the newcomer's own power on a location: the Ghost's draw when it shares
    (X60), the Goblin's thefts (X54), the Automaton's home actions (X55), the Wisp (X65)."""
    if assistant not in POWERS:
        return
    if assistant == "ghost":
        if any(e["assistant"] == "ghost" for e in state["tiles"][tile].get("shared", [])):
            _draw(state, seat, 1, "X60")
    elif assistant == "goblin":
        victims = [e["seat"] for e in _occupants(state, tile) if e["seat"] != seat]
        victims = _clockwise_from(state, seat, set(victims))
        if victims:
            _push(state, "goblin", seat=seat, victims=victims, received=[], rule="X54")
    elif assistant == "automaton":
        others = [e for e in _occupants(state, tile) if e["seat"] == seat]
        for _ in range(len(others) - 1):
            _push(state, "home", seat=seat, rule="X55")
    elif assistant == "wisp" and state["tiles"][tile]["cards"]:
        _push(state, "wisp", seat=seat, tile=tile, rule="X65")


def _home_arrival(state: dict, seat: int, assistant: str) -> None:
    """X23 on a home space: step 3, then the home action (X22): the Bookworm replaces it with
    both home actions and may buy them once more (X59); the Automaton first takes one per other
    assistant of yours at home (X55)."""
    if assistant == "bookworm" and assistant in POWERS:
        _push(state, "then", step="bookworm_offer", seat=seat)
        _push(state, "home", seat=seat, rule="X59", parts=["draw", "shelve"])
        return
    _push(state, "home", seat=seat, rule="X22")
    if assistant == "automaton" and assistant in POWERS:
        for _ in range(len(state["seats"][seat]["home"]) - 1):
            _push(state, "home", seat=seat, rule="X55")


def _cube_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X57: give the Cube's owner a random hand card, or let it take both home actions (forced
    with an empty hand)."""
    give = [{"type": "give_random"}] if state["seats"][seat]["hand"] else []
    return give + [{"type": "home_actions"}]


@decision("cube", rule="X57", choices=_cube_choices, shown=("owner",))
def _do_cube(state: dict, seat: int, action: dict) -> None:
    """X57: the random card is drawn by the engine and seen by giver and taker only (X77)."""
    top = state["pending"].pop()
    owner = top["owner"]
    if action["type"] == "home_actions":
        _event(state, "cube_home_actions", seat=seat, owner=owner, rule="X57")
        _push(state, "home", seat=owner, rule="X57", parts=["draw", "shelve"])
        return
    hand = _seat(state, seat)["hand"]
    card = hand.pop(_rng(state, "cube").randrange(len(hand)))
    _seat(state, owner)["hand"].append(card)
    _event(
        state, "cube_card", seat=seat, owner=owner, rule="X57", secret_to=[seat, owner], secret=card
    )
    _gained(state, owner, [card])


def _sasquatch_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "take_back"}, {"type": "stay"}]


@decision("sasquatch", rule="X58", choices=_sasquatch_choices, shown=("tile",))
def _do_sasquatch(state: dict, seat: int, action: dict) -> None:
    """X58: an opponent arrived: the Sasquatch may go back to its owner's supply (X24)."""
    top = state["pending"].pop()
    if action["type"] == "take_back":
        _leave_tile(state, top["tile"], "sasquatch", seat)


def _goblin_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X54: the next victim (not yet chosen) and a category, or stop: 6(N - 1) + 1 at most."""
    steals = [
        {"type": "steal", "victim": victim, "category": category}
        for victim in top["victims"]
        for category in CATEGORIES
    ]
    return steals + [{"type": "stop"}]


@decision("goblin", rule="X54", choices=_goblin_choices, shown=("victims",))
def _do_goblin(state: dict, seat: int, action: dict) -> None:
    """X54: a theft: the victim gives a card holding the category named (its choice) or, having
    none, shows its hand to the Goblin's owner only (X77); then the next victim, or stop and
    you may shelve any of the cards received."""
    top = state["pending"].pop()
    if action["type"] == "stop":
        _may_shelve(state, seat, top["received"], len(top["received"]), "X54")
        return
    victim, category = action["victim"], action["category"]
    _event(state, "named", seat=seat, victim=victim, category=category, rule="X54")
    rest = [other for other in top["victims"] if other != victim]
    if rest:
        _push(state, "goblin", seat=seat, victims=rest, received=top["received"], rule="X54")
    else:
        _push(state, "then", step="goblin_end", seat=seat, received=top["received"])
    hand = state["seats"][victim]["hand"]
    if any(category in CARDS[card].books for card in hand):
        _push(state, "goblin_give", seat=victim, to=seat, category=category, rule="X54")
    else:
        _event(
            state,
            "hand_shown",
            seat=victim,
            to=seat,
            rule="X54",
            secret_to=[victim, seat],
            secret=list(hand),
        )


def _goblin_give_choices(state: dict, seat: int, top: dict) -> list[dict]:
    hand = state["seats"][seat]["hand"]
    return [{"type": "give", "card": c} for c in hand if top["category"] in CARDS[c].books]


@decision("goblin_give", rule="X54", choices=_goblin_give_choices, shown=("to", "category"))
def _do_goblin_give(state: dict, seat: int, action: dict) -> None:
    """X54: the card given goes to the Goblin's owner, seen by the two of them (X77); it joins
    the cards received, kept by the Goblin's next step below."""
    top = state["pending"].pop()
    card, owner = action["card"], top["to"]
    _seat(state, seat)["hand"].remove(card)
    _seat(state, owner)["hand"].append(card)
    below = state["pending"][-1]
    state["pending"][-1] = {**below, "received": below["received"] + [card]}
    _event(state, "gave", seat=seat, to=owner, rule="X54", secret_to=[seat, owner], secret=card)
    _gained(state, owner, [card])


@then("goblin_end")
def _goblin_end(state: dict, entry: dict) -> None:
    """X54: every victim has been chosen: you may shelve any of the cards received."""
    _may_shelve(state, entry["seat"], entry["received"], len(entry["received"]), "X54")


def _wisp_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X65: discard one tile card (a face-down one picked blind, by its place) and take 1 home
    action, or, with 2 or more there, all of them and take 2; or pass: c + 2 at most."""
    cards = state["tiles"][top["tile"]]["cards"]
    actions = [
        {"type": "discard_one", "index": i, **({"card": e["card"]} if e["up"] else {})}
        for i, e in enumerate(cards)
    ]
    if len(cards) >= 2:
        actions.append({"type": "discard_all"})
    return actions + [{"type": "pass"}]


@decision("wisp", rule="X65", choices=_wisp_choices, shown=("tile",))
def _do_wisp(state: dict, seat: int, action: dict) -> None:
    """X65: the cards discarded are turned up (X30: the discard pile is face up); then the home
    actions."""
    top = state["pending"].pop()
    if action["type"] == "pass":
        return
    record = _tile(state, top["tile"])
    if action["type"] == "discard_all":
        gone, record["cards"], home_actions = record["cards"], [], 2
    else:
        gone, home_actions = [record["cards"].pop(action["index"])], 1
    cards = [entry["card"] for entry in gone]
    state["discard"] += cards
    _event(state, "discarded", seat=seat, cards=cards, source=top["tile"], rule="X65")
    for _ in range(home_actions):
        _push(state, "home", seat=seat, rule="X65")


@then("bookworm_offer")
def _bookworm_offer(state: dict, entry: dict) -> None:
    """X59: after both home actions, discard 1 hand card to take both once more (asked only
    with a hand card)."""
    if state["seats"][entry["seat"]]["hand"]:
        _push(state, "bookworm", seat=entry["seat"], rule="X59")


def _bookworm_choices(state: dict, seat: int, top: dict) -> list[dict]:
    hand = state["seats"][seat]["hand"]
    return [{"type": "discard", "card": card} for card in hand] + [{"type": "stop"}]


@decision("bookworm", rule="X59", choices=_bookworm_choices)
def _do_bookworm(state: dict, seat: int, action: dict) -> None:
    """X59: the card goes to the discard pile, face up (X30); both home actions once more."""
    state["pending"].pop()
    if action["type"] == "stop":
        return
    _seat(state, seat)["hand"].remove(action["card"])
    state["discard"].append(action["card"])
    _event(state, "discarded", seat=seat, card=action["card"], source="hand", rule="X59")
    _push(state, "home", seat=seat, rule="X59", parts=["draw", "shelve"])


def _gained(state: dict, seat: int, cards: list[str]) -> None:
    """X64: cards an effect just gave `seat` (drawn, taken, won, stolen or received); those
    holding a Banned book wait for the Witch's power when it applies (`_witch_flush`)."""
    if _power(state, seat) == "witch":
        banned = state["banned"]
        state["witch_queue"] = state["witch_queue"] + [
            {"seat": seat, "card": card} for card in cards if banned in CARDS[card].books
        ]


def _witch_flush(state: dict) -> None:
    """X64, X88: the cards waiting for the Witch are settled before the effect goes on, one by
    one in the order received: each becomes a step pushed above what the effect pushed."""
    queue, state["witch_queue"] = state["witch_queue"], []
    for entry in reversed(queue):
        _push(state, "then", step="witch_reveal", seat=entry["seat"], card=entry["card"])


@then("witch_reveal")
def _witch_reveal(state: dict, entry: dict) -> None:
    """X64: reveal the deck's top card (X31: none may come; then the card stays as it is)."""
    seat, card = entry["seat"], entry["card"]
    if card not in state["seats"][seat]["hand"]:
        return  # pragma: no cover - a card is settled before anything can move it
    revealed = _draw_card(state)
    if revealed is None:
        _event(state, "witch_nothing", seat=seat, rule="X64")
        return
    _event(state, "revealed", seat=seat, cards=[revealed], rule="X64")
    _push(state, "witch", seat=seat, card=card, revealed=revealed, rule="X64")


def _witch_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "keep", "card": top["card"]}, {"type": "keep", "card": top["revealed"]}]


@decision("witch", rule="X64", choices=_witch_choices, shown=("revealed",))
def _do_witch(state: dict, seat: int, action: dict) -> None:
    """X64: keep one of the two, discard the other face up. The revealed card kept stands in for
    the one received wherever the effect still names it (A-27: it never triggers the power)."""
    top = state["pending"].pop()
    card, revealed = top["card"], top["revealed"]
    if action["card"] == revealed:
        hand = _seat(state, seat)["hand"]
        hand[hand.index(card)] = revealed
        state["discard"].append(card)
        state["pending"] = [_stand_in(entry, card, revealed) for entry in state["pending"]]
        _event(state, "witch_kept", seat=seat, discarded=card, rule="X64")
    else:
        state["discard"].append(revealed)
        _event(state, "witch_kept", seat=seat, discarded=revealed, rule="X64")


def _stand_in(entry: dict, old: str, new: str) -> dict:
    """A pending entry with card `old` replaced by `new` wherever it names it (X64)."""

    def swap(value):
        if isinstance(value, list):
            return [swap(item) for item in value]
        return new if value == old else value

    return {key: swap(value) for key, value in entry.items()}


def _golem_turn(state: dict, tile: str) -> bool:
    """X62: the Golem's owner may pick among `tile`'s leftovers when the Golem lies on a tile
    not yet resolved (this one or a later one) and cards are left here. Face-down leftovers
    are turned up first: X25 (b) discards them face up."""
    if "golem" not in POWERS or not state["tiles"][tile]["cards"]:
        return False
    owner = _golem_owner(state)
    if owner is None:
        return False
    if not all(entry["up"] for entry in state["tiles"][tile]["cards"]):
        record = _tile(state, tile)
        record["cards"] = [{**entry, "up": True} for entry in record["cards"]]
    _push(state, "golem", seat=owner, tile=tile, rule="X62")
    return True


def _golem_owner(state: dict) -> int | None:
    """The seat whose Golem lies on a face-up tile, if any."""
    for tile in state["locations"]["face_up"]:
        for entry in _holders(state["tiles"][tile]):  # there is one Golem at most
            if entry["assistant"] == "golem":
                return entry["seat"]
    return None


def _golem_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X62: take 1 leftover card into hand, or shelve it, or pass: 2c + 1."""
    cards = [entry["card"] for entry in state["tiles"][top["tile"]]["cards"]]
    return (
        [{"type": "take", "card": card} for card in cards]
        + [{"type": "shelve", "card": card} for card in cards]
        + [{"type": "pass"}]
    )


@decision("golem", rule="X62", choices=_golem_choices, shown=("tile",))
def _do_golem(state: dict, seat: int, action: dict) -> None:
    """X62: the card leaves the tile before its leftovers are discarded; a card shelved goes
    through the hand straight to its cell (the cell is asked next, X87)."""
    top = state["pending"].pop()
    if action["type"] == "pass":
        return
    card = action["card"]
    record = _tile(state, top["tile"])
    record["cards"] = [entry for entry in record["cards"] if entry["card"] != card]
    _seat(state, seat)["hand"].append(card)
    _event(state, "took", seat=seat, tile=top["tile"], card=card, rule="X62")
    if action["type"] == "shelve":
        _push(state, "shelve_cell", seat=seat, card=card, rule="X62", power=None)


# The special assistants whose power exists (X53-X65); a drafted special assistant joins its
# owner's supply only once its power is here (`_assistants`).
POWERS: frozenset[str] = frozenset(
    {
        "goblin",
        "automaton",
        "mummy",
        "cube",
        "sasquatch",
        "bookworm",
        "ghost",
        "snowman",
        "golem",
        "wizard",
        "witch",
        "wisp",
    }
)


# ------------------------------------------------------------------------------ the protocol


def to_act(state: dict) -> list[int]:
    """X86: the seats that must answer now: one, or every unfinished seat during the pre-scoring
    flip (X68); [] exactly when the game is over."""
    if not state["pending"]:
        return []
    top = state["pending"][-1]
    if top["kind"] == "flip":
        return list(top["seats"])
    return [top["seat"]]


# X4, X21: the slot numbers each tile offers, per player count (`Location.slots`, computed once).
_USABLE_SLOTS = {
    (tile, players): location.slots(players)
    for tile, location in LOCATIONS.items()
    for players in PLAYER_COUNTS
}


_INSTANT = frozenset(tile for tile, location in LOCATIONS.items() if location.timing == "instant")


def _free_slot(state: dict, tile: str) -> int | None:
    """X21: the lowest-numbered free slot whose gate the player count reaches (X4)."""
    slots = state["tiles"][tile]["slots"]
    for number in _USABLE_SLOTS[tile, state["players"]]:
        if slots[number - 1] is None:
            return number
    return None


def _holders(record: dict) -> list[dict]:
    """Every assistant on a tile's record, as `_occupants` but in no particular order and not
    copied: the slot holders, then a Ghost sharing a slot (X60)."""
    here = [holder for holder in record["slots"] if holder is not None]
    if "shared" in record:
        here += record["shared"]
    return here


def _may_enter(here: list[dict], seat: int, assistant: str, tile: str) -> bool:
    """X21's restrictions from the special assistants, for `seat`'s `assistant` ("standard" or
    a special's id) on `tile`, where the assistants `here` are (`_holders`): the Snowman holds
    an instant location against every other assistant (X61, X66), the Ghost never comes to the
    Hut (X35, X60), the Sasquatch goes only where no opponent's assistant is (X58)."""
    if tile in _INSTANT and "snowman" in POWERS:
        for entry in here:
            if entry["assistant"] == "snowman":
                return False
    if assistant == "ghost":
        return tile != HUT
    if assistant == "sasquatch":
        return all(entry["seat"] == seat for entry in here)
    return True


def _ghost_shares(state: dict, tile: str) -> list[dict]:
    """X60: the Ghost may share any occupied slot of an instant location, naming it."""
    if LOCATIONS[tile].timing != "instant":
        return []
    return [
        {"type": "place", "assistant": "special", "target": tile, "share": number}
        for number, holder in enumerate(state["tiles"][tile]["slots"], start=1)
        if holder is not None
    ]


def _open_bids(state: dict, tile: str) -> list[int]:
    """X37: the bids (slot numbers) above the current one; none once slot 4 is taken."""
    current = 0
    for number, holder in enumerate(state["tiles"][tile]["slots"], start=1):
        if holder is not None:
            current = number
    return [bid for bid in _USABLE_SLOTS[tile, state["players"]] if bid > current]


def _kinds(record: dict) -> list[str]:
    """X21: the kinds of assistant a seat may place: "standard" while one is in its supply,
    "special" while its special assistant is."""
    kinds = []
    for assistant in record["supply"]:
        if assistant.startswith("standard-"):
            kinds.append("standard")
            break
    if record["special_assistant"] in record["supply"]:
        kinds.append("special")
    return kinds


def _may_place(state: dict, seat: int) -> bool:
    """Whether `_placements` lists anything. Asked before every placement, so the usual answer
    comes without looking at the tiles: any assistant may go to a free home space (X21)."""
    record = state["seats"][seat]
    if len(record["home"]) < HOME_SPACES:
        return bool(_kinds(record))
    return bool(_placements(state, seat))


def _placements(state: dict, seat: int, top: dict | None = None) -> list[dict]:
    """X21: every (assistant kind, target) the seat may place now. Each tile is looked at once
    for both kinds (`_open_tiles`); the standard kind, the common case, needs only the
    Snowman's test of `_may_enter`, made there."""
    record = state["seats"][seat]
    kinds = _kinds(record)
    if not kinds:
        return []
    special = record["special_assistant"]
    spots = _open_tiles(state, seat)
    found = []
    for kind in kinds:
        assistant = special if kind == "special" else "standard"
        for tile, here, free, mine in spots:
            if assistant != "standard" and not _may_enter(here, seat, assistant, tile):
                continue
            if free is None:
                if assistant == "ghost":  # X60: full, but it may share an occupied slot
                    found += _ghost_shares(state, tile)
            elif mine:
                continue  # X83: one of your assistants per location at a time
            elif tile in _BIDDING:  # X37: the placement names a bid above the current one
                found += [
                    {"type": "place", "assistant": kind, "target": tile, "slot": bid}
                    for bid in _open_bids(state, tile)
                ]
            else:
                found.append({"type": "place", "assistant": kind, "target": tile})
                if assistant == "ghost":  # X60: or share an occupied slot
                    found += _ghost_shares(state, tile)
        if len(record["home"]) < HOME_SPACES:
            found.append({"type": "place", "assistant": kind, "target": "library"})
    return found


_BIDDING = frozenset(tile for tile, location in LOCATIONS.items() if location.bids)  # X37


def _open_tiles(state: dict, seat: int) -> list[tuple[str, list[dict], int | None, bool]]:
    """What `_placements` needs of each face-up tile the Snowman does not hold against every
    other assistant (X61: `_may_enter`'s first test), in order: the tile, who is there
    (`_holders`), its free slot (`_free_slot`) and whether one of `seat`'s assistants holds a
    slot (solo, X83). One loop, no call per tile: it runs for every placement."""
    players = state["players"]
    tiles = state["tiles"]
    spots = []
    for tile in state["locations"]["face_up"]:
        if tile not in EFFECTS:
            continue
        record = tiles[tile]
        slots = record["slots"]
        here = list(filter(None, slots))  # the holders (never empty dicts), without the Nones
        free = None
        if len(here) < len(slots):
            for number in _USABLE_SLOTS[tile, players]:
                if slots[number - 1] is None:
                    free = number
                    break
        mine = players == 1 and seat in [holder["seat"] for holder in here]
        if "shared" in record:
            here += record["shared"]
        if (
            here
            and tile in _INSTANT
            and "snowman" in POWERS
            and "snowman" in [entry["assistant"] for entry in here]
        ):
            continue
        spots.append((tile, here, free, mine))
    return spots


def _asked(state: dict, seat) -> bool:
    """`seat in to_act(state)`, without building the list."""
    if not state["pending"]:
        return False
    top = state["pending"][-1]
    if top["kind"] == "flip":
        return seat in top["seats"]
    return seat == top["seat"]


def legal_actions(state: dict, seat) -> list[dict]:
    """X86: every action `seat` may take now; [] when it is not asked anything. A `State`
    keeps the list (`_legal`), for `apply_action` to check the action chosen from it without
    listing them again."""
    if not _asked(state, seat):
        return []
    actions = _listed(state, seat)
    if type(state) is State:
        state._legal = (seat, tuple(actions))  # a tuple: the caller may change its list
    return actions


def _listed(state: dict, seat: int) -> list[dict]:
    """`legal_actions` for a seat asked now: what its decision offers."""
    top = state["pending"][-1]
    return DECISIONS[top["kind"]].choices(state, seat, top)


def _discard_options(state: dict, seat: int) -> list[dict]:
    """X30, X15, X87: one more card to discard: any hand card and, where the effect names the
    bookshelf, any top card whose removal keeps it connected."""
    record = state["seats"][seat]
    top = _top(state)
    actions = [{"type": "discard", "card": card} for card in record["hand"]]
    if top["shelf"]:
        actions += [
            {"type": "discard_shelved", "cell": [row, col]}
            for row, col in bs.removable_cells(record["bookshelf"])
        ]
    return actions


def _can_discard(state: dict, seat: int) -> bool:
    """Whether `_discard_options` lists anything: any hand card does, so the bookshelf's cells
    are searched only for an empty hand."""
    record = state["seats"][seat]
    if record["hand"]:
        return True
    return _top(state)["shelf"] and bool(bs.removable_cells(record["bookshelf"]))


def _rule(top: dict) -> str:
    """The rules a refused answer to `top` breaks: the effect's, then the step's."""
    rule = DECISIONS[top["kind"]].rule
    if top.get("rule") and top["rule"] != rule:
        rule = f"{top['rule']}, {rule}"
    return rule


def _as_json(action):
    """`action` as the JSON data its JSON round trip gives (a new object; TypeError or ValueError
    for what JSON cannot hold). Actions are flat dicts of strings, ints and cells, copied
    directly; anything else takes the round trip."""
    if type(action) is dict:
        plain = {}
        for key, value in action.items():
            kind = type(value)
            if type(key) is not str:
                break
            if kind is str or kind is int or kind is bool or value is None:
                plain[key] = value
            elif (kind is list or kind is tuple) and all([type(x) is int for x in value]):
                plain[key] = list(value)
            else:
                break
        else:
            return plain
    return json.loads(json.dumps(action))


def apply_action(state: dict, seat, action) -> dict:
    """X86: the state after `seat` takes `action`; `state` is left unchanged. IllegalAction,
    naming the rule, for anything `legal_actions` does not list."""
    if state["phase"] == "over":
        raise IllegalAction("X67: the game is over")
    if not _asked(state, seat):
        raise IllegalAction(f"X86: seat {seat!r} is not asked anything now")
    top = _top(state)
    kept = getattr(state, "_legal", None)  # the list a caller has just chosen from
    # Looked for as given, before its copy: the very object listed (a caller may not change
    # it, docs/exlibris.md) is then found by identity, without comparing its fields.
    in_kept = type(action) is dict and kept is not None and kept[0] == seat and action in kept[1]
    try:
        action = _as_json(action)
    except (TypeError, ValueError):
        raise IllegalAction(f"{_rule(top)}: an action is a small JSON object") from None
    if not in_kept and action not in _listed(state, seat):
        raise IllegalAction(f"{_rule(top)}: {action!r} is not a legal {top['kind']} action now")
    new = _next_state(state)
    new["version"] += 1
    DECISIONS[top["kind"]].effect(new, seat, action)
    _proceed(new)
    new._own = set()  # done: a later change copies first, as the next move would share it
    return new


def _draft_take_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "take", "library": lib} for lib in state["libraries"]["pool"]]


@decision("draft_take", rule="X8", choices=_draft_take_choices)
def _do_draft_take(state: dict, seat: int, action: dict) -> None:
    """X8: take a library from the pool; its special assistant comes with it (X9)."""
    lib = action["library"]
    _libraries(state)["pool"].remove(lib)
    record = _seat(state, seat)
    record["library"] = {"id": lib, "side": "front"}
    record["special_assistant"] = lib
    _event(state, "library_taken", seat=seat, library=lib)
    state["pending"].pop()
    _push(state, "draft_remove", seat=seat)


def _draft_remove_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "remove", "library": lib} for lib in state["libraries"]["pool"]]


@decision("draft_remove", rule="X8", choices=_draft_remove_choices)
def _do_draft_remove(state: dict, seat: int, action: dict) -> None:
    """X8: remove another library from the game; the next player (reverse turn order) drafts."""
    lib = action["library"]
    libraries = _libraries(state)
    libraries["pool"].remove(lib)
    libraries["declined"].append(lib)
    _event(state, "library_removed", seat=seat, library=lib)
    state["pending"].pop()
    state["draft_step"] += 1
    order = state["libraries"]["draft_order"]
    if state["draft_step"] < len(order):
        _push(state, "draft_take", seat=order[state["draft_step"]])
    else:
        state["phase"] = "round_start"


def _solo_keep_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "keep", "library": lib} for lib in state["libraries"]["pool"]]


@decision("solo_keep", rule="X82", choices=_solo_keep_choices)
def _do_solo_keep(state: dict, seat: int, action: dict) -> None:
    """X82.2: keep 1 of the 2 solo libraries offered; the other leaves the game."""
    lib = action["library"]
    libraries = _libraries(state)
    pool = libraries["pool"]
    pool.remove(lib)
    libraries["declined"] += pool
    libraries["pool"] = []
    record = _seat(state, seat)
    record["library"] = {"id": lib, "side": "front"}
    record["special_assistant"] = lib
    _event(state, "library_taken", seat=seat, library=lib)
    state["pending"].pop()
    state["phase"] = "round_start"


@decision("place", rule="X20-X21", choices=_placements)
def _do_place(state: dict, seat: int, action: dict) -> None:
    """X20-X21: place one assistant from the supply, a standard one not yet placed this round
    when there is one (X21); it arrives (X23) on the slot the action names (a Ghost sharing one,
    X60; an Auction bid, X37) or on the lowest free one."""
    record = _seat(state, seat)
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
    if "share" in action:
        _arrive(state, seat, assistant, action["target"], action["share"], share=True)
    else:
        _arrive(state, seat, assistant, action["target"], action.get("slot"))


def _home_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X22: draw, shelve (with a hand card) or nothing; X32: both home actions, part by part,
    or done."""
    parts = top.get("parts") or ("draw", "shelve")
    actions = [{"type": "draw"}] if "draw" in parts else []
    if state["seats"][seat]["hand"] and "shelve" in parts:
        actions.append({"type": "shelve"})
    return actions + [{"type": "nothing" if top.get("parts") is None else "done"}]


@decision("home", rule="X22", choices=_home_choices)
def _do_home(state: dict, seat: int, action: dict) -> None:
    """X22: draw 1 card, or shelve 1 card from hand (then which card and where), or nothing.
    X32: for "both home actions", the part not yet taken is asked again, or done."""
    top = state["pending"].pop()
    rest = [part for part in top.get("parts") or () if part != action["type"]]
    if action["type"] == "draw":
        _draw(state, seat, 1, top["rule"])
        if rest and state["seats"][seat]["hand"]:  # X87: the shelving needs a hand card
            _push(state, "home", seat=seat, rule=top["rule"], parts=rest)
    elif action["type"] == "shelve":
        if rest:  # under the shelving: asked once it is settled (X88)
            _push(state, "home", seat=seat, rule=top["rule"], parts=rest)
        _push(state, "shelve_card", seat=seat, cards=None, left=1, rule=top["rule"])
    else:
        _event(state, "home_nothing", seat=seat)


def _take_tile_card_choices(state: dict, seat: int, top: dict) -> list[dict]:
    cards = [entry["card"] for entry in state["tiles"][top["tile"]]["cards"]]
    return [{"type": "take", "card": card} for card in cards]


@decision("take_tile_card", rule="X29", choices=_take_tile_card_choices, shown=("tile", "rule"))
def _do_take_tile_card(state: dict, seat: int, action: dict) -> None:
    """X29: take a tile card into hand (one more while the effect allows and the tile holds
    one); then, in the effect's order, the gift (X39: after the shelving; X36: before it) and
    the shelving of up to `shelve` of the cards taken."""
    top = state["pending"].pop()
    card = action["card"]
    tile = _tile(state, top["tile"])
    tile["cards"] = [entry for entry in tile["cards"] if entry["card"] != card]
    _seat(state, seat)["hand"].append(card)
    _event(state, "took", seat=seat, tile=top["tile"], card=card, rule=top["rule"])
    _gained(state, seat, [card])
    taken = top["taken"] + [card]
    if top["left"] > 1 and tile["cards"]:
        state["pending"].append({**top, "left": top["left"] - 1, "taken": taken})
        return
    if top["then"] == "give" and tile["cards"] and _opponents(state, seat):
        _push(state, "community_give", seat=seat, rule=top["rule"])
    _may_shelve(state, seat, taken, min(top["shelve"], len(taken)), top["rule"])
    if top["then"] == "swap_give":
        _push(state, "swap_give", seat=seat, taken=card, rule=top["rule"])


def _swap_give_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X36: a card held before the exchange."""
    hand = state["seats"][seat]["hand"]
    return [{"type": "give", "card": c} for c in hand if c != top["taken"]]


@decision("swap_give", rule="X36", choices=_swap_give_choices, shown=("rule",))
def _do_swap_give(state: dict, seat: int, action: dict) -> None:
    """X36: the card given lies face up on the tile for later visitors."""
    top = state["pending"].pop()
    card = action["card"]
    _seat(state, seat)["hand"].remove(card)
    _tile(state, "swap")["cards"].append({"card": card, "up": True})
    _event(state, "gave_to_tile", seat=seat, tile="swap", card=card, rule=top["rule"])


def _community_give_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X39: a remaining tile card, to an opponent."""
    return [
        {"type": "give", "card": entry["card"], "to": other}
        for entry in state["tiles"]["community"]["cards"]
        for other in _opponents(state, seat)
    ]


@decision("community_give", rule="X39", choices=_community_give_choices, shown=("rule",))
def _do_community_give(state: dict, seat: int, action: dict) -> None:
    """X39: a remaining tile card to an opponent's hand, in plain sight (X77); no shelving."""
    top = state["pending"].pop()
    card, other = action["card"], action["to"]
    tile = _tile(state, "community")
    tile["cards"] = [entry for entry in tile["cards"] if entry["card"] != card]
    _seat(state, other)["hand"].append(card)
    _event(state, "gave", seat=seat, to=other, card=card, tile="community", rule=top["rule"])
    _gained(state, other, [card])


def _discard_card_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return _discard_options(state, seat) + [{"type": "done"}]


@decision("discard_card", rule="X30", choices=_discard_card_choices, shown=("rule",))
def _do_discard_card(state: dict, seat: int, action: dict) -> None:
    """X30: one more card to the discard pile, face up (a bookshelf's top card: X15, its under
    card stays face down); or done, and the effect goes on."""
    top = state["pending"].pop()
    if action["type"] == "done":
        _finish_discards(state, seat, top)
        return
    record = _seat(state, seat)
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
    if not _can_discard(state, seat):
        _finish_discards(state, seat, state["pending"].pop())


def _cabin_name_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "name", "category": category} for category in CATEGORIES]


@decision("cabin_name", rule="X47", choices=_cabin_name_choices)
def _do_cabin_name(state: dict, seat: int, action: dict) -> None:
    """X47: the category is named aloud; the visitor alone looks at the face-down cards."""
    top = state["pending"].pop()
    category = action["category"]
    tile = _tile(state, "cabin")
    looked = tile.setdefault("looked", [])
    if seat not in looked:
        looked.append(seat)
    _event(state, "named", seat=seat, tile="cabin", category=category, rule=top["rule"])
    seen = [entry["card"] for entry in tile["cards"] if not entry["up"]]
    _event(state, "looked", seat=seat, tile="cabin", secret_to=[seat], secret=seen)
    if _cabin_matches(state, category):
        _push(state, "cabin_take", seat=seat, category=category, taken=[], rule=top["rule"])


def _cabin_take_choices(state: dict, seat: int, top: dict) -> list[dict]:
    cards = _cabin_matches(state, top["category"])
    return [{"type": "take", "card": card} for card in cards] + [{"type": "done"}]


@decision("cabin_take", rule="X47", choices=_cabin_take_choices)
def _do_cabin_take(state: dict, seat: int, action: dict) -> None:
    """X47: take one more matching card, shown to all, or done; then you may shelve 1."""
    top = state["pending"].pop()
    taken = list(top["taken"])
    if action["type"] == "take":
        card = action["card"]
        tile = _tile(state, "cabin")
        tile["cards"] = [entry for entry in tile["cards"] if entry["card"] != card]
        _seat(state, seat)["hand"].append(card)
        _event(state, "took", seat=seat, tile="cabin", card=card, rule=top["rule"])
        _gained(state, seat, [card])
        taken.append(card)
        if _cabin_matches(state, top["category"]):
            state["pending"].append({**top, "taken": taken})
            return
    _may_shelve(state, seat, taken, 1, top["rule"])


def _run_start_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X52: the options computed when the step was pushed, or pass."""
    return [{"type": "run", "cell": cell} for cell in top["options"]] + [{"type": "pass"}]


@decision("run_start", rule="X52", choices=_run_start_choices)
def _do_run_start(state: dict, seat: int, action: dict) -> None:
    """X52: the run's first cell, or pass (the move may be declined)."""
    top = state["pending"].pop()
    if action["type"] == "run":
        start = action["cell"]
        ends = [list(c) for c in bs.run_ends(state["seats"][seat]["bookshelf"], start)]
        _push(state, "run_end", seat=seat, start=start, options=ends, rule=top["rule"])


def _run_end_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "run_end", "cell": cell} for cell in top["options"]]


@decision("run_end", rule="X52", choices=_run_end_choices, shown=("start",))
def _do_run_end(state: dict, seat: int, action: dict) -> None:
    """X52: the run's last cell; then where it goes."""
    top = state["pending"].pop()
    start, end = top["start"], action["cell"]
    spots = bs.run_destinations(state["seats"][seat]["bookshelf"], start, end)
    options = [list(c) for c in spots]
    _push(state, "run_dest", seat=seat, start=start, end=end, options=options, rule=top["rule"])


def _run_dest_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "move", "cell": cell} for cell in top["options"]]


@decision("run_dest", rule="X52", choices=_run_dest_choices, shown=("start", "end"))
def _do_run_dest(state: dict, seat: int, action: dict) -> None:
    """X52, X90.4: the run lands on the destination's consecutive cells, stacks and order kept."""
    top = state["pending"].pop()
    record = _seat(state, seat)
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


def _shelve_card_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X29, X87: one more of the cards the effect lets you shelve (None: any hand card), or
    done."""
    hand = state["seats"][seat]["hand"]
    allowed = set(hand if top["cards"] is None else top["cards"])
    cards = [card for card in hand if card in allowed]
    return [{"type": "shelve", "card": card} for card in cards] + [{"type": "done"}]


@decision("shelve_card", rule="X29", choices=_shelve_card_choices)
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
        if hand and (cards is None or not set(cards).isdisjoint(hand)):
            _push(state, "shelve_card", seat=seat, cards=cards, left=left, rule=top["rule"])
    power = _power(state, seat)  # X53: known now, while the effect's drivers are
    _push(state, "shelve_cell", seat=seat, card=card, rule=top["rule"], power=power)


def _shelve_cell_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X14: an empty cell; X56 the Mummy stacks, X63 the Wizard pushes (6n + 2)."""
    shelf = state["seats"][seat]["bookshelf"]
    actions = [{"type": "cell", "cell": [row, col]} for row, col in bs.shelving_cells(shelf)]
    if top.get("power") == "mummy":
        actions += [
            {"type": "stack", "cell": list(cell), "how": how}
            for cell in bs.stacking_cells(shelf)
            for how in ("on", "under")
        ]
    elif top.get("power") == "wizard":
        actions += [
            {"type": "push", "cell": list(cell), "direction": direction}
            for cell, direction in bs.push_targets(shelf)
        ]
    return actions


@decision("shelve_cell", rule="X14", choices=_shelve_cell_choices)
def _do_shelve_cell(state: dict, seat: int, action: dict) -> None:
    """X14: the chosen card goes face up into the chosen cell; or the Mummy stacks it (X56: a
    card put straight under is its owner's secret, X77), or the Wizard pushes (X63)."""
    top = state["pending"].pop()
    record = _seat(state, seat)
    card, cell = top["card"], action["cell"]
    shelf = record["bookshelf"]
    how = action.get("how")
    if action["type"] == "push":
        record["bookshelf"] = bs.push(shelf, card, cell, action["direction"])
        how = action["direction"]
    else:
        record["bookshelf"] = bs.shelve(shelf, card, cell, how)
    record["hand"].remove(card)
    shown = {"secret_to": [seat], "secret": card} if how == "under" else {"card": card}
    if how == "under":
        record["hidden_under"].append(card)
    _event(state, "shelved", seat=seat, cell=cell, how=how, rule=top["rule"], **shown)


def _solo_remove_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "remove_tile", "tile": t} for t in state["locations"]["face_up"]]


@decision("solo_remove", rule="X83", choices=_solo_remove_choices)
def _do_solo_remove(state: dict, seat: int, action: dict) -> None:
    """X83: remove a face-up tile from the game (twice per Restoration)."""
    top = state["pending"].pop()
    tile = action["tile"]
    locations = _locations(state)
    locations["face_up"].remove(tile)
    if tile in locations["permanent"]:
        locations["permanent"].remove(tile)
    locations["removed"].append(tile)
    del state["tiles"][tile]
    _event(state, "tile_removed", tile=tile)
    if top["left"] > 1 and locations["face_up"]:
        _push(state, "solo_remove", seat=seat, left=top["left"] - 1)


def _flip_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X68: one more face-up top card not chosen yet, or done."""
    chosen = state["pre_flips"][seat]
    actions = [
        {"type": "flip", "cell": list(cell)}
        for cell in bs.face_up_cells(state["seats"][seat]["bookshelf"])
        if list(cell) not in chosen
    ]
    return actions + [{"type": "done"}]


@decision("flip", rule="X68", choices=_flip_choices)
def _do_flip(state: dict, seat: int, action: dict) -> None:
    """X68: turn one more top card face down, or done; kept secret until every seat is done."""
    top = state["pending"][-1]
    if action["type"] == "flip":
        flips = state["pre_flips"][:]
        flips[seat] = [*flips[seat], action["cell"]]
        state["pre_flips"] = flips
        return
    _event(state, "flip_done", seat=seat)
    waiting = [other for other in top["seats"] if other != seat]
    if waiting:
        state["pending"][-1] = {**top, "seats": waiting}
    else:
        state["pending"].pop()


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


def _view_bookshelf(shelf: dict, owner: bool, hidden: list[str]) -> dict:
    """X77: top cards are public, and stay known once the Mummy stacks a card on them; only a
    card the Mummy put straight under another is its owner's secret, so others see only that
    there is one, and it stays secret once left alone face down in its cell (X90.3)."""
    if owner:
        return _copy(shelf)
    return {
        key: {
            "top": "hidden" if not stack["up"] and stack["top"] in hidden else stack["top"],
            "up": stack["up"],
            "under": "hidden" if stack["under"] in hidden else stack["under"],
        }
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
                "bookshelf": _view_bookshelf(
                    record["bookshelf"], mine or over, record["hidden_under"]
                ),
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
        if "revealed" in record:  # X77: the Tavern's and the Yard Sale's revealed cards
            tiles[tile]["revealed"] = list(record["revealed"])
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
        shown = DECISIONS[top["kind"]].shown  # public (X77): the tile, names given, and so on
        pending.update({k: _copy(v) for k, v in top.items() if k in shown})
    discard = state["discard"]
    return {
        "version": state["version"],
        "seat": seat,
        "to_act": acting,
        "legal_actions": _listed(state, seat) if seat in acting else [],  # not kept (`_legal`)
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
    solo_focus = state["solo"]["public_library_focus"] if _solo(state) else None
    return scored(entries, state["discard"], state["prominent"], state["banned"], solo_focus)


def scored(
    entries: list[dict], discard: list, prominent: str, banned: str, solo_focus: str | None
) -> dict:
    """`result` from the pieces it reads: each seat's bookshelf, focus, hand and pre-flips, the
    discard pile, Prominent and Banned, and the Public Library's focus in a solo game (None
    otherwise). Every one of them is public once the game is over (X77), so a finished view
    gives the same result (the site's presenter reads it there)."""
    if solo_focus is not None:
        working = scoring.solo_inspection(entries[0], discard, solo_focus, prominent, banned)
        wins = working["player_wins"]
        # X84: the player against the Public Library; places rank the seats (protocol), so the
        # one seat is placed 1, and a loss to the Public Library is no winner.
        return {
            "players": [{"seat": 0, "place": 1, "total": working["player"]["total"]}],
            "winners": [0] if wins else [],
            "solo": True,
            "inspection": working,
        }
    working = scoring.inspect(entries, prominent, banned)
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
    # X51: revealed hand cards are known to all and stay where they are.
    shown = {card for record in new["tiles"].values() for card in record.get("revealed", [])}
    pool = list(new["deck"]) + [c for r in others for c in r["hand"] if c not in shown]
    pool += [new["tiles"][tile]["cards"][i]["card"] for tile, i in face_down]
    # X56, X77: a card another seat's Mummy put straight under another is its secret, under its
    # stack or left alone face down (X90.3).
    entombed = [
        (record, stack, place)
        for record in others
        for stack in record["bookshelf"].values()
        for place in ("top", "under")
        if stack[place] in record["hidden_under"] and (place == "under" or not stack["up"])
    ]
    pool += [stack[place] for _, stack, place in entombed]
    rng.shuffle(pool)
    for record in others:
        kept = [card for card in record["hand"] if card in shown]
        size = len(record["hand"]) - len(kept)
        record["hand"], pool = kept + pool[:size], pool[size:]
    for tile, i in face_down:
        new["tiles"][tile]["cards"][i]["card"] = pool.pop()
    for record, stack, place in entombed:
        hidden = record["hidden_under"]
        where = hidden.index(stack[place])
        stack[place] = hidden[where] = pool.pop()
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
