"""Ex Libris' Sasquatch orders (X58) on the engine's own position from the rules' tests: an
opponent arrives on the Sasquatch's location, and the order answers for its owner from their
view; the orders are refused to a player without a Sasquatch and end with their round."""

import pytest

from games.kinds.exlibris import engine as E
from games.kinds.exlibris.orders import SASQUATCH_RETURNS, SASQUATCH_STAYS, YARD_PASS
from games.kinds.registry import OrderRefused, Play, Stop
from tests.kinds.exlibris.engine.helpers import act, decline, only, pending_kind
from tests.kinds.exlibris.engine.test_powers import place, put, table


def sasquatch_asked():
    """X58: seat 0's Sasquatch on the Flea Market; seat 1 arrives there: seat 0 is asked."""
    state = table({0: "sasquatch"}, players=4, tiles=["flea", "bookshop"])
    put(state, 0, "standard-1", "flea")
    state = place(state, 0, "special", "flea")
    while only(state) == 0:
        state = act(state, *decline(state))
    given = E.view(state, 0)  # the order is given once seat 0's own move is done
    state = place(state, 1, "standard", "flea")
    assert pending_kind(state) == "sasquatch" and only(state) == 0
    return given, state


@pytest.mark.parametrize(
    ("order", "answer"),
    [(SASQUATCH_STAYS, {"type": "stay"}), (SASQUATCH_RETURNS, {"type": "take_back"})],
)
def test_x58_a_sasquatch_order_answers_for_its_owner_when_an_opponent_arrives(order, answer):
    given, asked = sasquatch_asked()
    anchor = order.start(given, {})
    assert order.decide(given, {}, anchor) is None  # nobody has arrived yet
    assert order.decide(E.view(asked, 0), {}, anchor) == Play(answer)
    assert answer in E.legal_actions(asked, 0)
    later = {**E.view(asked, 0), "round": given["round"] + 1}
    assert order.decide(later, {}, anchor) == Stop("round_over")
    with pytest.raises(OrderRefused, match="no Sasquatch"):
        order.start(E.view(asked, 1), {})  # seat 1 has none


def test_x51_the_yard_sale_order_waits_on_other_decisions():
    given, asked = sasquatch_asked()
    anchor = YARD_PASS.start(given, {})
    assert YARD_PASS.decide(E.view(asked, 0), {}, anchor) is None  # a Sasquatch, not a sale
