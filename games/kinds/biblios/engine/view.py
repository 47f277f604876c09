"""What each seat may know (R22): `view` and `events_for`, the only doors through which the
game's information leaves the engine, and the redaction of a game for those who watch or replay
it (`public_setup`, `public_action`, `revealed_cards`, `open_hands_view`, `redraw_hidden`)."""

import copy
import json
import random

from .cards import CATEGORIES, DECK_ORDER
from .rules import dumps, legal_actions, result
from .state import STEP_RULE, State, _actor, _gold_auction, _sorted_cards, to_act

# --------------------------------------------------------------------------------- views


def events_for(state: State, seat) -> list[dict]:
    """The last action's events as `seat` may see them (a seat, None for spectators, or "all")."""
    shown = []
    for event in state.events:
        public = {k: v for k, v in event.items() if k not in ("secret", "secret_to")}
        if "secret" in event and (seat == "all" or seat in event["secret_to"]):
            public.update(event["secret"])
        shown.append(public)
    return copy.deepcopy(shown)  # the caller's to decorate; the state's events stay as they were


def view(state: State, seat) -> dict:
    """What `seat` may know now (R22): a seat number, None for a spectator, "all" for the admin.

    The only door through which game information leaves the engine for a client.
    """
    omniscient = seat == "all"
    if (
        not omniscient
        and seat is not None
        and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.num_players
        )
    ):
        raise ValueError(f"view: seat must be 0–{state.num_players - 1}, None or 'all'")
    over = state.phase == "over"
    actor = _actor(state)
    active_knows = omniscient or seat == state.active

    seen = {
        "edition": state.edition,
        "num_players": state.num_players,
        "options": dict(state.options),
        "version": state.version,
        "seat": seat,
        "phase": state.phase,
        "to_act": to_act(state),
        "awaiting": _awaiting(state, actor),
        "first_player": state.first_player,
        "active": state.active,
        "dice": dict(zip(CATEGORIES, state.dice, strict=True)),
        "draw_pile_size": len(state.draw_pile),
        "auction_pile_size": len(state.auction_pile),
        "removed_count": len(state.removed),
        "hand_sizes": [len(hand) for hand in state.hands],
        "public_space": list(state.public_space),
        "public_discard": list(state.discard),
        "gift": {
            "self_placed": state.self_used,
            "auction_placed": state.auction_used,
            "placed": state.placed,
            "picks": state.picks,
            "drawing": state.drawing if active_knows else None,
            "self_card": state.self_card if active_knows else None,
        },
        "church": {"card": state.church[0], "seat": state.church[1]} if state.church else None,
        "auction": _auction_view(state),
        "hand": None,
        "my_auction_cards": [],
        "my_hidden_discards": [],
        "legal_actions": [],
        "events": events_for(state, seat),
    }
    if isinstance(seat, int) and not omniscient:
        seen["hand"] = _sorted_cards(state.hands[seat])
        seen["my_auction_cards"] = _sorted_cards(
            card for card in state.auction_pile if state.placed_by.get(card) == seat
        )
        seen["my_hidden_discards"] = _sorted_cards(
            card for card, knowers in state.hidden_discard if seat in knowers
        )
        seen["legal_actions"] = legal_actions(state, seat)
    if over or omniscient:
        seen["hands"] = [_sorted_cards(hand) for hand in state.hands]  # R22: shown at the end
    if over:
        seen["result"] = result(state)
    if omniscient:
        seen["zones"] = zones(state)
        seen["legal_actions"] = legal_actions(state, actor) if actor is not None else []
    return seen


def _awaiting(state: State, actor) -> dict | None:
    if actor is None:
        return None
    awaiting = {"seat": actor, "step": state.step, "rule": STEP_RULE[state.step]}
    if state.step in ("pay", "give"):
        awaiting["amount"] = state.high_bid
        awaiting["remaining"] = state.high_bid - state.given
    return awaiting


def _auction_view(state: State) -> dict | None:
    if state.auction_card is None:
        return None
    return {
        "card": state.auction_card,
        "gold": _gold_auction(state),
        "auctioneer": state.active,
        "high_bid": state.high_bid,
        "high_bidder": state.high_bidder,
        "bids": [list(bid) for bid in state.bids],
        "passed": sorted(state.passed),
        "excluded": list(state.excluded),
        "given": state.given,
    }


