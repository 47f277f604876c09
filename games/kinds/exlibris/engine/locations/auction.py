"""The Auction House (X37), resolved at Resolution."""

from ..decisions import decision, delayed
from ..shelving import _may_shelve
from ..state import _event, _gained, _push, _seat, _tile


@delayed("auction")
def _auction(state: dict, seat: int) -> None:
    """X37 at Resolution: with cards here, the bidder pays exactly the bid in hand cards, one
    at a time (their choice, compulsory), then takes every card here and may shelve any; a
    bidder holding fewer cards than the bid pays nothing and gets nothing (A-22)."""
    record = state["tiles"]["auction"]
    bid = next(n for n, holder in enumerate(record["slots"], start=1) if holder is not None)
    if not record["cards"]:
        return
    if len(state["seats"][seat]["hand"]) < bid:
        _event(state, "auction_unpaid", seat=seat, bid=bid, rule="X37")
        return
    _push(state, "auction_pay", seat=seat, left=bid, rule="X37")


def _auction_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "pay", "card": card} for card in state["seats"][seat]["hand"]]


@decision("auction_pay", rule="X37", choices=_auction_choices)
def _do_auction_pay(state: dict, seat: int, action: dict) -> None:
    """X37, X30: one more hand card to the discard pile, face up (X77: the payment is public);
    after the last, the bidder takes every card here and may shelve any of them."""
    top = state["pending"].pop()
    card = action["card"]
    _seat(state, seat)["hand"].remove(card)
    state["discard"].append(card)
    _event(state, "discarded", seat=seat, card=card, source="hand", rule="X37")
    if top["left"] > 1:
        state["pending"].append({**top, "left": top["left"] - 1})
        return
    record = _tile(state, "auction")
    won = [entry["card"] for entry in record["cards"]]
    record["cards"] = []
    _seat(state, seat)["hand"] += won
    _gained(state, seat, won)
    _event(state, "took", seat=seat, tile="auction", cards=won, rule="X37")
    _may_shelve(state, seat, won, len(won), "X37")
