"""The steps many effects ask for: "you may shelve" (X29, X87: a card, then its cell, X14;
the Mummy's and the Wizard's ways too, X56, X63), and the home actions (X22, X32)."""

from . import bookshelf as bs
from . import shelf_moves
from .decisions import decision
from .state import _draw, _event, _power, _push, _seat


def _may_shelve(state: dict, seat: int, cards: list[str] | None, left: int, rule: str) -> None:
    """X29, X87: "you may shelve" up to `left` of `cards` (None: any hand card), asked only when
    one of them is in hand."""
    hand = state["seats"][seat]["hand"]
    if left > 0 and hand and (cards is None or not set(cards).isdisjoint(hand)):
        _push(state, "shelve_card", seat=seat, cards=cards, left=left, rule=rule)


def _home_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X22: draw, shelve (with a hand card) or nothing; X32: both home actions, part by part,
    or done."""
    parts = top.get("parts") or ("draw", "shelve")
    actions = [{"type": "draw"}] if "draw" in parts else []
    if state["seats"][seat]["hand"] and "shelve" in parts:
        actions.append({"type": "shelve"})
    return actions + [{"type": "nothing" if top.get("parts") is None else "done"}]


@decision("home", rule="X22", choices=_home_choices)
def _do_home(state: dict, seat: int, action: dict) -> None:
    """X22: draw 1 card, or shelve 1 card from hand (then which card and where), or nothing.
    X32: for "both home actions", the part not yet taken is asked again, or done."""
    top = state["pending"].pop()
    rest = [part for part in top.get("parts") or () if part != action["type"]]
    if action["type"] == "draw":
        _draw(state, seat, 1, top["rule"])
        if rest and state["seats"][seat]["hand"]:  # X87: the shelving needs a hand card
            _push(state, "home", seat=seat, rule=top["rule"], parts=rest)
    elif action["type"] == "shelve":
        if rest:  # under the shelving: asked once it is settled (X88)
            _push(state, "home", seat=seat, rule=top["rule"], parts=rest)
        _push(state, "shelve_card", seat=seat, cards=None, left=1, rule=top["rule"])
    else:
        _event(state, "home_nothing", seat=seat)


def _shelve_card_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X29, X87: one more of the cards the effect lets you shelve (None: any hand card), or
    done."""
    hand = state["seats"][seat]["hand"]
    allowed = set(hand if top["cards"] is None else top["cards"])
    cards = [card for card in hand if card in allowed]
    return [{"type": "shelve", "card": card} for card in cards] + [{"type": "done"}]


@decision("shelve_card", rule="X29", choices=_shelve_card_choices)
def _do_shelve_card(state: dict, seat: int, action: dict) -> None:
    """X29, X87: one more card to shelve (then its cell), or done."""
    top = state["pending"].pop()
    if action["type"] == "done":
        return
    card = action["card"]
    left = top["left"] - 1
    if left > 0:  # X87: one more card is asked only while one is left to choose
        cards = None if top["cards"] is None else [c for c in top["cards"] if c != card]
        hand = [c for c in state["seats"][seat]["hand"] if c != card]
        if hand and (cards is None or not set(cards).isdisjoint(hand)):
            _push(state, "shelve_card", seat=seat, cards=cards, left=left, rule=top["rule"])
    power = _power(state, seat)  # X53: known now, while the effect's drivers are
    _push(state, "shelve_cell", seat=seat, card=card, rule=top["rule"], power=power)


def _shelve_cell_choices(state: dict, seat: int, top: dict) -> list[dict]:
    """X14: an empty cell; X56 the Mummy stacks, X63 the Wizard pushes (6n + 2)."""
    shelf = state["seats"][seat]["bookshelf"]
    actions = [{"type": "cell", "cell": [row, col]} for row, col in bs.shelving_cells(shelf)]
    if top.get("power") == "mummy":
        actions += [
            {"type": "stack", "cell": list(cell), "how": how}
            for cell in bs.stacking_cells(shelf)
            for how in ("on", "under")
        ]
    elif top.get("power") == "wizard":
        actions += [
            {"type": "push", "cell": list(cell), "direction": direction}
            for cell, direction in shelf_moves.push_targets(shelf)
        ]
    return actions


@decision("shelve_cell", rule="X14", choices=_shelve_cell_choices)
def _do_shelve_cell(state: dict, seat: int, action: dict) -> None:
    """X14: the chosen card goes face up into the chosen cell; or the Mummy stacks it (X56: a
    card put straight under is its owner's secret, X77), or the Wizard pushes (X63)."""
    top = state["pending"].pop()
    record = _seat(state, seat)
    card, cell = top["card"], action["cell"]
    shelf = record["bookshelf"]
    how = action.get("how")
    if action["type"] == "push":
        record["bookshelf"] = shelf_moves.push(shelf, card, cell, action["direction"])
        how = action["direction"]
    else:
        record["bookshelf"] = bs.shelve(shelf, card, cell, how)
    record["hand"].remove(card)
    shown = {"secret_to": [seat], "secret": card} if how == "under" else {"card": card}
    if how == "under":
        record["hidden_under"].append(card)
    _event(state, "shelved", seat=seat, cell=cell, how=how, rule=top["rule"], **shown)
