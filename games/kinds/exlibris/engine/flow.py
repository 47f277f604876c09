"""The game's flow (X86): the library draft, the round and the end.

`_proceed` runs every step that needs no decision, until one does. A round is Preparation (X19,
X83), Placement (X20), Resolution in tile order (X25, X26) and Restoration (X27, X83). The end
trigger or the round cap makes the next round the final one (X67, X89); the secret pre-scoring
flip follows it (X68).
"""

from . import bookshelf as bs
from .assistants import _golem_turn, _witch_flush
from .cards import LOCATIONS
from .decisions import DELAYED, THEN, decision
from .placement import _may_place
from .setup import SOLO_ROUNDS
from .state import (
    POWERS,
    _draw_card,
    _event,
    _libraries,
    _locations,
    _new_tile,
    _number,
    _push,
    _rng,
    _seat,
    _solo,
    _tile,
)

ROUND_CAP = 30  # X89: no trigger by the Restoration of round 30 makes round 31 the final one


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
    # X19.2: every face-up tile is set up, permanent ones too, in ascending number.
    for tile in state["locations"]["face_up"]:
        location = LOCATIONS[tile]
        for _ in range(location.setup_count):
            card = _draw_card(state)
            if card is None:
                break
            _tile(state, tile)["cards"].append({"card": card, "up": location.setup_face == "up"})


def _assistants(seat: dict) -> list[str]:
    """A seat's assistants that can be placed: its standard ones, and its special one once its
    power is implemented (`POWERS`)."""
    found = [f"standard-{i + 1}" for i in range(seat["standard_assistants"])]
    if seat["special_assistant"] in POWERS:
        found.append(seat["special_assistant"])
    return found


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
