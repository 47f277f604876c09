"""The Tax Collector (X50): each opponent pays a card, then your exchanges."""

from .. import bookshelf as bs
from ..decisions import decision, effect
from ..shelving import _may_shelve
from ..state import _event, _gained, _opponents, _push, _seat, _tile


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
