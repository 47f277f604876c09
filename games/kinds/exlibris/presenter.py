"""Ex Libris' presenter: a view of the engine turned into the template context of its board.

The platform (`games.rendering`, the replay viewer, the admin's inspector) calls `view_context`
with any view of an Ex Libris game (a seat's, a spectator's None, a replayed step's, or "all")
and renders `exlibris/board.html`'s partials with it. Everything here is read from that view, so
a board only shows what its reader may know (X77): another seat's hand and focus never reach the
context, a face-down card is drawn as a back with no id. Every legal action of the view becomes
one button whose value is the action as JSON (`actions.parse_action` reads it back), so the
board offers exactly what the engine lists, nothing more.
"""

from collections import defaultdict

from django.utils.functional import lazy
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games import wording
from games.board_forms import action_value
from games.charts import player_marks, player_pattern
from games.engine.exlibris import engine
from games.engine.exlibris.cards import CARDS, CATEGORIES, LOCATIONS
from games.kinds.exlibris import names
from games.kinds.exlibris.card_faces import card_chip, card_name

# The newest cards of the discard pile drawn as cards on the board (the rest: its index).
DISCARD_NEWEST = 5

PHASES = {
    "draft": gettext_lazy("Library draft"),
    "round_start": gettext_lazy("Preparation"),
    "placement": gettext_lazy("Placement"),
    "resolution": gettext_lazy("Resolution"),
    "solo_restoration": gettext_lazy("Restoration"),
    "flip": gettext_lazy("Pre-scoring flip"),
    "over": gettext_lazy("Inspection"),
}


class _Fields(dict):
    """Format values that leave a field they do not hold as it was ("%(owner)s"), for the
    prompt to fill from the pending decision."""

    def __missing__(self, key: str) -> str:
        return f"%({key})s"


def _naming(text, *, assistant: str = "", location: str = ""):
    """`text` with the special assistant or the location it is about filled in when read
    (%(assistant)s or an article form such as %(the_assistant)s, %(location)s), as names.py
    names it in the reader's language: a sentence's translation never spells a game name or
    its article itself, so it can neither stay English nor disagree with the names list."""

    def named() -> str:
        values = _Fields()
        if assistant:
            values.update(names.assistant_forms(assistant))
        if location:
            values["location"] = names.location(location)
        return names.capitalized(text, str(text) % values)

    return lazy(named, str)()


# What a seat is asked, said to that seat (the banner and the move's prompt). %(…)s are filled
# from the pending decision's public fields; the assistant or location a prompt is about, from
# names.py (`_naming`).
NAME_A_CATEGORY = gettext_lazy("%(location)s: name a category.")
PROMPTS = {
    "draft_take": gettext_lazy("Take a library for your game."),
    "draft_remove": gettext_lazy("Remove one of the libraries left from the game."),
    "solo_keep": gettext_lazy("Keep one of the two libraries."),
    "place": gettext_lazy(
        "Place an assistant: choose a location on the town board, or your library."
    ),
    "home": gettext_lazy("Home action: draw a card, shelve a card, or do nothing."),
    "cube": gettext_lazy(
        "Your assistant arrived where %(owners_assistant)s is: give them a random card from "
        "your hand, or let them take both home actions."
    ),
    "sasquatch": _naming(
        gettext_lazy(
            "An opponent arrived at %(tile)s: take your %(assistant)s back to your supply, or "
            "leave it."
        ),
        assistant="sasquatch",
    ),
    "goblin": _naming(
        gettext_lazy("%(assistant)s: choose a victim and a category, or stop."), assistant="goblin"
    ),
    "goblin_give": gettext_lazy(
        "%(owners_assistant)s named %(category)s: give them a card of your hand holding it."
    ),
    "wisp": _naming(
        gettext_lazy("%(assistant)s: discard a card of the tile, all of them, or pass."),
        assistant="wisp",
    ),
    "bookworm": _naming(
        gettext_lazy(
            "%(assistant)s: discard a hand card to take both home actions once more, or stop."
        ),
        assistant="bookworm",
    ),
    "witch": _naming(
        gettext_lazy("%(assistant)s: keep the card you received or the one revealed."),
        assistant="witch",
    ),
    "take_tile_card": gettext_lazy("Take a card from %(tile)s."),
    "shelve_card": gettext_lazy("Choose a card to shelve, or you are done."),
    "shelve_cell": gettext_lazy("Click a highlighted cell of your bookshelf to shelve %(card)s."),
    "swap_give": _naming(
        gettext_lazy("Give a card of your hand to %(location)s."), location="swap"
    ),
    "community_give": _naming(
        gettext_lazy("Give a card of the %(location)s to an opponent."), location="community"
    ),
    "discard_card": gettext_lazy("Discard one more card, or you are done."),
    "cabin_name": _naming(NAME_A_CATEGORY, location="cabin"),
    "cabin_take": _naming(
        gettext_lazy("%(location)s: take one more card of %(category)s, or you are done."),
        location="cabin",
    ),
    "run_start": _naming(
        gettext_lazy("%(location)s: click the first cell of the run to move, or pass."),
        location="shelfmasons",
    ),
    "run_end": _naming(
        gettext_lazy("%(location)s: click the last cell of the run."), location="shelfmasons"
    ),
    "run_dest": _naming(
        gettext_lazy("%(location)s: click where the run goes."), location="shelfmasons"
    ),
    "auction_pay": _naming(
        gettext_lazy("%(location)s: pay a card of your hand for your bid."), location="auction"
    ),
    "den_name": _naming(NAME_A_CATEGORY, location="den"),
    "lodge_part": _naming(
        gettext_lazy("%(location)s: choose part (a) or (b), or you are done."), location="lodge"
    ),
    "lodge_assistant": _naming(
        gettext_lazy("%(location)s: bring an assistant home."), location="lodge"
    ),
    "lodge_shelf": _naming(
        gettext_lazy("%(location)s: click a cell of your bookshelf and what to do with it."),
        location="lodge",
    ),
    "lodge_exchange": _naming(
        gettext_lazy("%(location)s: the hand card that takes the cell."), location="lodge"
    ),
    "lodge_swap": _naming(
        gettext_lazy("%(location)s: click the other cell of the swap."), location="lodge"
    ),
    "lodge_reshelve": _naming(
        gettext_lazy("%(location)s: click where the card goes."), location="lodge"
    ),
    "dump_name": _naming(NAME_A_CATEGORY, location="dump"),
    "dump_take": _naming(
        gettext_lazy("%(location)s: take a discarded card of %(category)s, or none."),
        location="dump",
    ),
    "tavern_pick": _naming(
        gettext_lazy("%(location)s: take one of the revealed cards."), location="tavern"
    ),
    "guild_assistant": _naming(
        gettext_lazy("%(location)s: which assistant moves from your library?"), location="guild"
    ),
    "guild_slot": _naming(
        gettext_lazy("%(location)s: choose the slot it moves to."), location="guild"
    ),
    "tax_pay": _naming(
        gettext_lazy(
            "%(location)s: pay a card of your hand or a top card of your bookshelf (click it)."
        ),
        location="tax",
    ),
    "tax_discard": _naming(
        gettext_lazy("%(location)s: discard one more of your cards, or you are done."),
        location="tax",
    ),
    "tax_take": _naming(gettext_lazy("%(location)s: take a card of the tile."), location="tax"),
    "yard_reveal": _naming(
        gettext_lazy("%(location)s: reveal a card of your hand, or you are done."),
        location="yard_sale",
    ),
    "yard_claim": _naming(
        gettext_lazy("%(seller)s's %(location)s: take or shelve a revealed card, or pass."),
        location="yard_sale",
    ),
    "golem": _naming(
        gettext_lazy("%(assistant)s: take or shelve a leftover card, or pass."), assistant="golem"
    ),
    "solo_remove": gettext_lazy("Remove a face-up location from the game."),
    "flip": gettext_lazy(
        "Before scoring, you may turn top cards of your bookshelf face down (click them), then "
        "say you are done. Nobody sees your choice until everyone is done."
    ),
}

