"""Biblios' presenter: a view of the engine turned into the template context of its board.

The platform (`games.rendering`, the replay viewer, the admin's inspector) calls `view_context`
with any view of a Biblios game (a seat's, a spectator's, a replayed step's or "all") and
renders `biblios/board.html`'s partials with it; everything here is read from that view, so a
board can only show what the view's seat may know (R1, R22).
"""

from collections import defaultdict

from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from games.kinds.biblios import presentation
from games.kinds.biblios.engine.cards import CATEGORIES, CATEGORY, KIND, LETTER, VALUE, letter_rank
from games.kinds.biblios.names import category_label, dice_list, gold_label

PLACE_LABELS = {
    "self": gettext_lazy("Keep it for yourself (face down)"),
    "auction": gettext_lazy("Put it on the auction pile (face down)"),
    "public": gettext_lazy("Offer it in the public space (face up)"),
}

AWAITING_WORDS = {
    "place": gettext_lazy("place a drawn card"),
    "pick": gettext_lazy("pick a card from the public space"),
    "church": gettext_lazy("resolve a church card"),
    "bid": gettext_lazy("bid or pass"),
    "pay": gettext_lazy("pay for the card won"),
    "give": gettext_lazy("discard cards for the Gold card won"),
}

# A place at the end of a game (the games have at most four players).
PLACE_WORDS = {
    1: pgettext_lazy("place in a game", "1st"),
    2: pgettext_lazy("place in a game", "2nd"),
    3: pgettext_lazy("place in a game", "3rd"),
    4: pgettext_lazy("place in a game", "4th"),
}

# What refusing to pay costs (R14, or R15 with the Medieval bluff option), for the bid warning.
PENALTY_WORDS = {
    "standard": gettext_lazy(
        "each other player takes a random card from your hand, and the card is auctioned again "
        "without you"
    ),
    "bluff": gettext_lazy(
        "the player on your left draws a random card from your hand and it leaves the game, and "
        "the card is auctioned again without you"
    ),
}


def view_context(game, view: dict, names: list[str], *, connected=None) -> dict:
    """Template context for the board regions of any `view` of `game` (all but the log).

    The live board passes the user's current view; the replay viewer and the admin inspector
    pass the view of a replayed step, so every board is drawn by the same partials.
    `connected`: the seats with a live connection, or None when unknown (no presence shown).
    """
    seat = view["seat"]
    edition = view["edition"]
    context = {
        "game": game,
        "view": view,
        "me": seat,
        "names": names,
        "edition": edition,
        "players": _players(view, names, connected),
        "dice": [
            {"category": category, "name": category_label(category, edition), "value": value}
            for category, value in view["dice"].items()
        ],
        "banner": _banner(view, names),
        "auction": _auction(view, names),
        "hand": hand_groups(view["hand"], edition) if view["hand"] is not None else None,
        "actions": _actions(view, edition),
        "score": _score(view, names, edition),
    }
    if "open_hands" in view:  # a finished game's replay with every hand open
        context["open_hands"] = [
            {"name": names[seat], **hand} for seat, hand in enumerate(view["open_hands"])
        ]
    if seat == "all":  # the admin's inspector: every card, wherever it is
        zones = view["zones"]
        context["all_hands"] = list(zip(names, zones["hands"], strict=True))
        context["zones"] = [(name, cards) for name, cards in zones.items() if name != "hands"]
    return context


def hand_groups(hand: list[str], edition: str) -> dict:
    """A hand grouped by category in Scriptorium order, with totals and best letters, plus Gold."""
    groups = []
    for category in CATEGORIES:
        held = [card for card in hand if CATEGORY[card] == category]
        letters = [LETTER[card] for card in held]
        groups.append(
            {
                "category": category,
                "name": category_label(category, edition),
                "cards": held,
                "total": sum(VALUE[card] for card in held),
                "best_letter": min(letters, key=letter_rank) if letters else None,
            }
        )
    gold = [card for card in hand if KIND[card] == "gold"]
    return {"categories": groups, "gold": gold, "gold_total": sum(VALUE[card] for card in gold)}


def least_overpay(payments: list[list[str]]) -> list[str]:
    """The listed payment that overpays least (lowest total), then uses the fewest cards."""
    if not payments:
        return []
    return min(payments, key=lambda cards: (sum(VALUE[card] for card in cards), len(cards)))


def _church_uses_by_delta(uses: list[dict], edition: str) -> list[dict]:
    """The church card's uses as one form per direction (`delta`), each use a button whose
    value names its dice, comma-separated (`forms.parse_action`), in the engine's order."""
    forms: dict[int, list[dict]] = {}
    for action in uses:
        label = _church_label(action["dice"], action["delta"], edition)
        forms.setdefault(action["delta"], []).append(
            {"dice": ",".join(action["dice"]), "label": label}
        )
    return [{"delta": delta, "uses": buttons} for delta, buttons in forms.items()]


