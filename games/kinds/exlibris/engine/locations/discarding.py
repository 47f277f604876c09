"""The locations whose effect starts with "discard any number of cards" (X30, X87): the
Bindery (X38), the Well (X40) and the Book Collector (X43)."""

from .. import bookshelf as bs
from ..cards import CARDS
from ..decisions import decision, effect
from ..shelving import _may_shelve
from ..state import _draw, _event, _push, _seat, _top


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