# The prompts about another seat's special assistant: (its library, the pending decision's field
# naming its owner), for "Alice's Gelatinous Cube".
OWNED_ASSISTANTS = {"cube": ("cube", "owner"), "goblin_give": ("goblin", "to")}

# What the others read while a seat decides: "Waiting for Alice to …".
USE_THE = gettext_lazy("use %(the_assistant)s")
DOING = {
    "draft_take": gettext_lazy("take a library"),
    "draft_remove": gettext_lazy("remove a library"),
    "solo_keep": gettext_lazy("keep a library"),
    "place": gettext_lazy("place an assistant"),
    "home": gettext_lazy("take a home action"),
    "cube": _naming(gettext_lazy("reply %(to_the_assistant)s"), assistant="cube"),
    "sasquatch": _naming(
        gettext_lazy("decide the fate %(of_the_assistant)s"), assistant="sasquatch"
    ),
    "goblin": _naming(gettext_lazy("choose the victim %(of_the_assistant)s"), assistant="goblin"),
    "goblin_give": _naming(gettext_lazy("give a card %(to_the_assistant)s"), assistant="goblin"),
    # The Wisp, the Bookworm and the Junk Golem share these words: the article is the name's.
    "wisp": _naming(USE_THE, assistant="wisp"),
    "bookworm": _naming(USE_THE, assistant="bookworm"),
    "witch": _naming(gettext_lazy("choose a card for %(the_assistant)s"), assistant="witch"),
    "shelve_card": gettext_lazy("shelve a card"),
    "shelve_cell": gettext_lazy("choose a cell"),
    "auction_pay": _naming(gettext_lazy("pay at the %(location)s"), location="auction"),
    # Two sentences alike in English: the Den and the Dump differ in gender in French.
    "den_name": _naming(
        pgettext_lazy("at the Gambling Den", "name a category at the %(location)s"),
        location="den",
    ),
    "dump_name": _naming(
        pgettext_lazy("at the Town Dump", "name a category at the %(location)s"), location="dump"
    ),
    "dump_take": _naming(gettext_lazy("search the %(location)s"), location="dump"),
    "tavern_pick": _naming(gettext_lazy("pick a card at the %(location)s"), location="tavern"),
    "tax_pay": _naming(gettext_lazy("pay the %(location)s"), location="tax"),
    "yard_claim": _naming(gettext_lazy("answer the %(location)s"), location="yard_sale"),
    "golem": _naming(USE_THE, assistant="golem"),
    "flip": gettext_lazy("finish the pre-scoring flip"),
}
DOING_DEFAULT = gettext_lazy("use a location's effect")

