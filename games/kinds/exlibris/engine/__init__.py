"""The Ex Libris engine (spec §0, X86–X88): the functions of the contract of
`games.kinds.protocol`, the package the platform and the tests import.

A state is one plain JSON dict (`State`, a dict with a `version` attribute; so
`loads(dumps(s)) == s` and a copy is a JSON round trip); `version` counts the moves applied.
It carries a stack of pending decisions (`pending`, the top last): the engine runs every step
that needs no choice (reveals, set-ups, draws, Resolution, Restoration, scoring) and stops at the
next decision (X86). Several-part choices are asked part by part (X87: which card, then which
cell) and resolve depth-first in rule order (X88). Chance comes only from the seed: the deal is
`setup.deal`, and every later shuffle (X19, X31) draws from a generator seeded by the seed and a
counter kept in the state, so `replay` rebuilds a game.

What it covers: the library draft (X8) and the solo keep-1-of-2 (X82); the round of §4
(X18–X28: Preparation, Placement with slot gates, Resolution in tile order, Restoration and the
permanent row), deck exhaustion (X31), home actions (X22), all 18 locations (X35–X52) and the 12
special assistants (X53–X66), the end trigger and round cap (X67, X89), the solo rounds' frame
(X83: hints, the difficulty's discards, the clean-up), the secret simultaneous pre-scoring flip
(X68), and `result` through `scoring.inspect` (X69–X76, X84).

Where the rest lives (docs/exlibris.md has the whole reference):
- `state`: the state, its copy on write, draws, events and chance.
- `decisions`: one record per decision kind (its rule tag, choices and effect), and the
  registries of the locations' effects and of the "then" steps, each filled by a decorator
  where the thing is written.
- `flow`: the draft, the round's phases and the end.
- `placement`: where an assistant may go, and its placement.
- `assistants`: the arrival sequence and the special assistants' powers.
- `shelving`: the shelving and the home actions many effects ask for.
- `locations/`: one module per location or group of locations, with its effect and decisions.
- `view`: what each seat may see, and the redaction of a game.
"""

import json
from collections.abc import Iterable, Iterator

from games.kinds.protocol import fold, last

from . import locations as _registered  # noqa: F401 - registers their effects and decisions
from . import scoring
from .bookshelf import IllegalAction
from .decisions import DECISIONS, DELAYED, EFFECTS, _asked, _listed, _rule, to_act
from .flow import _proceed
from .setup import PLAYER_COUNTS, deal
from .state import HUT, POWERS, State, _copy, _empty_tile, _next_state, _push, _solo
from .view import events_for, open_hands_view, public_action, public_setup, redraw_hidden, view

__all__ = [
    "DECISIONS",
    "DEFAULT_SOLO_DIFFICULTY",
    "DELAYED",
    "EFFECTS",
    "HUT",
    "IllegalAction",
    "OPTIONS",
    "PLAYER_COUNTS",
    "POWERS",
    "State",
    "VARIANTS",
    "VARIANT_PARTS",
    "apply_action",
    "dumps",
    "events_for",
    "legal_actions",
    "loads",
    "new_game",
    "open_hands_view",
    "public_action",
    "public_setup",
    "redraw_hidden",
    "replay",
    "result",
    "scored",
    "setup_of",
    "steps",
    "to_act",
    "view",
]


# The variant slugs (protocol: the default first). Ex Libris variants combine freely (X80), so a
# slug names a combination, its parts joined by "+" in this order.
VARIANT_PARTS = ("beginner", "friendly", "long")


VARIANTS = ("standard",) + tuple(
    "+".join(p for i, p in enumerate(VARIANT_PARTS) if mask >> i & 1) for mask in range(1, 8)
)


# X81: owner-wide powers: the Mummy, the Wizard and the Witch act on every shelving or
# acquisition by their owner, not only on what their assistant drives (X53).
OPTIONS = {"owner_wide_powers": False}


DEFAULT_SOLO_DIFFICULTY = 1  # options["difficulty"] in a solo game (X85); Initiate by default


