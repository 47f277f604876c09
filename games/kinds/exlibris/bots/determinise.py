"""Sampled worlds: a full Ex Libris state that a seat cannot tell apart from the real one.

The Archivist searches such worlds. Each is built from the seat's view and memory only: what it
sees stays where it is; the cards it cannot see (the deck, other hands, face-down tile cards it
has not looked at, cards another Mummy entombed, the solo Public Library under its top card),
the categories it does not hold (other foci, the categories out, solo hints and the Public
Library's focus), the location deck, the solo stack and the libraries out are dealt at random
into the hidden places, in the numbers the view shows. The world is written as the engine's
stored JSON (`engine.dumps`' format) and read with `engine.loads`, the engine's one public door
for a whole state, so the engine's internals may change beneath it.

Only a decision asked with nothing below it on the engine's stack can be rebuilt from a view
(`SEARCHED_KINDS`: a placement, the library draft, the solo clean-up, the pre-scoring flip); a
decision inside an effect leaves the rest of that effect on the stack, which no view shows.
`view(world, seat)` then equals the real view (the tests check it), so whatever a search does in
the world, it learns nothing the seat did not know.
"""

import json
import random

from games.kinds.exlibris import engine
from games.kinds.exlibris.engine.cards import CARD_IDS, CATEGORIES, LIBRARIES, LOCATIONS

# Decisions the engine only ever asks with an empty stack below them.
SEARCHED_KINDS = ("place", "draft_take", "draft_remove", "solo_keep", "solo_remove", "flip")
SOLO_FACE_UP = 6  # X82.1; a solo Restoration removes 2 tiles and turns up 1 (X83)


def searchable(view: dict) -> bool:
    """Whether `determinise` can rebuild the state behind this view."""
    pending = view["pending"]
    if pending is None or pending["kind"] not in SEARCHED_KINDS:
        return False
    return not any("revealed" in tile for tile in view["tiles"].values())


def determinise(view: dict, memory: dict | None, rng: random.Random) -> engine.State:
    """One world consistent with what seat `view["seat"]` knows, drawn with `rng`."""
    if not searchable(view):
        raise ValueError(f"determinise: cannot rebuild a {view['pending']} decision")
    return engine.loads(json.dumps(world_data(view, memory, rng)))


def variant_of(view: dict) -> str:
    parts = [part for part in engine.VARIANT_PARTS if part in view["variants"]]
    return "+".join(parts) or "standard"


def known_cards(view: dict) -> set[str]:
    """Every card whose place the view shows."""
    seen = set(view["discard"])
    for record in view["seats"]:
        seen.update(record["hand"] or ())
        for stack in record["bookshelf"].values():
            seen.update(c for c in (stack["top"], stack["under"]) if c not in (None, "hidden"))
    for tile in view["tiles"].values():
        seen.update(entry["card"] for entry in tile["cards"] if entry["card"])
    return seen