PLACE_WORDS = {
    1: pgettext_lazy("place in a game", "1st"),
    2: pgettext_lazy("place in a game", "2nd"),
    3: pgettext_lazy("place in a game", "3rd"),
    4: pgettext_lazy("place in a game", "4th"),
}

# X76, X90.1: the tie-break steps, in words.
DECIDED_BY = {
    "total": gettext_lazy("a higher total"),
    "books": gettext_lazy("more face-up books"),
    "hand": gettext_lazy("fewer cards in hand"),
    "banned": gettext_lazy("fewer face-up Banned books"),
}

DIRECTIONS = {
    "left": pgettext_lazy("push", "←"),
    "right": pgettext_lazy("push", "→"),
    "up": pgettext_lazy("push", "↑"),
    "down": pgettext_lazy("push", "↓"),
}
DIRECTION_WORDS = {
    "left": gettext_lazy("push the line left"),
    "right": gettext_lazy("push the line right"),
    "up": gettext_lazy("push the column up"),
    "down": gettext_lazy("push the column down"),
}

# The scoring lines the chart draws, in the form's order.
CHART_LINES = ("b1", "b2", "b3", "b4", "b5", "total")


def view_context(game, view: dict, names_by_seat: list[str], *, connected=None) -> dict:
    """Template context for the board regions of any `view` of `game` (all but the log).

    `connected`: the seats with a live connection, or None when unknown (no presence shown).
    """
    view = readable(view)
    seat = view["seat"]
    me = seat if _is_seat(seat) else None
    by_cell, other_actions = _split_actions(view, names_by_seat)
    context = {
        "game": game,
        "view": view,
        "me": seat,
        "names": names_by_seat,
        "players": _players(view, names_by_seat, connected),
        "banner": _banner(view, names_by_seat),
        "town": _town(view),
        "tiles": _tiles(view, names_by_seat, other_actions["tiles"]),
        "shelves": _shelves(view, names_by_seat, by_cell),
        "mine": _mine(view, me),
        "actions": other_actions,
        "score": _score(view, names_by_seat),
    }
    if seat == "all":
        context["deck_cards"] = view["deck_cards"]
    return context


def readable(view: dict) -> dict:
    """Any view in the shape of a seat's: the inspector's "all" (the whole state) becomes a
    spectator's view with every card shown; a replay's open hands fill the seats' hands."""
    if view["seat"] == "all":
        state = view
        # Its events are already the inspector's (secrets in, `secret_to` out): kept as they are.
        shown = engine.view({**state, "events": []}, None)
        shown["events"] = state["events"]
        for record, seat in zip(state["seats"], shown["seats"], strict=True):
            seat.update(
                hand=list(record["hand"]),
                focus=record["focus"],
                bookshelf=record["bookshelf"],
                pre_flips=state["pre_flips"][record["seat"]],
            )
        for tile, record in state["tiles"].items():
            shown["tiles"][tile]["cards"] = [dict(entry) for entry in record["cards"]]
        shown["discard"] = list(state["discard"])
        shown.update(seat="all", legal_actions=[], deck_cards=list(state["deck"]))
        return shown
    if "open_hands" in view:
        seats = [
            {**record, "hand": hand, "focus": focus}
            for record, hand, focus in zip(
                view["seats"], view["open_hands"], view["open_foci"], strict=True
            )
        ]
        return {**view, "seats": seats}
    return view


def _is_seat(seat) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool)


def _players(view: dict, names_by_seat: list[str], connected) -> list[dict]:
    asked = view["to_act"]
    pending = view["pending"] or {}
    players = []
    for record in view["seats"]:
        seat = record["seat"]
        library = record["library"]
        players.append(
            {
                "seat": seat,
                "name": names_by_seat[seat],
                "is_me": seat == view["seat"],
                "acting": seat in asked,
                "doing": DOING.get(pending.get("kind"), DOING_DEFAULT) if seat in asked else "",
                "first": seat == view["first_player"],
                "connected": None if connected is None else seat in connected,
                "hand_size": record["hand_size"],
                "shelved": record["shelved_count"],
                "library": names.library(library["id"]) if library else "",
                "assistant": names.assistant(record["special_assistant"])
                if record["special_assistant"]
                else "",
            }
        )
    return players


def _fields(view: dict, names_by_seat: list[str]) -> dict:
    """The pending decision's public fields, in words, for its prompt."""
    pending = view["pending"] or {}
    fields = {}
    for key in ("owner", "to", "seller"):
        if _is_seat(pending.get(key)):
            fields[key] = names_by_seat[pending[key]]
    if pending.get("tile") in LOCATIONS:
        fields["tile"] = names.location(pending["tile"])
    if pending.get("category") in CATEGORIES:
        fields["category"] = names.category(pending["category"])
    if pending.get("card"):
        fields["card"] = pending["card"]
    return fields


