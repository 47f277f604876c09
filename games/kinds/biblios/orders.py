"""Biblios' standing orders: what a player may say in advance about the auctions (R9, R10).

Each order reads its seat's own view only (`engine.view(state, seat)`), so it can act on
nothing the player could not see; it plays only actions the view lists as legal. Both switch
themselves off when what they were given for is over, and tell the player when that happens
before they would have expected it (docs/orders.md).
"""

from django.utils.translation import gettext, pgettext_lazy

from games.kinds.registry import OrderKind, OrderParam, OrderRefused, Play, Stop

PASS = {"type": "pass"}


def _bidding_now(view: dict) -> bool:
    """Whether the seat is asked to bid or pass now (R9)."""
    return PASS in view["legal_actions"]


# ------------------------------------------------------------ bid up to N for this card


def _bid_words(params: dict) -> str:
    return gettext(
        "Bid up to %(limit)s for this card, else pass; stops if another card comes up "
        "or someone bids more than %(limit)s."
    ) % {"limit": params["limit"]}


def _bid_start(view: dict, params: dict) -> dict:
    auction = view["auction"]
    if view["phase"] != "auction" or auction is None:
        raise OrderRefused(gettext("no card is up for auction now"))
    if (view["awaiting"] or {}).get("step") != "bid" or view["seat"] in auction["passed"]:
        raise OrderRefused(gettext("the bidding on this card is over for you"))
    if auction["high_bid"] > params["limit"]:
        raise OrderRefused(
            gettext("the bid is already %(bid)s, above %(limit)s")
            % {"bid": auction["high_bid"], "limit": params["limit"]}
        )
    return {"card": auction["card"]}


def _bid_decide(view: dict, params: dict, anchor: dict) -> Play | Stop | None:
    """R9, R10: raise by one while that stays within the limit, pass once it would not."""
    auction = view["auction"]
    if view["phase"] != "auction" or auction is None or auction["card"] != anchor["card"]:
        return Stop("card_gone")
    awaiting = view["awaiting"] or {}
    if awaiting.get("seat") == view["seat"] and awaiting.get("step") in ("pay", "give"):
        return Stop("won", tell=False)  # R11, R12: paying is the player's own choice
    if auction["high_bid"] > params["limit"]:
        return Stop("outbid")
    if not _bidding_now(view):
        return None
    raised = {"type": "bid", "amount": auction["high_bid"] + 1}
    if raised["amount"] <= params["limit"] and raised in view["legal_actions"]:
        return Play(raised)
    return Play(PASS, last=True)  # a pass is final for this card (R9)


BID_UP_TO = OrderKind(
    slug="bid_up_to",
    label=pgettext_lazy("standing order", "Bid up to N for this card, else pass"),
    params=(OrderParam("limit", pgettext_lazy("standing order", "Highest bid"), minimum=1),),
    words=_bid_words,
    start=_bid_start,
    decide=_bid_decide,
    reasons={
        "card_gone": pgettext_lazy("standing order stopped", "another card came up"),
        "outbid": pgettext_lazy("standing order stopped", "someone bid more than %(limit)s"),
        "won": pgettext_lazy("standing order stopped", "you won the card: the payment is yours"),
    },
)


# ------------------------------------------------------ pass in the auctions of this round


def _round_words(params: dict) -> str:
    return gettext(
        "Pass on every card auctioned in this round; stops when the round ends "
        "(once each player has put up a card)."
    )


def _round_start(view: dict, params: dict) -> dict:
    """R9: the auctioneers take turns from the first player; the round ends once the last of
    them has put up a card, which the auction pile's size tells: this order remembers the size
    below which a card of the next round has come up."""
    if view["phase"] != "auction":
        raise OrderRefused(gettext("the auctions have not started"))
    players = view["num_players"]
    turn = (view["active"] - view["first_player"]) % players
    return {"pile": view["auction_pile_size"] - (players - 1 - turn)}


def _round_decide(view: dict, params: dict, anchor: dict) -> Play | Stop | None:
    if view["phase"] != "auction":
        return Stop("auctions_over", tell=False)
    if view["auction_pile_size"] < anchor["pile"]:
        return Stop("round_over")
    return Play(PASS) if _bidding_now(view) else None


PASS_ROUND = OrderKind(
    slug="pass_round",
    label=pgettext_lazy("standing order", "Pass in the auctions of this round"),
    params=(),
    words=_round_words,
    start=_round_start,
    decide=_round_decide,
    reasons={
        "round_over": pgettext_lazy("standing order stopped", "the round of auctions ended"),
        "auctions_over": pgettext_lazy("standing order stopped", "the auctions are over"),
    },
)

ORDERS = (BID_UP_TO, PASS_ROUND)
