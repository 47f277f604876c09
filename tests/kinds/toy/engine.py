"""High card: the pure engine of the toy kind (the contract of `games/kinds/protocol.py`).

Nine cards, c1…c9. Each of 2 or 3 players is dealt 3 from a seeded shuffle; with 2 players the
last 3 stay face down in the stock and nobody ever sees them. Three tricks: from the leader
round the table, each player plays a card face down (only its owner knows it); once all have
played, the trick is turned up and the highest card wins it ("low" variant: the lowest). The
winner scores a point (two for the last trick with `last_trick_double`) and leads the next
trick. Most points wins; equal points share the place.

Small as it is, it keeps secrets the way a real game does (hands, face-down cards, the stock,
the seed), so the conformance suite's non-interference check has something to catch.
Standard library only, like every engine.
"""

import copy
import json
import random
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields

from games.kinds.protocol import fold, last

VARIANTS = ("high", "low")
PLAYER_COUNTS = (2, 3)
OPTIONS = {"last_trick_double": False}
DECK = tuple(f"c{rank}" for rank in range(1, 10))
HAND_SIZE = 3


class IllegalAction(ValueError):
    """A setup or an action the rules refuse; the message says which rule."""


@dataclass
class State:
    setup: dict  # the arguments of new_game: what `steps` deals again
    players: int
    variant: str
    options: dict
    version: int  # actions applied so far
    hands: list  # one list of cards per seat, in dealt order
    stock: list  # the cards nobody was dealt: never shown
    leader: int  # who plays first in the trick under way
    trick: list  # [seat, card] played face down in the trick under way
    tricks: list  # the tricks turned up: {"cards": [[seat, card], …], "winner", "points"}
    points: list
    events: list  # what the last step did (see `events_for`)


def rank(card: str) -> int:
    return int(card[1:])


# ----------------------------------------------------------------------------------- setup


def new_game(players: int, *, seed: int | str, variant: str, options: dict | None) -> State:
    if players not in PLAYER_COUNTS or isinstance(players, bool):
        raise IllegalAction("setup: High card is played by 2 or 3 players")
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise IllegalAction("setup: the seed must be an integer or a string")
    if variant not in VARIANTS:
        raise IllegalAction(f"setup: no variant {variant!r}")
    options = {**OPTIONS, **(options or {})}
    if set(options) != set(OPTIONS) or not all(isinstance(v, bool) for v in options.values()):
        raise IllegalAction("setup: unknown or non-boolean option")
    deck = list(DECK)
    random.Random(f"{seed}/deal").shuffle(deck)
    setup = {"players": players, "seed": seed, "variant": variant, "options": options}
    return State(
        setup=setup,
        players=players,
        variant=variant,
        options=dict(options),
        version=0,
        hands=[deck[HAND_SIZE * seat : HAND_SIZE * (seat + 1)] for seat in range(players)],
        stock=deck[HAND_SIZE * players :],
        leader=0,
        trick=[],
        tricks=[],
        points=[0] * players,
        events=[{"type": "dealt", "players": players, "leader": 0}],
    )


# ------------------------------------------------------------------------------------ play


def over(state: State) -> bool:
    return len(state.tricks) == HAND_SIZE


def to_act(state: State) -> list[int]:
    if over(state):
        return []
    return [(state.leader + len(state.trick)) % state.players]


def legal_actions(state: State, seat) -> list[dict]:
    if seat not in to_act(state):
        return []
    return [{"type": "play", "card": card} for card in sorted(state.hands[seat], key=rank)]


def apply_action(state: State, seat, action) -> State:
    if seat not in to_act(state):
        raise IllegalAction("turn: it is not this seat's turn to play")
    well_formed = isinstance(action, dict) and action.keys() == {"type", "card"}
    if not well_formed or action["type"] != "play":
        raise IllegalAction("play: the only action is {'type': 'play', 'card': …}")
    card = action["card"]
    if card not in state.hands[seat]:
        raise IllegalAction("play: a player plays a card from its own hand")
    new = loads(dumps(state))
    new.version += 1
    new.events = [{"type": "played", "seat": seat, "secret_to": [seat], "secret": {"card": card}}]
    new.hands[seat] = [c for c in new.hands[seat] if c != card]
    new.trick.append([seat, card])
    if len(new.trick) == new.players:
        _turn_up(new)
    return new


def _turn_up(state: State) -> None:
    """The trick is complete: show it, score it, and let its winner lead."""
    best = max if state.variant == "high" else min
    winner = best(state.trick, key=lambda played: rank(played[1]))[0]
    last = len(state.tricks) == HAND_SIZE - 1
    points = 2 if last and state.options["last_trick_double"] else 1
    state.tricks.append({"cards": state.trick, "winner": winner, "points": points})
    state.points[winner] += points
    state.events.append({"type": "trick", "cards": state.trick, "winner": winner, "points": points})
    state.trick, state.leader = [], winner
    if over(state):
        state.events.append({"type": "over", "winners": result(state)["winners"]})