def _prompt(view: dict, names_by_seat: list[str]) -> str:
    kind = view["pending"]["kind"]
    text = str(PROMPTS.get(kind, DOING_DEFAULT))
    values = defaultdict(lambda: gettext("somebody"), _fields(view, names_by_seat))
    if "card" in values:
        values["card"] = gettext("the card")
    if kind in OWNED_ASSISTANTS:
        assistant, owner = OWNED_ASSISTANTS[kind]
        values.update(names.assistant_forms(assistant, owner=values[owner]))
    return names.capitalized(text, text % values)


def _banner(view: dict, names_by_seat: list[str]) -> dict:
    """Who acts and what is awaited, the round and the phase."""
    phase_line = _phase_line(view)
    if view["phase"] == "over":
        return {"mine": False, "text": _end_text(view, names_by_seat), "step": "over"}
    asked = view["to_act"]
    kind = view["pending"]["kind"] if view["pending"] else ""
    if view["seat"] in asked and view["legal_actions"]:
        return {
            "mine": True,
            "text": _prompt(view, names_by_seat),
            "step": kind,
            "phase_line": phase_line,
        }
    doing = DOING.get(kind, DOING_DEFAULT)
    waiting = ", ".join(names_by_seat[seat] for seat in asked)
    text = gettext("Waiting for %(player)s to %(doing)s.") % {"player": waiting, "doing": doing}
    return {"mine": False, "text": text, "step": kind, "phase_line": phase_line}


def _phase_line(view: dict) -> str:
    solo = view["solo"]
    if view["phase"] == "draft":
        return str(PHASES["draft"])
    if solo:
        text = gettext("Round %(round)s of %(rounds)s · %(phase)s")
        values = {"round": view["round"], "rounds": solo["rounds"]}
    elif view["final_round"]:
        text = gettext("Round %(round)s, the last · %(phase)s")
        values = {"round": view["round"]}
    else:
        text = gettext("Round %(round)s · %(phase)s")
        values = {"round": view["round"]}
    return text % {**values, "phase": PHASES.get(view["phase"], view["phase"])}


def _end_text(view: dict, names_by_seat: list[str]) -> str:
    result = inspection(view)
    seat = view["seat"]
    if result["solo"]:
        if result["winners"]:
            return (
                gettext("You beat the Public Library!")
                if seat == 0
                else gettext("%(name)s beat the Public Library.") % {"name": names_by_seat[0]}
            )
        return gettext("The Public Library wins.")
    winners = result["winners"]
    if _is_seat(seat) and seat in winners:
        others = [names_by_seat[w] for w in winners if w != seat]
        if not others:
            return gettext("You win!")
        return gettext("You share the win with %(names)s.") % {"names": ", ".join(others)}
    if len(winners) == 1:
        text = gettext("%(name)s wins.") % {"name": names_by_seat[winners[0]]}
    else:
        text = gettext("Shared win: %(names)s.") % {
            "names": ", ".join(names_by_seat[w] for w in winners)
        }
    if not _is_seat(seat):
        return text
    place = result["players"][seat]["place"]
    finished = gettext("You finished %(place)s of %(count)s.") % {
        "place": PLACE_WORDS.get(place, place),
        "count": len(names_by_seat),
    }
    return f"{text} {finished}"


def inspection(view: dict) -> dict:
    """The engine's `result` of a finished game, worked out from the view, which shows every
    bookshelf, hand, focus and pre-flip once the game is over (X77)."""
    entries = [
        {
            "bookshelf": seat["bookshelf"],
            "focus": seat["focus"],
            "hand": list(seat["hand"]),
            "pre_flips": seat["pre_flips"],
        }
        for seat in view["seats"]
    ]
    solo_focus = view["solo"]["public_library_focus"] if view["solo"] else None
    return engine.scored(entries, view["discard"], view["prominent"], view["banned"], solo_focus)


def _town(view: dict) -> dict:
    solo = view["solo"]
    return {
        "phase": PHASES.get(view["phase"], view["phase"]),
        "prominent": view["prominent"],
        "banned": view["banned"],
        "deck": view["deck"],
        "discard": view["discard"],
        "discard_size": view["discard_size"],
        "discard_newest": view["discard"][: -DISCARD_NEWEST - 1 : -1],
        "discard_by_category": _discard_by_category(view["discard"]),
        "categories_out": view["categories_out"],
        "location_deck": view["locations"]["deck"],
        "end_threshold": view["end_threshold"],
        "end_trigger": view["end_trigger"],
        "solo": {
            **solo,
            "difficulty_label": names.difficulty(solo["difficulty"]),
            "hints_left": solo["hints"] if isinstance(solo["hints"], int) else 0,
        }
        if solo
        else None,
        "pool": [_library(lib) for lib in view["libraries"]["pool"]],
    }


def _discard_by_category(discard: list[str]) -> list[dict]:
    """The public discard pile (X30) as an index: for each category, the cards holding a book of
    it ("E 2"), newest first. What a Town Dump (X45) searches for, in a few bytes per card: the
    whole pile as card faces was most of a push late in a game."""
    newest_first = discard[::-1]
    return [
        {
            "category": category,
            "cards": [card_name(card) for card in newest_first if category in CARDS[card].books],
        }
        for category in CATEGORIES
    ]


def _library(library_id: str) -> dict:
    return {
        "id": library_id,
        "name": names.library(library_id),
        "assistant": names.assistant(library_id),
    }


