"""The Ex Libris state, and the helpers every step uses to read and change it.

A state is one plain JSON dict (`State`). A move copies only the records it changes
(`_next_state`, `_seat`, `_tile`). Chance comes only from the seed and a counter kept in the
state (`_rng`, X86). Cards are drawn here (X31), and every card an effect gives goes through
`_gained`, for the Witch (X64). Who is on a tile, and which slot is free, are read here too
(X21, X60).
"""

import random
from collections.abc import Iterable

from .cards import CARDS, LOCATIONS
from .setup import PLAYER_COUNTS

HOME_SPACES = 3  # X5, X21: a library's home spaces
HUT = "hut"


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
    # Its lists of strings, spelt out (no loop: this runs at most moves); its other values are
    # scalars, or values never changed in place (`_next_state`).
    copied["hand"] = record["hand"][:]
    copied["supply"] = record["supply"][:]
    copied["home"] = record["home"][:]
    copied["set_aside"] = record["set_aside"][:]
    copied["placed_this_round"] = record["placed_this_round"][:]
    copied["hidden_under"] = record["hidden_under"][:]
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


def _empty_tile(tile: str) -> dict:
    """A face-up tile: its book cards ({"card", "up"}) and one entry per slot (X4)."""
    return {"cards": [], "slots": [None] * len(LOCATIONS[tile].slot_gates)}


def _locations(state: dict) -> dict:
    """The location lists, copied for a change (only Preparation, Restoration and the solo
    removal change them, once a round)."""
    locations = state["locations"] = {key: tiles[:] for key, tiles in state["locations"].items()}
    return locations


def _libraries(state: dict) -> dict:
    """The library lists, copied for a change (the draft only)."""
    libraries = state["libraries"] = {key: libs[:] for key, libs in state["libraries"].items()}
    return libraries


# ------------------------------------------------------- chance, events and the stack of decisions


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


# ------------------------------------------------------------------ cards drawn and revealed (X31)


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


def _reveal(state: dict, count: int) -> list[str]:
    """Up to `count` cards off the deck, face up (X31: fewer when none can come)."""
    revealed = []
    for _ in range(count):
        card = _draw_card(state)
        if card is None:
            break
        revealed.append(card)
    return revealed


# --------------------------------------------------- seats and tiles: who is where (X21, X33, X60)


def _opponents(state: dict, seat: int) -> list[int]:
    """X33: every opponent, clockwise from the active player's left."""
    players = state["players"]
    return [(seat + k) % players for k in range(1, players)]


def _clockwise_from(state: dict, seat: int, seats: Iterable[int]) -> list[int]:
    """`seats` in turn order, starting with `seat` (X33)."""
    players = state["players"]
    return sorted(seats, key=lambda other: (other - seat) % players)


def _seats_at(state: dict, tile: str) -> set[int]:
    """The seats with an assistant on `tile` (a sharing Ghost included, X60)."""
    return {entry["seat"] for entry in _occupants(state, tile)}


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


def _holders(record: dict) -> list[dict]:
    """Every assistant on a tile's record, as `_occupants` but in no particular order and not
    copied: the slot holders, then a Ghost sharing a slot (X60)."""
    here = [holder for holder in record["slots"] if holder is not None]
    if "shared" in record:
        here += record["shared"]
    return here


# X4, X21: the slot numbers each tile offers, per player count (`Location.slots`, computed once).
_USABLE_SLOTS = {
    (tile, players): location.slots(players)
    for tile, location in LOCATIONS.items()
    for players in PLAYER_COUNTS
}


_INSTANT = frozenset(tile for tile, location in LOCATIONS.items() if location.timing == "instant")


_BIDDING = frozenset(tile for tile, location in LOCATIONS.items() if location.bids)  # X37


def _free_slot(state: dict, tile: str) -> int | None:
    """X21: the lowest-numbered free slot whose gate the player count reaches (X4)."""
    slots = state["tiles"][tile]["slots"]
    for number in _USABLE_SLOTS[tile, state["players"]]:
        if slots[number - 1] is None:
            return number
    return None


# ------------------------------------ the powers over what a seat shelves or gains (X53, X64, X81)

SHELVING_POWERS = ("mummy", "wizard")  # X56, X63: a shelving may stack or push
DRIVEN_POWERS = (*SHELVING_POWERS, "witch")  # X53, X81: powers over what their assistant drives


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


def _power(state: dict, seat: int) -> str | None:
    """X53, X81: the Mummy's, Wizard's or Witch's power when it acts on what `seat` shelves or
    acquires now: its own assistant drives the effect under way, or the table plays owner-wide
    powers."""
    special = state["seats"][seat]["special_assistant"]
    driven = special in state["drivers"] or state["options"]["owner_wide_powers"]
    return special if special in DRIVEN_POWERS and special in POWERS and driven else None


def _gained(state: dict, seat: int, cards: list[str]) -> None:
    """X64: cards an effect just gave `seat` (drawn, taken, won, stolen or received); those
    holding a Banned book wait for the Witch's power when it applies (`_witch_flush`)."""
    if _power(state, seat) == "witch":
        banned = state["banned"]
        state["witch_queue"] = state["witch_queue"] + [
            {"seat": seat, "card": card} for card in cards if banned in CARDS[card].books
        ]
