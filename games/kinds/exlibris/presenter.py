"""Ex Libris' presenter: a view of the engine turned into the template context of its board.

The platform (`games.rendering`, the replay viewer, the admin's inspector) calls `view_context`
with any view of an Ex Libris game (a seat's, a spectator's None, a replayed step's, or "all")
and renders `exlibris/board.html`'s partials with it. Everything here is read from that view, so
a board only shows what its reader may know (X77): another seat's hand and focus never reach the
context, a face-down card is drawn as a back with no id. Every legal action of the view becomes
one button whose value is the action as JSON (`actions.parse_action` reads it back), so the
board offers exactly what the engine lists, nothing more.
"""

import functools
from collections import defaultdict

from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games.kinds.exlibris import engine, names
from games.kinds.exlibris.card_faces import card_chip, card_name
from games.kinds.exlibris.engine.cards import CARDS, CATEGORIES, LOCATIONS
from games.kinds.exlibris.prompts import DOING, DOING_DEFAULT, OWNED_ASSISTANTS, PROMPTS, naming
from games.kinds.exlibris.scoresheet import PLACE_WORDS, inspection, score_context
from games.play import wording
from games.play.board_forms import action_value

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
        "score": score_context(view, names_by_seat),
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
        # Called by the template only when it draws the town: a push draws the town once per
        # move from the public view (`rendering.public_context`), not from each reader's.
        "discard_by_category": functools.partial(_discard_by_category, view["discard"]),
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
    "take_back": naming(gettext_lazy("Take %(the_assistant)s back"), assistant="sasquatch"),
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