def _assistant_name(view: dict, seat: int, assistant: str) -> str:
    """An action's assistant kind ("standard", "special") as the seat's assistant's name."""
    if assistant == "special":
        return names.assistant(view["seats"][seat]["special_assistant"])
    return names.standard_assistant()


def _tiles(view: dict, names_by_seat: list[str], placements: dict) -> list[dict]:
    """The face-up locations in Resolution order, each with its slots, cards and, on the seat's
    placement turn, the placements it offers; `open` when the reader's game is there now
    (`_concerned`), the others folded on the page."""
    permanent = set(view["locations"]["permanent"])
    concerned = _concerned(view)
    tiles = []
    for tile in view["locations"]["face_up"]:
        record = view["tiles"].get(tile, {"cards": [], "slots": []})
        location = LOCATIONS[tile]
        slots = []
        for number, holder in enumerate(record["slots"], start=1):
            gate = location.slot_gates[number - 1] if number <= len(location.slot_gates) else 1
            slots.append(
                {
                    "number": number,
                    "bid": number if location.bids else None,
                    "closed": gate > view["players"],
                    "seat": holder["seat"] if holder else None,
                    "holder": names_by_seat[holder["seat"]] if holder else "",
                    "assistant": names.assistant_name(holder["assistant"]) if holder else "",
                }
            )
        tiles.append(
            {
                "id": tile,
                "number": location.number,
                "name": names.location(tile),
                "delayed": location.timing == "delayed",
                "permanent": tile in permanent,
                "cards": record["cards"],
                "revealed": record.get("revealed", []),
                "slots": slots,
                "placements": placements.get(tile, []),
                "open": bool(placements.get(tile)) or tile in concerned,
            }
        )
    return tiles


def _concerned(view: dict) -> set[str]:
    """The locations the reader's decision or pieces are at, read from the view alone (a fold
    says nothing it does not): those holding one of the reader's assistants, those a legal
    action of the reader names, and the one the awaited decision is about (public, X77): for a
    spectator, only the awaited one. (A past step, `step_table`, opens them all.)"""
    seat = view["seat"]
    concerned = set()
    if view["pending"] and view["pending"].get("tile"):
        concerned.add(view["pending"]["tile"])
    for action in view["legal_actions"]:
        concerned.update(action[key] for key in ("tile", "target") if key in action)
    if _is_seat(seat):
        for tile, record in view["tiles"].items():
            if any(holder and holder["seat"] == seat for holder in record["slots"]):
                concerned.add(tile)
    return concerned


# ---------------------------------------------------------------------------- the actions


def _button(action: dict, label, *, short: str = "") -> dict:
    """One legal action as a button: its JSON value and its words (`short`: what a bookshelf
    cell with several buttons shows; the label is then the button's accessible name)."""
    return {"value": action_value(action), "label": label, "short": short}


def _split_actions(view: dict, names_by_seat: list[str]) -> tuple[dict, dict]:
    """The legal actions as buttons: those naming a bookshelf cell by cell (the grid's
    buttons), placements by tile (the town board's), the rest in the move region."""
    seat = view["seat"]
    by_cell: dict[str, list[dict]] = defaultdict(list)
    tiles: dict[str, list[dict]] = defaultdict(list)
    buttons = []
    for action in view["legal_actions"]:
        if "cell" in action and action["type"] != "slot":
            key = f"{action['cell'][0]},{action['cell'][1]}"
            by_cell[key].append(action)
        elif action["type"] == "place" and action["target"] != "library":
            tiles[action["target"]].append(_placement_button(view, seat, action))
        else:
            buttons.append(_action_button(view, seat, action, names_by_seat))
    pending = view["pending"] or {}
    return by_cell, {
        "any": bool(view["legal_actions"]),
        "kind": pending.get("kind", ""),
        "prompt": _prompt(view, names_by_seat) if view["legal_actions"] else "",
        "card": pending.get("card") if view["legal_actions"] else None,
        "cells": bool(by_cell),
        "on_tiles": bool(tiles),
        "buttons": buttons,
        "tiles": tiles,
    }


def _placement_button(view: dict, seat: int, action: dict) -> dict:
    name = _assistant_name(view, seat, action["assistant"])
    if "slot" in action:
        label = gettext("%(assistant)s: bid %(bid)s") % {"assistant": name, "bid": action["slot"]}
    elif "share" in action:
        label = gettext("%(assistant)s: share slot %(slot)s") % {
            "assistant": name,
            "slot": action["share"],
        }
    else:
        label = name
    return _button(action, label)


CELL_WORDS = {
    "cell": (gettext_lazy("Shelve here"), gettext_lazy("shelve here")),
    "discard_shelved": (
        pgettext_lazy("Ex Libris move", "Discard"),
        gettext_lazy("discard this card"),
    ),
    "pay_shelved": (pgettext_lazy("Ex Libris move", "Pay"), gettext_lazy("pay with this card")),
    "run": (pgettext_lazy("a run of cards", "Start"), gettext_lazy("the run starts here")),
    "run_end": (pgettext_lazy("a run of cards", "End"), gettext_lazy("the run ends here")),
    "move": (gettext_lazy("Move here"), gettext_lazy("move the run here")),
    "flip": (gettext_lazy("Turn down"), gettext_lazy("turn this card face down")),
    "exchange": (gettext_lazy("Exchange"), gettext_lazy("exchange with a hand card")),
    "swap": (gettext_lazy("Swap"), gettext_lazy("swap with another cell")),
    "reshelve": (gettext_lazy("Re-shelve"), gettext_lazy("take out and shelve again")),
    "swap_with": (gettext_lazy("Swap here"), gettext_lazy("swap with this cell")),
}
STACK_WORDS = {
    "on": (gettext_lazy("On top"), gettext_lazy("put it on top of this card")),
    "under": (gettext_lazy("Under"), gettext_lazy("put it under this card, face down")),
}


