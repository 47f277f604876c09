"""The locations whose effect takes cards of the tile (X29): the Swap Meet (X36), the
Community Library (X39), the Bookshop (X44) and the Flea Market (X48)."""

from ..decisions import decision, effect
from ..shelving import _may_shelve
from ..state import _event, _gained, _occupants, _opponents, _push, _seat, _tile


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