def result(state: State) -> dict:
    if not over(state):
        raise ValueError("result: the game is not over")
    places = [1 + sum(other > mine for other in state.points) for mine in state.points]
    return {
        "players": [
            {"seat": seat, "place": place, "points": state.points[seat]}
            for seat, place in enumerate(places)
        ],
        "winners": [seat for seat, place in enumerate(places) if place == 1],
    }


# ----------------------------------------------------------------------------------- views


def _check_seat(state: State, seat) -> None:
    if seat in (None, "all"):
        return
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise ValueError(f"view: seat must be 0–{state.players - 1}, None or 'all'")


def events_for(state: State, seat) -> list[dict]:
    shown = []
    for event in state.events:
        public = {k: v for k, v in event.items() if k not in ("secret", "secret_to")}
        if "secret" in event and (seat == "all" or seat in event["secret_to"]):
            public.update(event["secret"])
        shown.append(public)
    return copy.deepcopy(shown)


def view(state: State, seat) -> dict:
    """What `seat` may know now: its own hand and face-down card, and what was turned up."""
    _check_seat(state, seat)
    everything = seat == "all"
    seen = {
        "variant": state.variant,
        "num_players": state.players,
        "options": dict(state.options),
        "version": state.version,
        "seat": seat,
        "phase": "over" if over(state) else "play",
        "to_act": to_act(state),
        "leader": state.leader,
        "hand_sizes": [len(hand) for hand in state.hands],
        "stock_size": len(state.stock),
        "trick": [
            {"seat": player, "card": card if everything or player == seat else None}
            for player, card in state.trick
        ],
        "tricks": copy.deepcopy(state.tricks),
        "points": list(state.points),
        "hand": None,
        "legal_actions": [],
        "events": events_for(state, seat),
    }
    if isinstance(seat, int) and not everything:
        seen["hand"] = sorted(state.hands[seat], key=rank)
        seen["legal_actions"] = legal_actions(state, seat)
    if everything:
        seen["hands"] = [sorted(hand, key=rank) for hand in state.hands]
        seen["stock"] = list(state.stock)
        seen["legal_actions"] = [a for s in to_act(state) for a in legal_actions(state, s)]
    if over(state):
        seen["result"] = result(state)
    return seen


# ----------------------------------------------------------------------------- persistence

_FIELDS = tuple(f.name for f in fields(State))


def dumps(state: State) -> str:
    return json.dumps(asdict(state), separators=(",", ":"))


def loads(text: str) -> State:
    data = json.loads(text)
    if not isinstance(data, dict) or set(data) != set(_FIELDS):
        raise ValueError("loads: not a High card state")
    return State(**data)


def setup_of(state: State) -> dict:
    return copy.deepcopy(state.setup)


def steps(setup: dict, moves, *, resume: State | None = None) -> Iterator[State]:
    return fold(
        lambda: new_game(
            setup["players"], seed=setup["seed"], variant=setup["variant"], options=setup["options"]
        ),
        apply_action,
        moves,
        resume=resume,
    )


def replay(setup: dict, moves) -> State:
    return last(steps(setup, moves))


# ------------------------------------------------------------------------------- redaction


def public_setup(setup: dict) -> dict:
    """Without the seed, which deals every hand and the stock again."""
    return {key: value for key, value in setup.items() if key != "seed"}


def public_action(seat: int, action: dict, reader) -> dict:
    """Every card played is turned up with its trick, and a game ends only after its last
    trick: once over, every move is public."""
    return dict(action)


def open_hands_view(states: list[State], step: int) -> dict:
    """A spectator's view of `states[step]` with each hand open as far as the table saw its
    cards turned up by the last of `states` (the stock never shows)."""
    shown = {card for trick in states[-1].tricks for _, card in trick["cards"]}
    state = states[step]
    seen = view(state, None)
    seen["open_hands"] = [
        {
            "cards": sorted((card for card in hand if card in shown), key=rank),
            "hidden": sum(card not in shown for card in hand),
        }
        for hand in state.hands
    ]
    return seen


def redraw_hidden(state: State, seat, rng: random.Random) -> State:
    """`state` with every card `seat` (None: a spectator) cannot see now shuffled among the
    places that hide them (other hands, other seats' face-down cards, the stock) and a new
    seed; `view(·, seat)` must not tell the two apart."""
    data = json.loads(dumps(state))
    slots = [(data["stock"], i) for i in range(len(data["stock"]))]
    for other, hand in enumerate(data["hands"]):
        if other != seat:
            slots += [(hand, i) for i in range(len(hand))]
    slots += [(played, 1) for played in data["trick"] if played[0] != seat]
    cards = [container[key] for container, key in slots]
    for (container, key), card in zip(slots, rng.sample(cards, len(cards)), strict=True):
        container[key] = card
    faced_down = {player: card for player, card in data["trick"]}
    for event in data["events"]:
        if event["type"] == "played" and event["seat"] != seat:
            event["secret"]["card"] = faced_down.get(event["seat"], event["secret"]["card"])
    data["setup"]["seed"] = rng.getrandbits(64)
    return State(**data)