def _cell_button(action: dict, row: int, col: int) -> dict:
    """A move on a bookshelf cell; `row` and `col` count from the grid's top left corner, as
    the reader sees it (the engine's coordinates may be negative, X12)."""
    where = gettext("row %(row)s, column %(col)s") % {"row": row, "col": col}
    kind = action["type"]
    if kind == "stack":
        short, words = STACK_WORDS.get(action.get("how"), (action.get("how"), action.get("how")))
    elif kind == "push":
        direction = action.get("direction")
        short = DIRECTIONS.get(direction, direction)
        words = DIRECTION_WORDS.get(direction, direction)
    else:
        short, words = CELL_WORDS.get(kind, (kind, kind))
    return _button(action, f"{where}{wording.colon()} {words}", short=str(short))


def _action_button(view: dict, seat: int, action: dict, names_by_seat: list[str]) -> dict:
    """A button's words for every action that names no cell (cards as chips)."""
    kind = action["type"]
    pending = (view["pending"] or {}).get("kind")
    card = action.get("card")
    chip = card_chip(card) if isinstance(card, str) else ""
    say = _Words(chip)
    if kind in ("take", "remove", "keep") and "library" in action:
        library = _library(action["library"])
        return _button(action, say.html("%(name)s (%(assistant)s)", **library))
    if kind == "place":  # the library: placements on tiles are the town board's
        name = _assistant_name(view, seat, action["assistant"])
        return _button(action, gettext("%(assistant)s: your library") % {"assistant": name})
    if kind == "name":
        return _button(action, names.category(action["category"]))
    if kind == "steal":
        return _button(
            action,
            gettext("%(victim)s: %(category)s")
            % {
                "victim": names_by_seat[action["victim"]],
                "category": names.category(action["category"]),
            },
        )
    if kind == "give" and "to" in action:
        return _button(
            action,
            say.html(gettext("Give %(card)s to %(player)s"), player=names_by_seat[action["to"]]),
        )
    if kind == "discard_one":
        if card:
            return _button(action, say.html(gettext("Discard %(card)s")))
        return _button(
            action, gettext("Discard face-down card %(number)s") % {"number": action["index"] + 1}
        )
    if kind == "move_home":
        return _button(
            action,
            gettext("%(assistant)s from %(tile)s")
            % {
                "assistant": names.assistant_name(action["assistant"]),
                "tile": names.location(action["tile"]),
            },
        )
    if kind == "assistant":
        return _button(action, _assistant_name(view, seat, action["assistant"]))
    if kind == "slot":
        return _button(
            action,
            gettext("%(tile)s, slot %(slot)s")
            % {"tile": names.location(action["tile"]), "slot": action["slot"]},
        )
    if kind == "remove_tile":
        return _button(
            action, gettext("Remove %(tile)s") % {"tile": names.location(action["tile"])}
        )
    if kind == "part":
        return _button(action, PARTS.get(action["part"], action["part"]))
    if card and kind in CARD_VERBS:
        return _button(action, say.html(str(CARD_VERBS[kind])))
    if kind == "shelve" and pending == "home":
        return _button(action, gettext("Shelve a card"))
    if kind == "done" and pending == "flip":
        return _button(action, gettext("Done: score my bookshelf"))
    words = PLAIN.get(kind)
    if words is not None:
        return _button(action, words)
    return _button(action, kind)  # an action this board does not know yet still has a button


class _Words:
    """Sentences holding a card chip (HTML), everything else escaped."""

    def __init__(self, chip: str):
        self.chip = chip

    def html(self, text: str, **values) -> str:
        escaped = {key: conditional_escape(value) for key, value in values.items()}
        escaped["card"] = self.chip
        return mark_safe(conditional_escape(text) % escaped)


CARD_VERBS = {
    "take": gettext_lazy("Take %(card)s"),
    "shelve": gettext_lazy("Shelve %(card)s"),
    "give": gettext_lazy("Give %(card)s"),
    "discard": gettext_lazy("Discard %(card)s"),
    "pay": gettext_lazy("Pay %(card)s"),
    "keep": gettext_lazy("Keep %(card)s"),
    "reveal": gettext_lazy("Reveal %(card)s"),
}
PARTS = {
    "a": gettext_lazy("(a) Bring an assistant home"),
    "b": gettext_lazy("(b) Rearrange your bookshelf"),
}
PLAIN = {
    "draw": gettext_lazy("Draw a card"),
    "shelve": gettext_lazy("Shelve a card"),
    "nothing": gettext_lazy("Do nothing"),
    "done": pgettext_lazy("Ex Libris move", "Done"),
    "stop": pgettext_lazy("Ex Libris move", "Stop"),
    "pass": pgettext_lazy("button", "Pass"),
    "none": gettext_lazy("Take nothing"),
    "give_random": gettext_lazy("Give a random card"),
    "home_actions": gettext_lazy("Let them take both home actions"),
    "take_back": _naming(gettext_lazy("Take %(the_assistant)s back"), assistant="sasquatch"),
    "stay": gettext_lazy("Leave it there"),
    "discard_all": gettext_lazy("Discard them all"),
}


