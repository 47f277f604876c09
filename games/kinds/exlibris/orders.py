"""Ex Libris' standing orders: the answers a player may give in advance to the decisions other
players' moves ask of them, where the answer is one they can choose before seeing the move:
passing at an opponent's Yard Sale (X51), and what their Sasquatch does when an opponent
arrives on its location (X58). Each reads its seat's own view only and lasts the round it was
given in, the round in which the player placed their assistants knowing where they stand.
"""

from django.utils.translation import gettext, pgettext_lazy

from games.kinds.registry import OrderKind, OrderRefused, Play, Stop

ROUND_OVER = pgettext_lazy("standing order stopped", "the round ended")


def _start(view: dict, params: dict) -> dict:
    if view["phase"] == "over" or view["players"] < 2:
        raise OrderRefused(gettext("no other player's move can ask you anything now"))
    return {"round": view["round"]}


def _sasquatch_start(view: dict, params: dict) -> dict:
    """X58: only the Sasquatch's owner is asked what it does."""
    if view["seats"][view["seat"]]["special_assistant"] != "sasquatch":
        raise OrderRefused(gettext("you have no Sasquatch"))
    return _start(view, params)


def _answer(decision: str, action: dict):
    """An order that answers `decision` with `action` whenever its seat is asked it, until the
    round it was given in ends."""

    def decide(view: dict, params: dict, anchor: dict) -> Play | Stop | None:
        if view["round"] != anchor["round"]:
            return Stop("round_over")
        asked = (view["pending"] or {}).get("kind") == decision
        return Play(action) if asked and action in view["legal_actions"] else None

    return decide


def _words(text):
    """An order's words, which take no parameters, in the active language."""
    return lambda params: str(text)


YARD_PASS = OrderKind(
    slug="yard_pass",
    label=pgettext_lazy("standing order", "Pass at the other players' Yard Sales this round"),
    params=(),
    words=_words(
        pgettext_lazy(
            "standing order",
            "Pass whenever another player's Yard Sale offers you its cards; "
            "stops when the round ends.",
        )
    ),
    start=_start,
    decide=_answer("yard_claim", {"type": "pass"}),  # X51: a pass, not final: the next lap asks
    reasons={"round_over": ROUND_OVER},
)

SASQUATCH_STAYS = OrderKind(
    slug="sasquatch_stay",
    label=pgettext_lazy("standing order", "Leave my Sasquatch where it is this round"),
    params=(),
    words=_words(
        pgettext_lazy(
            "standing order",
            "Leave your Sasquatch on its location when an opponent's assistant arrives there; "
            "stops when the round ends.",
        )
    ),
    start=_sasquatch_start,
    decide=_answer("sasquatch", {"type": "stay"}),  # X58
    reasons={"round_over": ROUND_OVER},
)

SASQUATCH_RETURNS = OrderKind(
    slug="sasquatch_back",
    label=pgettext_lazy("standing order", "Take my Sasquatch back when someone arrives"),
    params=(),
    words=_words(
        pgettext_lazy(
            "standing order",
            "Take your Sasquatch back to your supply when an opponent's assistant arrives on its "
            "location; stops when the round ends.",
        )
    ),
    start=_sasquatch_start,
    decide=_answer("sasquatch", {"type": "take_back"}),  # X58, X24
    reasons={"round_over": ROUND_OVER},
)

ORDERS = (YARD_PASS, SASQUATCH_STAYS, SASQUATCH_RETURNS)
