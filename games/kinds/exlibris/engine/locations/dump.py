"""The Town Dump (X45), resolved at Resolution once per assistant."""

from ..cards import CARDS, CATEGORIES
from ..decisions import decision, delayed
from ..shelving import _may_shelve
from ..state import _event, _gained, _push, _seat


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