def new_game(
    players: int,
    *,
    seed: int | str,
    variant: str = "standard",
    options: dict | None = None,
    first_player: int | None = None,
) -> dict:
    """The state after the deal (`setup.deal`, X6–X11, X78–X82): the library draft (X8), the
    solo choice (X82) or, for beginners (X78), round 1 straight away. `variant` is one of
    `VARIANTS`; `options` holds "owner_wide_powers" (X81) and, in solo, "difficulty" (X85)."""
    if variant not in VARIANTS:
        raise IllegalAction(f"X78-X80: unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS) - {"difficulty"})
    if unknown:
        raise IllegalAction(f"setup: unknown options {unknown}")
    if not isinstance(options.get("owner_wide_powers", False), bool):
        raise IllegalAction("X81: owner_wide_powers is on or off")
    chosen = options.get("owner_wide_powers", OPTIONS["owner_wide_powers"])
    parts = [] if variant == "standard" else variant.split("+")
    difficulty = None
    if players == 1:
        difficulty = options.get("difficulty", DEFAULT_SOLO_DIFFICULTY)
    elif "difficulty" in options:
        raise IllegalAction("X85: a difficulty is chosen only for a solo game")
    table = deal(
        players, seed=seed, variant=parts, solo_difficulty=difficulty, first_player=first_player
    )
    table_options = {"owner_wide_powers": chosen}
    if difficulty is not None:
        table_options["difficulty"] = difficulty
    seats = []
    for seat in table["seat_setup"]:
        seats.append(
            {
                **seat,
                "supply": [],
                "home": [],
                "set_aside": [],
                "placed_this_round": [],
                "hidden_under": [],  # X77: cards its Mummy put straight under another
            }
        )
    locations = table["locations"]
    state = State(
        {
            "version": 0,
            "setup": {
                "players": players,
                "seed": seed,
                "variant": variant,
                "options": table_options,
                "first_player": first_player,
            },
            "players": players,
            "variants": table["variants"],
            "options": table_options,
            "end_threshold": table["end_threshold"],
            "round": 0,
            "phase": "draft",
            "final_round": False,
            "end_trigger": None,
            "first_player": table["first_player"],  # the token's holder (X6, X28)
            "round_first": table["first_player"],  # who starts this round's Placement (X28)
            "turn": None,  # the seat that placed last this round
            "locations": {
                "face_up": list(locations["face_up"]),
                "permanent": list(locations["permanent"]),
                "deck": list(locations["deck"]),
                "discard": list(locations["discard"]),
                "removed": list(locations["removed"]),
                "solo_stack": list(locations.get("solo_stack", [])),
            },
            "tiles": {tile: _empty_tile(tile) for tile in locations["face_up"]},
            "libraries": {**table["libraries"], "declined": []},
            "draft_step": 0,
            "prominent": table["prominent"],
            "banned": table["banned"],
            "categories_out": table["categories_out"],
            "deck": table["deck"],
            "discard": table["discard"],
            "seats": seats,
            "solo": None,
            "pending": [],
            "resolution": None,  # X25: where Resolution goes on after a decision
            "drivers": [],  # X53: the assistants whose arrival or slot drive the effect
            "witch_queue": [],  # X64: cards a Witch-driven effect gave, awaiting the power
            "arrivals": 0,  # X23, X66: arrivals so far, to order the assistants on a tile
            "pre_flips": [[] for _ in range(players)],
            "rng_draws": 0,
            "events": [],
        }
    )
    if "solo" in table:
        state["solo"] = {**table["solo"], "revealed_hints": []}
    if players == 1:
        _push(state, "solo_keep", seat=0)
    elif table["libraries"]["draft_order"]:
        _push(state, "draft_take", seat=table["libraries"]["draft_order"][0])
    else:  # X78: beginners hold a library's back: no draft
        state["phase"] = "round_start"
    _proceed(state)
    state["events"] = []
    return state


def legal_actions(state: dict, seat) -> list[dict]:
    """X86: every action `seat` may take now; [] when it is not asked anything. A `State`
    keeps the list (`_legal`), for `apply_action` to check the action chosen from it without
    listing them again."""
    pending = state["pending"]  # `_asked` and `_listed`, spelt out: this runs at every step
    if not pending:
        return []
    top = pending[-1]
    if top["kind"] == "flip":
        if seat not in top["seats"]:
            return []
    elif seat != top["seat"]:
        return []
    actions = DECISIONS[top["kind"]].choices(state, seat, top)
    if type(state) is State:
        state._legal = (seat, tuple(actions))  # a tuple: the caller may change its list
    return actions


def _as_json(action):
    """`action` as the JSON data its JSON round trip gives (a new object; TypeError or ValueError
    for what JSON cannot hold). Actions are flat dicts of strings, ints and cells, copied
    directly; anything else takes the round trip."""
    if type(action) is dict:
        plain = {}
        for key, value in action.items():
            kind = type(value)
            if type(key) is not str:
                break
            if kind is str or kind is int or kind is bool or value is None:
                plain[key] = value
            elif (kind is list or kind is tuple) and all([type(x) is int for x in value]):
                plain[key] = list(value)
            else:
                break
        else:
            return plain
    return json.loads(json.dumps(action))


def apply_action(state: dict, seat, action) -> dict:
    """X86: the state after `seat` takes `action`; `state` is left unchanged. IllegalAction,
    naming the rule, for anything `legal_actions` does not list."""
    if state["phase"] == "over":
        raise IllegalAction("X67: the game is over")
    if not _asked(state, seat):
        raise IllegalAction(f"X86: seat {seat!r} is not asked anything now")
    top = state["pending"][-1]
    kept = getattr(state, "_legal", None)  # the list a caller has just chosen from
    # Looked for as given, before its copy: the very object listed (a caller may not change
    # it, docs/exlibris.md) is then found by identity, without comparing its fields.
    in_kept = type(action) is dict and kept is not None and kept[0] == seat and action in kept[1]
    try:
        action = _as_json(action)
    except (TypeError, ValueError):
        raise IllegalAction(f"{_rule(top)}: an action is a small JSON object") from None
    if not in_kept and action not in _listed(state, seat):
        raise IllegalAction(f"{_rule(top)}: {action!r} is not a legal {top['kind']} action now")
    new = _next_state(state)
    new["version"] += 1
    DECISIONS[top["kind"]].effect(new, seat, action)
    _proceed(new)
    new._own = set()  # done: a later change copies first, as the next move would share it
    return new


def result(state: dict) -> dict:
    """The inspection (X68-X76; solo X84) once the game is over: "players" (seat, place, total),
    "winners", and the whole working from `scoring`."""
    if state["phase"] != "over":
        raise ValueError("result: the game is not over")
    entries = [
        {
            "bookshelf": seat["bookshelf"],
            "focus": seat["focus"],
            "hand": list(seat["hand"]),
            "pre_flips": state["pre_flips"][seat["seat"]],
        }
        for seat in state["seats"]
    ]
    solo_focus = state["solo"]["public_library_focus"] if _solo(state) else None
    return scored(entries, state["discard"], state["prominent"], state["banned"], solo_focus)


def scored(
    entries: list[dict], discard: list, prominent: str, banned: str, solo_focus: str | None
) -> dict:
    """`result` from the pieces it reads: each seat's bookshelf, focus, hand and pre-flips, the
    discard pile, Prominent and Banned, and the Public Library's focus in a solo game (None
    otherwise). Every one of them is public once the game is over (X77), so a finished view
    gives the same result (the site's presenter reads it there)."""
    if solo_focus is not None:
        working = scoring.solo_inspection(entries[0], discard, solo_focus, prominent, banned)
        wins = working["player_wins"]
        # X84: the player against the Public Library; places rank the seats (protocol), so the
        # one seat is placed 1, and a loss to the Public Library is no winner.
        return {
            "players": [{"seat": 0, "place": 1, "total": working["player"]["total"]}],
            "winners": [0] if wins else [],
            "solo": True,
            "inspection": working,
        }
    working = scoring.inspect(entries, prominent, banned)
    return {
        "players": [
            {"seat": sheet["seat"], "place": sheet["place"], "total": sheet["total"]}
            for sheet in working["players"]
        ],
        "winners": list(working["winners"]),
        "solo": False,
        "inspection": working,
    }


def dumps(state: dict) -> str:
    """The state as JSON text; `loads(dumps(s)) == s`."""
    return json.dumps(state, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> dict:
    state = json.loads(text)
    if not isinstance(state, dict) or "pending" not in state or "setup" not in state:
        raise ValueError("loads: not an Ex Libris state")
    return State(state)


def setup_of(state: dict) -> dict:
    """What `replay` and `steps` start this game from (the `new_game` arguments)."""
    return _copy(state["setup"])


def steps(setup: dict, moves: Iterable, *, resume: dict | None = None) -> Iterator[dict]:
    """The one fold over a move log: the deal, then the state after each (seat, action); with
    `resume`, only the states after it. IllegalAction at a refused move."""
    return fold(
        lambda: new_game(
            setup["players"],
            seed=setup["seed"],
            variant=setup.get("variant", "standard"),
            options=setup.get("options"),
            first_player=setup.get("first_player"),
        ),
        apply_action,
        moves,
        resume=resume,
    )


def replay(setup: dict, moves: Iterable) -> dict:
    """The state after `moves`; `replay(setup_of(s), log) == s`."""
    return last(steps(setup, moves))