def world_data(view: dict, memory: dict | None, rng: random.Random) -> dict:
    """The world as the engine's stored JSON data."""
    me, players = view["seat"], view["players"]
    solo = players == 1
    known = known_cards(view)
    unknown = [card for card in CARD_IDS if card not in known]
    rng.shuffle(unknown)

    def deal(count: int) -> list[str]:
        cards = unknown[len(unknown) - count :] if count else []
        del unknown[len(unknown) - count :]
        return cards

    discard = list(view["discard"])
    if solo and view["discard_size"] > len(discard):  # X83: only the top card is shown
        remembered = [] if memory is None else memory.get("discarded", [])
        below = [card for card in dict.fromkeys(remembered) if card in unknown]
        below = below[max(0, len(below) - view["discard_size"] + len(discard)) :]
        for card in below:
            unknown.remove(card)
        below += deal(view["discard_size"] - len(discard) - len(below))
        rng.shuffle(below)
        discard = below + discard

    seats = []
    for record in view["seats"]:
        seat = record["seat"]
        mine = seat == me
        shelf, hidden = {}, []
        for key, stack in record["bookshelf"].items():
            stack = dict(stack)
            for place in ("top", "under"):
                if stack[place] == "hidden":  # X56, X77: another seat's entombed card
                    stack[place] = deal(1)[0]
                    hidden.append(stack[place])
            shelf[key] = stack
        seats.append(
            {
                "seat": seat,
                "colour": record["colour"],
                "library": record["library"],
                "special_assistant": record["special_assistant"],
                "standard_assistants": record["standard_assistants"],
                "focus": record["focus"],
                "hand": list(record["hand"]) if mine else None,
                "bookshelf": shelf,
                "supply": list(record["supply"]),
                "home": list(record["home"]),
                "set_aside": list(record["set_aside"]),
                "placed_this_round": list(record["placed_this_round"]),
                "hidden_under": hidden,
            }
        )
    for seat, record in zip(view["seats"], seats, strict=True):
        if record["hand"] is None:
            record["hand"] = deal(seat["hand_size"])

    tiles, arrivals = {}, 0
    for tile, shown in view["tiles"].items():
        cards = [
            entry if entry["up"] or entry["card"] else {"card": deal(1)[0], "up": False}
            for entry in shown["cards"]
        ]
        tiles[tile] = {"cards": [dict(entry) for entry in cards], "slots": shown["slots"]}
        if shown["looked"]:
            tiles[tile]["looked"] = list(shown["looked"])
        for holder in shown["slots"]:
            if holder is not None:
                arrivals = max(arrivals, holder["arrival"])
    arrivals = place_sharing_ghosts(view, memory, tiles, arrivals, rng)

    deck = deal(view["deck"])
    assert not unknown, "every unseen card has a hidden place"

    categories = [c for c in CATEGORIES if c not in (view["prominent"], view["banned"])]
    categories = [c for c in categories if c != view["seats"][me]["focus"]]
    solo_view = view["solo"]
    if solo_view is not None:
        categories = [c for c in categories if c not in solo_view["revealed_hints"]]
    rng.shuffle(categories)
    for record in seats:
        if record["focus"] is None:
            record["focus"] = categories.pop()
    categories_out = [categories.pop() for _ in range(view["categories_out"])]
    solo_data = None
    if solo_view is not None:
        solo_data = {
            "difficulty": solo_view["difficulty"],
            "difficulty_name": solo_view["difficulty_name"],
            "discard_per_preparation": solo_view["discard_per_preparation"],
            "public_library_focus": categories.pop(),
            "hints": [categories.pop() for _ in range(solo_view["hints"])],
            "rounds": solo_view["rounds"],
            "revealed_hints": list(solo_view["revealed_hints"]),
        }
    assert not categories, "every category has a place"

    locations = view["locations"]
    seen_tiles = {*locations["face_up"], *locations["discard"], *locations["removed"]}
    unseen_tiles = [tile for tile in LOCATIONS if tile not in seen_tiles]
    rng.shuffle(unseen_tiles)
    libraries = view["libraries"]
    held = {record["library"]["id"] for record in view["seats"] if record["library"]}
    seen_libraries = {*libraries["pool"], *libraries["declined"], *libraries["removed"], *held}
    out = [lib for lib in LIBRARIES if lib not in seen_libraries]
    rng.shuffle(out)

    pending = {"kind": view["pending"]["kind"]}
    if "seats" in view["pending"]:
        pending["seats"] = list(view["pending"]["seats"])
    else:
        pending["seat"] = view["pending"]["seat"]
    if pending["kind"] == "solo_remove":  # X83: 2 tiles go, then 1 comes, each Restoration
        pending["left"] = 2 if len(locations["face_up"]) == SOLO_FACE_UP - view["round"] + 1 else 1
    pre_flips = [[] for _ in range(players)]
    pre_flips[me] = [list(cell) for cell in view["seats"][me]["pre_flips"] or []]

    return {
        "version": view["version"],
        "setup": {
            "players": players,
            "seed": rng.getrandbits(64),  # X86: nobody knows the shuffles to come
            "variant": variant_of(view),
            "options": dict(view["options"]),
            "first_player": None,
        },
        "players": players,
        "variants": list(view["variants"]),
        "options": dict(view["options"]),
        "end_threshold": view["end_threshold"],
        "round": view["round"],
        "phase": view["phase"],
        "final_round": view["final_round"],
        "end_trigger": view["end_trigger"],
        "first_player": view["first_player"],
        "round_first": view["round_first"],
        "turn": pending.get("seat") if pending["kind"] == "place" else None,
        "locations": {
            "face_up": list(locations["face_up"]),
            "permanent": list(locations["permanent"]),
            "deck": unseen_tiles[: locations["deck"]],
            "discard": list(locations["discard"]),
            "removed": list(locations["removed"]),
            "solo_stack": unseen_tiles[locations["deck"] :],
        },
        "tiles": tiles,
        "libraries": {
            "pool": list(libraries["pool"]),
            "draft_order": list(libraries["draft_order"]),
            "out": out,
            "removed": list(libraries["removed"]),
            "declined": list(libraries["declined"]),
        },
        "draft_step": 0 if solo else len(libraries["declined"]),
        "prominent": view["prominent"],
        "banned": view["banned"],
        "categories_out": categories_out,
        "deck": deck,
        "discard": discard,
        "seats": seats,
        "solo": solo_data,
        "pending": [pending],
        "resolution": None,
        "drivers": [],
        "witch_queue": [],
        "arrivals": arrivals,
        "pre_flips": pre_flips,
        "rng_draws": 0,
        "events": [own_event(event, me) for event in view["events"]],
    }


def own_event(event: dict, me: int) -> dict:
    """An event as the view shows it, stored so that the view shows it the same again: a secret
    the seat was shown was its own (or shared with it)."""
    stored = dict(event)
    if "secret" in stored:
        stored["secret_to"] = [me]
    return stored


def place_sharing_ghosts(
    view: dict, memory: dict | None, tiles: dict, arrivals: int, rng: random.Random
) -> int:
    """X60: a Ghost placed this round that holds no slot and is not home shares a slot; no view
    says where, so it goes where memory saw it go, else on some occupied instant tile."""
    shares = {} if memory is None else memory.get("ghost_shares", {})
    for record in view["seats"]:
        if record["special_assistant"] != "ghost" or "ghost" not in record["placed_this_round"]:
            continue
        if "ghost" in record["supply"] or "ghost" in record["home"]:
            continue
        on_slot = any(
            holder and holder["seat"] == record["seat"] and holder["assistant"] == "ghost"
            for tile in tiles.values()
            for holder in tile["slots"]
        )
        if on_slot:
            continue
        where = shares.get(str(record["seat"]))
        if where is None or where[0] not in tiles or tiles[where[0]]["slots"][where[1] - 1] is None:
            occupied = [
                (tile, number)
                for tile in sorted(tiles)
                if LOCATIONS[tile].timing == "instant"
                for number, holder in enumerate(tiles[tile]["slots"], start=1)
                if holder is not None
            ]
            if not occupied:
                continue  # nowhere to share: leave it out (it comes home at Resolution)
            where = rng.choice(occupied)
        arrivals += 1
        entry = {"seat": record["seat"], "assistant": "ghost", "arrival": arrivals}
        tiles[where[0]].setdefault("shared", []).append({**entry, "slot": where[1]})
    return arrivals