def _players(view: dict, names: list[str], connected) -> list[dict]:
    awaiting = view["awaiting"]
    players = []
    for seat, name in enumerate(names):
        doing = ""
        if awaiting and awaiting["seat"] == seat:
            doing = AWAITING_WORDS[awaiting["step"]]
        players.append(
            {
                "seat": seat,
                "name": name,
                "hand_size": view["hand_sizes"][seat],
                "is_me": seat == view["seat"],
                "is_active": seat == view["active"] and view["phase"] != "over",
                "doing": doing,
                "connected": None if connected is None else seat in connected,
            }
        )
    return players


def _banner(view: dict, names: list[str]) -> dict:
    """Who acts and what is awaited, with the phase and its active player and help for the step."""
    awaiting = view["awaiting"]
    if awaiting is None:
        return {"mine": False, "text": _end_text(view, names), "step": "over"}
    step, seat = awaiting["step"], awaiting["seat"]
    turn = {
        "step": step,
        "awaiting_name": names[seat],
        "phase_line": _phase_line(view, names),
        "help": presentation.step_help(step),
    }
    if seat != view["seat"]:
        text = gettext("Waiting for %(player)s to %(doing)s.")
        values = {"player": names[seat], "doing": AWAITING_WORDS[step]}
        return {**turn, "mine": False, "text": text % values}
    if step == "pay":
        text = gettext("You won the auction: pay at least %(amount)s in Gold.") % {
            "amount": awaiting.get("amount")
        }
    elif step == "give":
        remaining = awaiting.get("remaining")
        text = ngettext(
            "You won the Gold card: discard %(count)s more card face down.",
            "You won the Gold card: discard %(count)s more cards face down.",
            remaining,
        ) % {"count": remaining}
    else:
        text = {
            "place": gettext("Your turn: place this card."),
            "pick": gettext("Your turn: pick a card from the public space."),
            "church": gettext("Your turn: use your church card, or don't."),
            "bid": gettext("Your turn: bid or pass."),
        }[step]
    return {**turn, "mine": True, "text": text}


def _end_text(view: dict, names: list[str]) -> str:
    """Who won and, to a player, where they finished ("Alice wins. You finished 2nd of 3.");
    a spectator (or the inspector) reads only the winners."""
    result = view["result"]  # every view of a finished game has it
    winners = result["winners"]
    seat = view["seat"]
    seated = isinstance(seat, int) and not isinstance(seat, bool)
    if seated and seat in winners:
        others = [names[winner] for winner in winners if winner != seat]
        if not others:
            return gettext("You win!")
        return gettext("You share the win with %(names)s.") % {"names": ", ".join(others)}
    if len(winners) == 1:
        text = gettext("%(name)s wins.") % {"name": names[winners[0]]}
    else:
        text = gettext("Shared win: %(names)s.") % {
            "names": ", ".join(names[winner] for winner in winners)
        }
    if not seated:
        return text
    place = result["players"][seat]["place"]
    finished = gettext("You finished %(place)s of %(count)s.") % {
        "place": PLACE_WORDS.get(place, place),
        "count": len(names),
    }
    return f"{text} {finished}"


def _phase_line(view: dict, names: list[str]) -> str:
    """The phase and its active player: the one giving out cards, or auctioning."""
    active = names[view["active"]] if view["active"] is not None else ""
    if view["phase"] == "gift" and view["edition"] == "scripts_and_scribes":
        return gettext("Donation phase: %(player)s draws and gives out cards.") % {"player": active}
    if view["phase"] == "gift":
        return gettext("Gift phase: %(player)s draws and gives out cards.") % {"player": active}
    return gettext("Auction phase: %(player)s auctions a card.") % {"player": active}


def _auction(view: dict, names: list[str]) -> dict | None:
    auction = view["auction"]
    if auction is None:
        return None
    return {
        **auction,
        "auctioneer_name": names[auction["auctioneer"]],
        "high_bidder_name": (
            names[auction["high_bidder"]] if auction["high_bidder"] is not None else None
        ),
        "bid_lines": [
            {"name": names[seat], "amount": amount, "is_me": seat == view["seat"]}
            for seat, amount in auction["bids"]
        ],
        "passed_names": [names[seat] for seat in auction["passed"]],
        "excluded_names": [names[seat] for seat in auction["excluded"]],
        "unit": pgettext_lazy("bid unit", "cards") if auction["gold"] else gold_label(),
    }


