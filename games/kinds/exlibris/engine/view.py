"""What each seat may know (X77): `view` and `events_for`, the only doors through which the
game's information leaves the engine, and the redaction of a game for those who watch or replay
it (`public_setup`, `public_action`, `open_hands_view`, `redraw_hidden`)."""

import random

from . import bookshelf as bs
from .decisions import DECISIONS, _listed, to_act
from .state import State, _copy, _top


def _visible_event(event: dict, seat) -> dict:
    if "secret" not in event:
        return dict(event)
    public = {k: v for k, v in event.items() if k not in ("secret", "secret_to")}
    if seat == "all" or seat in event["secret_to"]:
        public["secret"] = event["secret"]
    return public


def events_for(state: dict, seat) -> list[dict]:
    """What the last step did, as `seat` may see it (X77: a card drawn is its drawer's)."""
    return [_visible_event(event, seat) for event in state["events"]]


def _view_bookshelf(shelf: dict, owner: bool, hidden: list[str]) -> dict:
    """X77: top cards are public, and stay known once the Mummy stacks a card on them; only a
    card the Mummy put straight under another is its owner's secret, so others see only that
    there is one, and it stays secret once left alone face down in its cell (X90.3)."""
    if owner:
        return _copy(shelf)
    return {
        key: {
            "top": "hidden" if not stack["up"] and stack["top"] in hidden else stack["top"],
            "up": stack["up"],
            "under": "hidden" if stack["under"] in hidden else stack["under"],
        }
        for key, stack in shelf.items()
    }


def view(state: dict, seat) -> dict:
    """X77, X86: all `seat` may know now (None: a spectator; "all": everything)."""
    acting = to_act(state)
    if seat == "all":
        everything = _copy(state)
        everything.update(
            seat="all", to_act=acting, events=events_for(state, "all"), legal_actions=[]
        )
        return everything
    over = state["phase"] == "over"
    top = _top(state)
    seats = []
    for record in state["seats"]:
        mine = record["seat"] == seat
        seats.append(
            {
                "seat": record["seat"],
                "colour": record["colour"],
                "library": record["library"],
                "special_assistant": record["special_assistant"],
                "standard_assistants": record["standard_assistants"],
                "supply": list(record["supply"]),
                "home": list(record["home"]),
                "set_aside": list(record["set_aside"]),
                "placed_this_round": list(record["placed_this_round"]),
                "bookshelf": _view_bookshelf(
                    record["bookshelf"], mine or over, record["hidden_under"]
                ),
                "shelved_count": bs.shelved_count(record["bookshelf"]),
                "hand": list(record["hand"]) if mine or over else None,
                "hand_size": len(record["hand"]),
                "focus": record["focus"] if mine or over else None,
                # X68: pre-flip choices stay secret until every seat is done.
                "pre_flips": _copy(state["pre_flips"][record["seat"]]) if mine or over else None,
            }
        )
    tiles = {}
    for tile, record in state["tiles"].items():
        looked = record.get("looked", [])  # X47, X77: who has seen the face-down cards here
        tiles[tile] = {
            "cards": [
                entry if entry["up"] or seat in looked else {"card": None, "up": False}
                for entry in record["cards"]
            ],
            "slots": _copy(record["slots"]),
            "looked": list(looked),
        }
        if "revealed" in record:  # X77: the Tavern's and the Yard Sale's revealed cards
            tiles[tile]["revealed"] = list(record["revealed"])
    locations = state["locations"]
    libraries = state["libraries"]
    solo = None
    if state["solo"] is not None:
        s = state["solo"]
        solo = {
            "difficulty": s["difficulty"],
            "difficulty_name": s["difficulty_name"],
            "discard_per_preparation": s["discard_per_preparation"],
            "rounds": s["rounds"],
            "revealed_hints": list(s["revealed_hints"]),
            "hints": list(s["hints"]) if over else len(s["hints"]),
            "public_library_focus": s["public_library_focus"] if over else None,
        }
    pending = None
    if top is not None:
        pending = {"kind": top["kind"]}
        pending.update({k: _copy(v) for k, v in top.items() if k in ("seat", "seats")})
        if "card" in top and top["seat"] == seat:  # a hand card on its way: the owner's (X77)
            pending["card"] = top["card"]
        shown = DECISIONS[top["kind"]].shown  # public (X77): the tile, names given, and so on
        pending.update({k: _copy(v) for k, v in top.items() if k in shown})
    discard = state["discard"]
    return {
        "version": state["version"],
        "seat": seat,
        "to_act": acting,
        "legal_actions": _listed(state, seat) if seat in acting else [],  # not kept (`_legal`)
        "players": state["players"],
        "variants": list(state["variants"]),
        "options": dict(state["options"]),
        "round": state["round"],
        "phase": state["phase"],
        "final_round": state["final_round"],
        "end_trigger": _copy(state["end_trigger"]),
        "end_threshold": state["end_threshold"],
        "first_player": state["first_player"],
        "round_first": state["round_first"],
        "prominent": state["prominent"],
        "banned": state["banned"],
        "categories_out": len(state["categories_out"]),  # X77: unseen
        "deck": len(state["deck"]),  # X77: only its size
        # X30: the multiplayer discard pile is public; solo shows only its top card (X83).
        "discard": list(discard) if state["players"] > 1 or over else discard[-1:],
        "discard_size": len(discard),
        "locations": {
            "face_up": list(locations["face_up"]),
            "permanent": list(locations["permanent"]),
            "deck": len(locations["deck"]),
            "discard": list(locations["discard"]),
            "removed": list(locations["removed"]),
            "solo_stack": len(locations["solo_stack"]),
        },
        "tiles": tiles,
        "libraries": {
            "pool": list(libraries["pool"]),
            "draft_order": list(libraries["draft_order"]),
            "declined": list(libraries["declined"]),
            "removed": list(libraries["removed"]),
            "out": len(libraries["out"]),
        },
        "seats": seats,
        "solo": solo,
        "pending": pending,
        "events": events_for(state, seat),
    }


