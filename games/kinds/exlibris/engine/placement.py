"""Placement (X20, X21): where a seat may place an assistant now, and the placement itself.

The Snowman, the Ghost and the Sasquatch restrict it (`_may_enter`: X58, X60, X61); the
Auction House's placements name a bid (X37).
"""

from .assistants import _arrive
from .cards import LOCATIONS
from .decisions import EFFECTS, decision
from .state import _BIDDING, _INSTANT, _USABLE_SLOTS, HOME_SPACES, HUT, POWERS, _seat


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
                found.append(_PLACE[kind, tile].copy())
                if assistant == "ghost":  # X60: or share an occupied slot
                    found += _ghost_shares(state, tile)
        if len(record["home"]) < HOME_SPACES:
            found.append(_PLACE[kind, "library"].copy())
    return found


# The plain placements (no bid, no shared slot), built once: `_placements` lists copies, which
# `dict.copy` makes faster than building them anew (a placement lists ten or twenty).
_PLACE = {
    (kind, target): {"type": "place", "assistant": kind, "target": target}
    for kind in ("standard", "special")
    for target in (*LOCATIONS, "library")
}


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