def _actions(view: dict, edition: str) -> dict:
    """The legal actions grouped into the forms the page offers."""
    by_type = defaultdict(list)
    for action in view["legal_actions"]:
        by_type[action["type"]].append(action)
    actions = {"any": bool(view["legal_actions"])}
    if by_type["place"]:
        actions["place"] = [
            {"to": action["to"], "label": PLACE_LABELS[action["to"]]} for action in by_type["place"]
        ]
        actions["drawing"] = view["gift"]["drawing"]
    if by_type["pick"]:
        actions["pick"] = [action["card"] for action in by_type["pick"]]
    if by_type["use_church"] or by_type["discard_church"]:
        actions["church"] = {
            "card": view["church"]["card"] if view["church"] else None,
            "by_delta": _church_uses_by_delta(by_type["use_church"], edition),
            "discard": bool(by_type["discard_church"]),
        }
    if by_type["bid"]:
        actions["bid"] = _bid(view, [action["amount"] for action in by_type["bid"]])
    actions["pass"] = bool(by_type["pass"])
    if by_type["pay"]:
        hand = view["hand"] or []
        actions["pay"] = {
            "gold": [card for card in hand if KIND[card] == "gold"],
            "selected": least_overpay([action["cards"] for action in by_type["pay"]]),
            "amount": view["awaiting"]["amount"],
        }
    if by_type["give"]:
        actions["give"] = {
            "cards": [action["card"] for action in by_type["give"]],
            "remaining": view["awaiting"]["remaining"],
        }
    actions["refuse"] = bool(by_type["refuse"])
    return actions


def _bid(view: dict, amounts: list[int]) -> dict:
    """The bids offered, split at what the bidder can pay (docs/engine.md "Bid cap").

    `min`–`max` are every legal bid; `payable_max` the highest of them the bidder could pay
    (None when even the lowest is beyond them), `holding` what they hold: Gold value, or cards
    for a Gold card. Bids above that are legal only at tables that allow uncoverable bids; the
    board offers them apart, under a warning (`uncoverable`: their range and what they cost).
    """
    low, high = min(amounts), max(amounts)
    hand = view["hand"] or []
    gold_card = view["auction"]["gold"]
    holding = len(hand) if gold_card else sum(VALUE[card] for card in hand if KIND[card] == "gold")
    bid = {
        "min": low,
        "max": high,
        "holding": holding,
        "payable_max": min(high, holding) if holding >= low else None,
        "uncoverable": None,
    }
    if high > holding:
        bluff = view["options"].get("medieval_bluff")
        bid["uncoverable"] = {
            "min": max(low, holding + 1),
            "max": high,
            "penalty": PENALTY_WORDS["bluff" if bluff else "standard"],
        }
    return bid


def _church_label(dice: list[str], delta: int, edition: str) -> str:
    text = gettext("Raise %(dice)s by 1") if delta > 0 else gettext("Lower %(dice)s by 1")
    return text % {"dice": dice_list(dice, edition)}


def _score(view: dict, names: list[str], edition: str) -> dict | None:
    result = view.get("result")
    if result is None:
        return None
    categories = []
    for entry in result["categories"]:
        categories.append(
            {
                "name": category_label(entry["category"], edition),
                "die": entry["die"],
                "cells": [
                    {
                        "name": names[seat],  # a phone shows it beside the cell (biblios/board.css)
                        "total": total,
                        "letter": letter,
                        "wins": entry["winner"] == seat,
                    }
                    for seat, (total, letter) in enumerate(
                        zip(entry["totals"], entry["letters"], strict=True)
                    )
                ],
                "winner_name": names[entry["winner"]] if entry["winner"] is not None else None,
                "tie_letter": entry["tie_letter"],
            }
        )
    players = result["players"]
    ranking = [
        {
            "place": players[seat]["place"],
            "name": names[seat],
            "vp": players[seat]["vp"],
            "gold": players[seat]["gold"],
            "ahead_on": presentation.ahead_on_words(players[seat]["decided_by"], edition),
            "shares_place": players[seat]["decided_by"] == "shared",
            "is_me": seat == view["seat"],
            "hand": view["hands"][seat],
        }
        for seat in result["ranking"]
    ]
    return {
        "categories": categories,
        "ranking": ranking,
        "winners": [names[seat] for seat in result["winners"]],
        "shared_win": result["shared_win"],
        # A win on victory points needs no explanation; only tie-breaks are spelled out.
        "win_ahead_on": (
            presentation.ahead_on_words(result["win_decided_by"], edition)
            if result["win_decided_by"] != "vp"
            else ""
        ),
        "vp_row": [(name, players[seat]["vp"]) for seat, name in enumerate(names)],
        "gold_row": [(name, players[seat]["gold"]) for seat, name in enumerate(names)],
        "chart": presentation.score_chart(result, names, edition),
        "tie_breaks": presentation.tie_break_lines(result, names, edition),
    }