# ---------------------------------------------------------------------------- bookshelves


def _cell(key: str) -> tuple[int, int]:
    row, col = key.split(",")
    return int(row), int(col)


def shelf_grid(bookshelf: dict, by_cell: dict | None = None) -> list[list[dict]]:
    """A bookshelf as rows of cells, from its highest row to its lowest and its leftmost
    column to its rightmost, including the empty cells the seat's actions name (`by_cell`:
    the legal actions by cell key), each of those a button."""
    by_cell = by_cell or {}
    keys = set(bookshelf) | set(by_cell)
    if not keys:
        return []
    cells = [_cell(key) for key in keys]
    rows = range(min(r for r, _ in cells), max(r for r, _ in cells) + 1)
    cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
    grid = []
    for row_number, row in enumerate(rows, start=1):
        line = []
        for col_number, col in enumerate(cols, start=1):
            key = f"{row},{col}"
            stack = bookshelf.get(key)
            top = stack["top"] if stack else None
            line.append(
                {
                    "key": key,
                    "stack": stack,
                    "face": top if stack and stack["up"] and top != "hidden" else None,
                    "down": top if stack and not stack["up"] else None,
                    "under": stack["under"] if stack else None,
                    "buttons": [
                        _cell_button(action, row_number, col_number)
                        for action in by_cell.get(key, [])
                    ],
                }
            )
        grid.append(line)
    return grid


def _shelves(view: dict, names_by_seat: list[str], by_cell: dict) -> list[dict]:
    """Every bookshelf, the reader's first (large, with its cell buttons), then the others
    (smaller, their books counted per category: what a reader weighs an opponent by)."""
    seat = view["seat"]
    shelves = []
    for record in view["seats"]:
        mine = record["seat"] == seat
        shelves.append(
            {
                "seat": record["seat"],
                "name": names_by_seat[record["seat"]],
                "mine": mine,
                "grid": shelf_grid(record["bookshelf"], by_cell if mine else None),
                "books": [] if mine else _face_up_books(record["bookshelf"]),
                "count": record["shelved_count"],
                "pre_flips": [f"{r},{c}" for r, c in record["pre_flips"] or []],
            }
        )
    shelves.sort(key=lambda shelf: not shelf["mine"])
    return shelves


def _face_up_books(bookshelf: dict) -> list[tuple[str, int]]:
    """(category, books) of a bookshelf's face-up top cards, in the categories' order."""
    counts = dict.fromkeys(CATEGORIES, 0)
    for stack in bookshelf.values():
        if stack["up"] and stack["top"] in CARDS:
            for category in CARDS[stack["top"]].books:
                counts[category] += 1
    return [(category, count) for category, count in counts.items() if count]


def _mine(view: dict, me) -> dict | None:
    """What only the reader's seat holds: its hand, focus, library and assistants."""
    if me is None:
        return None
    record = view["seats"][me]
    library = record["library"]
    return {
        "hand": record["hand"],
        "focus": record["focus"],
        "library": _library(library["id"]) if library else None,
        "supply": [names.assistant_name(a) for a in record["supply"]],
        "home": [names.assistant_name(a) for a in record["home"]],
        "set_aside": [names.assistant_name(a) for a in record["set_aside"]],
    }


# ---------------------------------------------------------------------------- the inspection


def _score(view: dict, names_by_seat: list[str]) -> dict | None:
    if view["phase"] != "over":
        return None
    result = inspection(view)
    working = result["inspection"]
    if result["solo"]:
        return _solo_score(view, working, names_by_seat)
    sheets = working["players"]
    columns = [
        {
            "name": names_by_seat[sheet["seat"]],
            "is_me": sheet["seat"] == view["seat"],
            "winner": sheet["seat"] in result["winners"],
            **_sheet(sheet, working),
        }
        for sheet in sheets
    ]
    ranking = [
        {
            "place": sheets[seat]["place"],
            "name": names_by_seat[seat],
            "total": sheets[seat]["total"],
            "is_me": seat == view["seat"],
            "hand": [card_name(card) for card in view["seats"][seat]["hand"]],
            "decided_by": DECIDED_BY.get(sheets[seat]["decided_by"], "")
            if sheets[seat]["decided_by"] not in (None, "total")
            else "",
        }
        for seat in working["ranking"]
    ]
    return {
        "solo": False,
        "columns": columns,
        "ranking": ranking,
        "shared_win": working["shared_win"],
        "winners": [names_by_seat[w] for w in result["winners"]],
        **_form_rows(columns, working),
    }


def _form_rows(columns: list[dict], working: dict) -> dict:
    """What both forms share: the chart, the A2 rows per category, the town's categories."""
    return {
        "chart": _chart([(column["name"], column) for column in columns]),
        "count_rows": [
            (category, [column["counts"][index] for column in columns])
            for index, category in enumerate(CATEGORIES)
        ],
        "prominent_name": names.category(working["prominent"]),
        "banned_name": names.category(working["banned"]),
    }


