"""The Cabin in the Woods (X47): a category named, the face-down cards looked at."""

from ..cards import CARDS, CATEGORIES
from ..decisions import decision, effect
from ..shelving import _may_shelve
from ..state import _event, _gained, _push, _seat, _tile


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
