"""The Friendly Tavern (X46), resolved at Resolution."""

from ..decisions import decision, delayed
from ..shelving import _may_shelve
from ..state import _copy, _event, _gained, _push, _reveal, _seat, _tile


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
