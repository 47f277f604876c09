"""HTML for the game pages, shared by the views and the live (WebSocket) pushes.

Everything is rendered from `selectors.board_for` (the seat's own `view`), so a page or a pushed
fragment can only carry what that seat may know. With `oob=True` each region comes out as a
top-level element with `hx-swap-oob="true"`: a WebSocket message of concatenated regions lets
htmx swap each one by id, while the element owning the socket stays outside every region.
"""

import math
from collections import defaultdict

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from games import access, chat, presentation, selectors
from games.engine.cards import CATEGORIES, KIND
from games.models import Game
from games.names import category_label, dice_list, gold_label

ABORTED_TEXT = gettext_lazy("This game was ended by a moderator.")

LOG_LENGTH = 30  # newest events shown on the board; the full log has its own page

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


def board_context(game: Game, user, *, connected=None, message: str = "") -> dict:
    """Template context for the board of `game` as `user` sees it (their seat or spectator).

    `connected` is the set of seats with a live connection, or None when unknown (then no
    presence is shown). Raises `errors.NotAllowed` for spectators at a closed table.
    """
    view = selectors.board_for(game, user)
    seats = list(game.seats.select_related("user"))
    context = view_context(game, view, selectors.seat_names(game, seats), connected=connected)
    context["message"] = message
    if game.status == Game.Status.ABORTED:
        context["banner"] = {"mine": False, "text": ABORTED_TEXT}
        context["actions"] = {"any": False}
    context["log"] = selectors.game_log(game, view["seat"], limit=LOG_LENGTH)
    context["turn"] = _turn(game, view, context["players"], seats)
    if game.status == Game.Status.FINISHED:
        context["rematch"] = _rematch(game, user, view["seat"])
    return context


def chat_context(game: Game, user, *, invited: bool = False, error: str = "") -> dict:
    """The chat panel of `game` for `user`: the channels they read, newest messages last.

    One context for the page (`{% chat_panel %}`), a post's htmx answer and the live push;
    `invited`: the user holds the table's invite (what that allows: `games.access`).
    """
    seat = selectors.seat_of(game, user)
    channels = access.chat_channels(game, user, invited=invited, seat=seat)
    seated = seat is not None
    return {
        "game": game,
        "channels": channels,
        "chats": [
            {
                "channel": channel,
                "label": chat.Channel(channel).label,
                "messages": chat.recent(game, channel),
            }
            for channel in channels
        ],
        "can_post": access.may_chat(game, user, invited=invited, seat=seat),
        "players": [
            s for s in game.seats.select_related("user") if s.user_id not in (None, user.pk)
        ]
        if channels
        else [],
        "posting_to": "players" if seated else "spectators",
        "max_length": chat.MAX_LENGTH,
        "error": error,
        "user": user,
    }


def _rematch(game: Game, user, seat) -> dict:
    """What the finished board offers a player: open a rematch, or join the one offered."""
    offer = selectors.rematch_offer(game)
    if offer is None:
        return {"can_ask": seat is not None}
    seats = list(offer.seats.select_related("user"))
    return {
        "can_ask": seat is not None,
        "offer": offer,
        "host_name": next((str(s.user) for s in seats if s.user_id == offer.host_id), ""),
        "seated": any(s.user_id == getattr(user, "pk", None) for s in seats),
        "free_seats": offer.num_players - len(seats),
    }


def view_context(game: Game, view: dict, names: list[str], *, connected=None) -> dict:
    """Template context for the board regions of any `view` of `game` (all but the log).

    The live board passes the user's current view; the replay viewer and the admin inspector
    pass the view of a replayed step, so every board is drawn by the same partials.
    """
    seat = view["seat"]
    edition = view["edition"]
    return {
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
        "hand": selectors.hand_groups(view["hand"], edition) if view["hand"] is not None else None,
        "actions": _actions(view, edition),
        "score": _score(view, names, edition),
    }


def log_context(game: Game, user) -> dict:
    """The whole game log for `user`'s seat (or a spectator), checked like the board."""
    seat = selectors.board_for(game, user)["seat"] if game.setup else None
    return {
        "game": game,
        "names": selectors.seat_names(game),
        "me": seat,
        "edition": game.edition,
        "log": selectors.game_log(game, seat),
    }


def board_html(
    game: Game, user, *, oob: bool, connected=None, message: str = "", request=None
) -> str:
    """The board of `game` for `user`: the page's `#board`, or its regions as oob swaps.

    Before the start (and for a closed table) this is the waiting room. With `oob=True` an
    active or finished board also carries a `#board` that replaces a waiting room still on the
    client (the moment the host starts), then every region by id.
    """
    if not game.setup:
        return waiting_html(game, user, oob=oob, message=message, request=request)
    context = board_context(game, user, connected=connected, message=message)
    name = "games/board.html#live" if oob else "games/board.html#board"
    return render_to_string(name, context, request=request)


