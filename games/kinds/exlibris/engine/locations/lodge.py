"""The Librarians Lodge (X42): an assistant home, and a bookshelf's cards rearranged."""

from .. import bookshelf as bs
from .. import shelf_moves
from ..decisions import decision, effect
from ..state import HOME_SPACES, SHELVING_POWERS, _event, _occupants, _power, _push, _seat, _tile


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
    origins = shelf_moves.reshelve_origins(shelf, _lodge_power(state, seat))
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
        partners = shelf_moves.swap_partners(shelf, top["cell"])
        return [{"type": "swap_with", "cell": list(cell)} for cell in partners]
    origin = top["cell"]
    actions = [{"type": "cell", "cell": list(c)} for c in shelf_moves.reshelve_cells(shelf, origin)]
    if top["power"] == "mummy":  # X56, X90.5: on top of or under a single card (2n)
        actions += [
            {"type": "stack", "cell": list(cell), "how": how}
            for cell in shelf_moves.reshelve_stacking_cells(shelf, origin)
            for how in ("on", "under")
        ]
    elif top["power"] == "wizard":  # X63, X90.5: a push on the lifted bookshelf (4n)
        actions += [
            {"type": "push", "cell": list(cell), "direction": direction}
            for cell, direction in shelf_moves.reshelve_pushes(shelf, origin)
        ]
    return actions


@decision("lodge_exchange", rule="X42", choices=_lodge_second_choices, shown=("cell",))
def _do_lodge_exchange(state: dict, seat: int, action: dict) -> None:
    """X42 (b): the hand card takes the cell, face up (the under card stays entombed); the top
    card goes to hand. Both cards are public (X77: top cards are)."""
    top = state["pending"].pop()
    record = _seat(state, seat)
    record["bookshelf"], old = shelf_moves.swap_with_hand(
        record["bookshelf"], top["cell"], action["card"]
    )
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
    record["bookshelf"] = shelf_moves.swap_cells(record["bookshelf"], top["cell"], action["cell"])
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
        record["bookshelf"] = shelf_moves.reshelve_push(shelf, origin, cell, action["direction"])
        how = action["direction"]
    else:
        how = action.get("how")
        record["bookshelf"] = shelf_moves.reshelve(shelf, origin, cell, how)
    _event(state, "reshelved", seat=seat, origin=origin, cell=cell, how=how, rule="X42")