def _sheet(sheet: dict, working: dict) -> dict:
    """One player's form (X68–X76) in the board's words."""
    stability = sheet["stability"]
    return {
        "focus": sheet["focus"],
        "pre_flips": len(sheet["pre_flips"]),
        "a1_cards": [card_name(card) for card in sheet["a1_flipped_cards"]],
        "counts": [sheet["counts"][category] for category in CATEGORIES],
        "books": sheet["books"],
        "rectangle": gettext("%(width)s × %(height)s")
        % {"width": stability["width"], "height": stability["height"]},
        "entombed": stability["entombed"],
        "b1": sheet["b1"],
        "prominent_books": sheet["prominent_books"],
        "b2_place": PLACE_WORDS.get(sheet.get("b2_place"), ""),
        "b2": sheet["b2"],
        "banned_books": sheet["banned_books"],
        "b3": sheet["b3"],
        "scarcest": [names.category(c) for c in sheet["scarcest"]],
        "b4": sheet["b4"],
        "b5": sheet["b5"],
        "hand": sheet["hand"],
        "total": sheet["total"],
        "place": sheet.get("place"),
    }


def _solo_score(view: dict, working: dict, names_by_seat: list[str]) -> dict:
    player, library = working["player"], working["public_library"]
    mine = {
        "name": names_by_seat[0],
        "is_me": view["seat"] == 0,
        "winner": working["player_wins"],
        **_sheet({**player, "seat": 0, "hand": 0}, working),
    }
    theirs = {
        "name": gettext("Public Library"),
        "is_me": False,
        "winner": not working["player_wins"],
        "focus": library["focus"],
        "pre_flips": 0,
        "a1_cards": [],
        "counts": [library["counts"][category] for category in CATEGORIES],
        "books": library["books"],
        "rectangle": "",
        "entombed": "",
        "b1": 0,
        "prominent_books": library["prominent_books"],
        "b2_place": "",
        "b2": library["b2"],
        "banned_books": library["banned_books"],
        "b3": library["b3"],
        "scarcest": [names.category(c) for c in library["scarcest"]],
        "b4": library["b4"],
        "b5": library["b5"],
        "hand": 0,
        "total": library["total"],
        "place": None,
    }
    columns = [mine, theirs]
    return {
        "solo": True,
        "columns": columns,
        "ranking": [],
        "shared_win": False,
        "winners": [mine["name"]] if working["player_wins"] else [theirs["name"]],
        **_form_rows(columns, working),
        "discarded_hand": working["discarded_hand"],
    }


CHART_LABELS = {
    "b1": pgettext_lazy("scoring line", "Stability"),
    "b2": pgettext_lazy("scoring line", "Prominent"),
    "b3": pgettext_lazy("scoring line", "Banned"),
    "b4": pgettext_lazy("scoring line", "Diversity"),
    "b5": pgettext_lazy("scoring line", "Focus"),
    "total": pgettext_lazy("scoring line", "Total"),
}


def _chart(players: list[tuple[str, dict]]) -> dict:
    """A grouped bar chart of the form's lines per player (SVG numbers: the template writes
    them unlocalized). Bars grow up from the zero line, a Banned penalty down from it."""
    bar_width, gap, group_gap = 12, 2, 14
    # Room under each group for its label ("Especialidad", 8.5 px bold): two players' bars
    # alone left the labels overlapping.
    label_room = 60
    top, plot, below = 14, 110, 40
    values = [sheet[line] for _, sheet in players for line in CHART_LINES]
    high = max(1, max(values))
    low = min(0, min(values))
    scale = plot / (high - low)
    baseline = top + high * scale
    bars_width = len(players) * (bar_width + gap) - gap
    group_width = max(bars_width, label_room)
    marks = player_marks([name for name, _ in players])
    groups = []
    x = group_gap
    for line in CHART_LINES:
        bars = []
        for index, (name, sheet) in enumerate(players):
            value = sheet[line]
            height = abs(value) * scale
            bar_x = x + (group_width - bars_width) / 2 + index * (bar_width + gap)
            bars.append(
                {
                    "x": round(bar_x, 1),
                    "y": round(baseline - height if value >= 0 else baseline, 1),
                    "height": round(height, 1),
                    "text_x": round(bar_x + bar_width / 2, 1),
                    "text_y": round(
                        baseline - height - 3 if value >= 0 else baseline + height + 9, 1
                    ),
                    "value": value,
                    "name": name,
                    "initial": marks[index],
                    "pattern": player_pattern(index),
                }
            )
        groups.append(
            {
                "line": line,
                "label": CHART_LABELS[line],
                "center": round(x + group_width / 2, 1),
                "bars": bars,
            }
        )
        x += group_width + group_gap
    height = baseline + (-low) * scale + below
    return {
        "width": round(x, 1),
        "height": round(height, 1),
        "baseline": round(baseline, 1),
        "bar_width": bar_width,
        "label_y": round(height - 20, 1),
        "initial_y": round(height - 8, 1),
        "groups": groups,
        "legend": [
            {
                "name": name,
                "initial": marks[i],
                "pattern": player_pattern(i),
            }
            for i, (name, _) in enumerate(players)
        ],
    }