def zones(state: State) -> dict:
    """Where every one of the 87 cards is (the omniscient view, for the admin inspector).

    Zones: draw_pile (top first), removed (R1), hands (per seat), drawing (being placed),
    self_card (placed face down to self), public_space, auction_pile (in order), auction_card,
    church_card (awaiting its owner), discard (out of the game, face up or down).
    """
    return {
        "draw_pile": list(state.draw_pile),
        "removed": list(state.removed),
        "hands": [list(hand) for hand in state.hands],
        "drawing": [state.drawing] if state.drawing else [],
        "self_card": [state.self_card] if state.self_card else [],
        "public_space": list(state.public_space),
        "auction_pile": list(state.auction_pile),
        "auction_card": [state.auction_card] if state.auction_card else [],
        "church_card": [state.church[0]] if state.church else [],
        "discard": list(state.discard) + [card for card, _ in state.hidden_discard],
    }


# ------------------------------------------------------------------------------ redaction


def public_setup(setup: dict) -> dict:
    """A setup as anyone may know it: without the seed and the deck, which would recompute the
    removed cards and the deal (R1)."""
    return {key: value for key, value in setup.items() if key not in ("seed", "deck")}


def public_action(seat: int, action: dict, reader) -> dict:
    """`seat`'s logged `action` as `reader` (a seat, or None) may know it once the game is
    over: the card a `give` discarded face down stays its owner's (R12, R22)."""
    if action["type"] == "give" and seat != reader:
        return {"type": "give", "card": None}
    return action


def revealed_cards(states: list[State]) -> set[str]:
    """Every card the whole table saw face up in `states`, plus the final hands if over (R22)."""
    shown = set()
    for state in states:
        shown |= set(state.public_space) | set(state.discard)
        shown |= {card for card in (state.auction_card,) if card}
        if state.church:
            shown.add(state.church[0])
    if states[-1].phase == "over":
        for hand in states[-1].hands:
            shown |= set(hand)
    return shown


def open_hands_view(states: list[State], step: int) -> dict:
    """A spectator's view of `states[step]` with `open_hands`: each hand open as far as the
    whole table saw its cards by the last of `states` (a card later discarded face down stays
    hidden; the removed cards and the draw pile's order never show, R1, R22). What a finished
    game may show to anyone."""
    state = states[step]
    shown = revealed_cards(states)
    seen = view(state, None)
    seen["open_hands"] = [
        {
            "cards": [card for card in _sorted_cards(hand) if card in shown],
            "hidden": sum(card not in shown for card in hand),
        }
        for hand in state.hands
    ]
    return seen


def redraw_hidden(state: State, seat, rng: random.Random) -> State:
    """`state` with the cards `seat` (or None, a spectator) cannot see now dealt anew among the
    places that hide them, and a new seed for what is still to be drawn.

    What `seat` may know stays put: its hand, the cards it placed in the auction pile or saw
    discarded face down, the card it draws and keeps, the public cards, the cards the last
    action's events name to it, every hand once the game is over (R22). `view(state, seat)`
    must not tell the two states apart: the conformance suite (tests/kinds/) checks it.
    """
    data = json.loads(dumps(state))
    told = set()  # the cards the last action's events name to `seat` (not via `events_for`,
    for event in state.events:  # which is what this redraw is there to check)
        told |= _cards_named([v for k, v in event.items() if k not in ("secret", "secret_to")])
        if "secret" in event and seat in event["secret_to"]:
            told |= _cards_named(event["secret"])
    slots = []  # (container, key) of every place holding a card `seat` cannot see

    def hidden(container, key):
        if container[key] is not None and container[key] not in told:
            slots.append((container, key))

    for zone in ("draw_pile", "removed"):
        for i in range(len(data[zone])):
            hidden(data[zone], i)
    if state.phase != "over":
        for other, hand in enumerate(data["hands"]):
            for i in range(len(hand) if other != seat else 0):
                hidden(hand, i)
    for i, card in enumerate(data["auction_pile"]):
        if state.placed_by.get(card) != seat:
            hidden(data["auction_pile"], i)
    for entry in data["hidden_discard"]:
        if seat not in entry[1]:
            hidden(entry, 0)
    if seat != state.active:
        hidden(data, "drawing")
        hidden(data, "self_card")
    cards = [container[key] for container, key in slots]
    renamed = dict(zip(cards, rng.sample(cards, len(cards)), strict=True))
    for container, key in slots:
        container[key] = renamed[container[key]]
    data["placed_by"] = {
        renamed.get(card, card): placer for card, placer in data["placed_by"].items()
    }
    for event in data["events"]:
        if "secret" in event and seat not in event["secret_to"]:
            event["secret"] = {
                key: renamed.get(value, value) if isinstance(value, str) else value
                for key, value in event["secret"].items()
            }
    data["seed"] = data["setup"]["seed"] = rng.getrandbits(64)
    return State(**data)


def _cards_named(value) -> set[str]:
    """Every card id among the strings of a JSON-like value."""
    if isinstance(value, str):
        return {value} if value in DECK_ORDER else set()
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*map(_cards_named, value)) if value else set()
    return set()