def public_setup(setup: dict) -> dict:
    """The setup without the seed, which would recompute every hidden card."""
    return {key: value for key, value in setup.items() if key != "seed"}


def open_hands_view(states: list, step: int) -> dict:
    """A spectator's view of `states[step]`, with every hand and focus open once the last of
    `states` is over (X77: after the game, hands and foci are shown)."""
    state = states[step]
    seen = view(state, None)
    if states[-1]["phase"] == "over":  # more shown, under keys of its own
        seen["open_hands"] = [list(record["hand"]) for record in state["seats"]]
        seen["open_foci"] = [record["focus"] for record in state["seats"]]
    return seen


def redraw_hidden(state: dict, seat, rng: random.Random) -> dict:
    """`state` with what `seat` cannot know dealt anew (X77): the deck, the other seats' hands and
    face-down tile cards shuffled together and dealt back in the same sizes; the foci it does
    not hold and the categories out; the location deck's order; in solo, the hints and the
    Public Library's focus. `view(·, seat)` does not change."""
    new = State(_copy(state))
    # The seed decides every later shuffle (X31, X19), which nobody can know in advance.
    new["setup"]["seed"] = f"{state['setup']['seed']}/redrawn/{rng.random()}"
    if new["phase"] == "over":
        return new
    others = [r for r in new["seats"] if r["seat"] != seat]
    face_down = [  # X47: the face-down cards a seat has looked at stay as they are
        (tile, i)
        for tile in sorted(new["tiles"])
        if seat not in new["tiles"][tile].get("looked", [])
        for i, entry in enumerate(new["tiles"][tile]["cards"])
        if not entry["up"]
    ]
    # X51: revealed hand cards are known to all and stay where they are.
    shown = {card for record in new["tiles"].values() for card in record.get("revealed", [])}
    pool = list(new["deck"]) + [c for r in others for c in r["hand"] if c not in shown]
    pool += [new["tiles"][tile]["cards"][i]["card"] for tile, i in face_down]
    # X56, X77: a card another seat's Mummy put straight under another is its secret, under its
    # stack or left alone face down (X90.3).
    entombed = [
        (record, stack, place)
        for record in others
        for stack in record["bookshelf"].values()
        for place in ("top", "under")
        if stack[place] in record["hidden_under"] and (place == "under" or not stack["up"])
    ]
    pool += [stack[place] for _, stack, place in entombed]
    rng.shuffle(pool)
    for record in others:
        kept = [card for card in record["hand"] if card in shown]
        size = len(record["hand"]) - len(kept)
        record["hand"], pool = kept + pool[:size], pool[size:]
    for tile, i in face_down:
        new["tiles"][tile]["cards"][i]["card"] = pool.pop()
    for record, stack, place in entombed:
        hidden = record["hidden_under"]
        where = hidden.index(stack[place])
        stack[place] = hidden[where] = pool.pop()
    new["deck"] = pool
    categories = [r["focus"] for r in others] + list(new["categories_out"])
    if new["solo"] is not None:
        categories += list(new["solo"]["hints"]) + [new["solo"]["public_library_focus"]]
    rng.shuffle(categories)
    for record in others:
        record["focus"] = categories.pop()
    new["categories_out"] = [categories.pop() for _ in new["categories_out"]]
    if new["solo"] is not None:
        new["solo"]["hints"] = [categories.pop() for _ in new["solo"]["hints"]]
        new["solo"]["public_library_focus"] = categories.pop()
    rng.shuffle(new["locations"]["deck"])
    rng.shuffle(new["locations"]["solo_stack"])
    return new


def public_action(seat: int, action: dict, reader) -> dict:
    """A logged action as `reader` may know it once the game is over: every action of this step
    is public then (pre-flips are revealed by the inspection, X68)."""
    return dict(action)