def players_html(game: Game, user, *, connected) -> str:
    """Only the players region, as an oob swap: enough when somebody connects or leaves."""
    view = selectors.board_for(game, user)
    seats = list(game.seats.select_related("user"))
    players = _players(view, selectors.seat_names(game, seats), connected)
    _mark_bots(players, seats)
    context = {"view": view, "players": players, "oob": True}
    return render_to_string("games/board.html#players", context)


def waiting_html(game: Game, user, *, oob: bool, message: str = "", request=None) -> str:
    """The waiting room of a table that has not started (or was closed by its host)."""
    context = {**waiting_context(game, user, oob=oob), "message": message}
    return render_to_string("games/table.html#waiting", context, request=request)


def waiting_context(game: Game, user, *, oob: bool) -> dict:
    seats = list(game.seats.select_related("user").order_by("position"))
    seated = any(s.user_id == user.pk for s in seats) if user.is_authenticated else False
    return {
        "game": game,
        "seats": seats,
        "free_seats": game.num_players - len(seats),
        "seated": seated,
        "is_host": user.is_authenticated and game.host_id == user.pk,
        "user": user,
        "oob": oob,
    }


def lobby_html(user) -> str:
    """The lobby's table lists as an oob swap (`#lobby-tables`), for live lobby updates."""
    return render_to_string(
        "games/lobby.html#tables", {**selectors.lobby_tables(user), "oob": True}
    )


# ----------------------------------------------------------------------------- regions


def _mark_bots(players: list[dict], seats: list) -> None:
    """Mark who is a bot, or has a bot playing for them, in everybody's players list."""
    by_position = {seat.position: seat for seat in seats}
    for player in players:
        seat = by_position.get(player["seat"])
        player["bot"] = seat.get_bot_level_display() if seat and seat.bot_level else ""
        player["taken_over"] = bool(seat and seat.taken_over)


def _turn(game: Game, view: dict, players: list[dict], seats: list) -> dict:
    """The turn clock (from the server's deadline) and who a bot stands in for."""
    _mark_bots(players, seats)
    deadline = selectors.turn_deadline(game, seats, view["to_act"])
    mine = next((seat for seat in seats if seat.position == view["seat"]), None)
    left = (deadline - timezone.now()).total_seconds() if deadline else 0
    return {
        "deadline": deadline,
        "seconds_left": max(0, math.ceil(left)),
        "mine": deadline is not None and view["to_act"] == [view["seat"]],
        "taken_over": [player["name"] for player in players if player["taken_over"]],
        "my_seat_taken_over": bool(mine and mine.taken_over and game.status == "active"),
        "can_leave": bool(mine and mine.user_id and not mine.bot_level and game.status == "active"),
    }


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
        return {"mine": False, "text": gettext("The game is over."), "step": "over"}
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
            "uses": [
                {
                    "dice": action["dice"],
                    "delta": action["delta"],
                    "label": _church_label(action["dice"], action["delta"], edition),
                }
                for action in by_type["use_church"]
            ],
            "discard": bool(by_type["discard_church"]),
        }
    if by_type["bid"]:
        amounts = [action["amount"] for action in by_type["bid"]]
        actions["bid"] = {"min": min(amounts), "max": max(amounts)}
    actions["pass"] = bool(by_type["pass"])
    if by_type["pay"]:
        hand = view["hand"] or []
        actions["pay"] = {
            "gold": [card for card in hand if KIND[card] == "gold"],
            "selected": selectors.least_overpay([action["cards"] for action in by_type["pay"]]),
            "amount": view["awaiting"]["amount"],
        }
    if by_type["give"]:
        actions["give"] = {
            "cards": [action["card"] for action in by_type["give"]],
            "remaining": view["awaiting"]["remaining"],
        }
    actions["refuse"] = bool(by_type["refuse"])
    return actions


def _church_label(dice: list[str], delta: int, edition: str) -> str:
    text = gettext("Raise %(dice)s by 1") if delta > 0 else gettext("Lower %(dice)s by 1")
    return text % {"dice": dice_list(dice, edition)}


DECIDING_STEP_WORDS = {
    "vp": gettext_lazy("victory points"),
    "gold": gettext_lazy("Gold value"),
    "shared": gettext_lazy("a complete tie"),
}


def decided_by_words(step: str | None, edition: str) -> str:
    """An R21 tie-break step in words ("Monks total", "Gold value", …)."""
    if step is None:
        return ""
    if step in DECIDING_STEP_WORDS:
        return DECIDING_STEP_WORDS[step]
    category, what = step.rsplit("_", 1)
    if category in CATEGORIES:
        if what == "total":
            return gettext("%(category)s total") % {"category": category_label(category, edition)}
        return gettext("%(category)s letter") % {"category": category_label(category, edition)}
    return step


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
            "decided_by": decided_by_words(players[seat]["decided_by"], edition),
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
        "win_decided_by": (
            decided_by_words(result["win_decided_by"], edition)
            if result["win_decided_by"] != "vp"
            else ""
        ),
        "vp_row": [players[seat]["vp"] for seat in range(len(names))],
        "gold_row": [players[seat]["gold"] for seat in range(len(names))],
        "chart": presentation.score_chart(result, names, edition),
        "tie_breaks": presentation.tie_break_lines(result, names, edition),
    }
