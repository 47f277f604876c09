"""The Yard Sale (X51): hand cards revealed, claimed by the opponents lap after lap."""

from ..decisions import decision, effect, then
from ..shelving import _may_shelve
from ..state import _draw, _event, _gained, _opponents, _power, _push, _seat, _tile


@effect("yard_sale")
def _yard_sale(state: dict, seat: int) -> None:
    """X51: reveal 1 or more hand cards, one at a time (X87); an empty hand does nothing
    (X34). The revealed cards lie on the tile's record for all to see (X77), still yours."""
    if state["seats"][seat]["hand"]:
        _tile(state, "yard_sale")["revealed"] = []
        _push(state, "yard_reveal", seat=seat, rule="X51")


def _yard_reveal_choices(state: dict, seat: int, top: dict) -> list[dict]:
    revealed = state["tiles"]["yard_sale"]["revealed"]
    actions = [
        {"type": "reveal", "card": card}
        for card in state["seats"][seat]["hand"]
        if card not in revealed
    ]
    return actions + ([{"type": "done"}] if revealed else [])


@decision("yard_reveal", rule="X51", choices=_yard_reveal_choices)
def _do_yard_reveal(state: dict, seat: int, action: dict) -> None:
    """X51: one more card shown to all, or done; then the opponents' laps, from your left."""
    state["pending"].pop()
    if action["type"] == "reveal":
        revealed = _tile(state, "yard_sale")["revealed"]
        revealed.append(action["card"])
        _event(state, "revealed", seat=seat, tile="yard_sale", cards=[action["card"]], rule="X51")
        if len(revealed) < len(state["seats"][seat]["hand"]):
            _push(state, "yard_reveal", seat=seat, rule="X51")
            return
    opponents = _opponents(state, seat)
    _push(
        state,
        "yard_claim",
        seat=opponents[0],
        seller=seat,
        turn=0,
        lap_claimed=False,
        claimed=0,
        rule="X51",
    )


def _yard_claim_choices(state: dict, seat: int, top: dict) -> list[dict]:
    revealed = state["tiles"]["yard_sale"]["revealed"]
    actions = [{"type": kind, "card": card} for card in revealed for kind in ("take", "shelve")]
    return actions + [{"type": "pass"}]


@decision("yard_claim", rule="X51", choices=_yard_claim_choices, shown=("seller",))
def _do_yard_claim(state: dict, seat: int, action: dict) -> None:
    """X51: take a revealed card into hand, shelve one straight into your bookshelf (its cell
    next), or pass. Laps go on, clockwise from the seller's left, until no revealed card is
    left or a whole lap is all passes; then, per card claimed, the seller draws 2 and may
    shelve 1 card from hand."""
    top = state["pending"].pop()
    claimed, lap_claimed = top["claimed"], top["lap_claimed"]
    if action["type"] != "pass":
        card = action["card"]
        _tile(state, "yard_sale")["revealed"].remove(card)
        _seat(state, top["seller"])["hand"].remove(card)
        _seat(state, seat)["hand"].append(card)  # a shelving goes through the hand (X14)
        kind = "claimed_to_shelve"
        if action["type"] == "take":  # X64: a card taken, not one shelved at once
            kind = "took"
            _gained(state, seat, [card])
        _event(state, kind, seat=seat, tile="yard_sale", card=card, rule="X51")
        claimed, lap_claimed = claimed + 1, True
    opponents = _opponents(state, top["seller"])
    turn = top["turn"] + 1
    lap_over = turn % len(opponents) == 0
    if state["tiles"]["yard_sale"]["revealed"] and not (lap_over and not lap_claimed):
        state["pending"].append(
            {
                **top,
                "seat": opponents[turn % len(opponents)],
                "turn": turn,
                "lap_claimed": lap_claimed and not lap_over,
                "claimed": claimed,
            }
        )
    else:
        del _tile(state, "yard_sale")["revealed"]  # the unclaimed cards stay in the seller's hand
        if claimed:
            _push(state, "then", step="yard_reward", seat=top["seller"], left=claimed)
    if action["type"] == "shelve":  # answered before the next opponent is asked (X88)
        power = _power(state, seat)  # X53, X81
        _push(state, "shelve_cell", seat=seat, card=action["card"], rule="X51", power=power)


@then("yard_reward")
def _yard_reward(state: dict, entry: dict) -> None:
    """X51, per card claimed: draw 2, then you may shelve 1 card from hand; again for the next
    card once that shelving is answered."""
    if entry["left"] > 1:
        state["pending"].append({**entry, "left": entry["left"] - 1})
    _draw(state, entry["seat"], 2, "X51")
    _may_shelve(state, entry["seat"], None, 1, "X51")
