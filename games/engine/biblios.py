"""The Biblios rules engine: pure, deterministic, replayable.

Everything the platform knows about the game goes through this module's public functions, the
engine contract of `games/engine/protocol.py`: `new_game`, `to_act`, `legal_actions`,
`apply_action`, `view`, `events_for`, `result`, `dumps`, `loads`, `setup_of`, `replay`, `steps`,
and the redaction rules `public_setup`, `public_action`, `open_hands_view`, `redraw_hidden`.
Rules are cited by their tags in `shared/rules/biblios-spec.md` (R1…R22).

Conventions:
- Seats are numbered 0…N-1 clockwise; the player on a seat's left is the next seat clockwise.
- A state is plain data (lists, dicts, ints, strings). `apply_action` never changes the state it is
  given: it works on a copy. Randomness after setup comes from `seed` and a draw counter held in
  the state, so the same setup and actions always give the same game.
- Automatic steps (drawing the next card, revealing the next auction card, a default's penalty)
  happen inside `apply_action`; a state always waits for exactly one seat, or the game is over.

Actions (JSON-able dicts):
    {"type": "place", "to": "self" | "auction" | "public"}    gift phase, R3
    {"type": "pick", "card": id}                              gift phase, R5
    {"type": "use_church", "dice": [category, …], "delta": ±1}  R16–R18
    {"type": "discard_church"}                                R16
    {"type": "bid", "amount": n} / {"type": "pass"}           R9, R10, R13
    {"type": "pay", "cards": [gold ids]}                      non-Gold card won, R11
    {"type": "give", "card": id}                              Gold card won: one face-down card, R12
    {"type": "refuse"}                                        winner will not pay, R13–R15

Bid cap (R10, R13): with `forbid_uncoverable_bids` a bid may not exceed what the bidder can pay
(total Gold value, or hand size for a Gold card). Otherwise the cap depends only on public facts,
so that it reveals nothing: 3 × hand size for a Gold bid (no hand of that size could pay more) and
hand size for a card-count bid; the minimum bid is always allowed.
"""

import copy
import json
import random
from collections.abc import Iterator
from dataclasses import asdict, dataclass, fields

from .cards import (
    CARD_IDS,
    CATEGORIES,
    CATEGORY_INDEX,
    CHURCH_DELTAS,
    CHURCH_DICE,
    DECK_ORDER,
    GOLD_BY_VALUE,
    KIND,
    VALUE,
)
from .protocol import fold, last
from .scoring import score

VARIANTS = ("biblios", "scripts_and_scribes")  # the editions (spec §8)
OPTIONS = {"medieval_bluff": False, "forbid_uncoverable_bids": False}
FIXED_GOLD_REMOVED = {2: 2, 3: 1, 4: 0}  # R1: Gold cards of each value removed before shuffling
RANDOM_REMOVED = {2: 21, 3: 12, 4: 7}  # R1: random cards removed after shuffling
PLAYER_COUNTS = tuple(FIXED_GOLD_REMOVED)
DRAW_PILE_SIZE = {n: 87 - 3 * FIXED_GOLD_REMOVED[n] - RANDOM_REMOVED[n] for n in PLAYER_COUNTS}
DIE_MIN, DIE_MAX, DIE_START = 1, 6, 3  # R2, R18

STEP_RULE = {"place": "R3", "pick": "R5", "church": "R16", "bid": "R9", "pay": "R11", "give": "R12"}
STEP_WORDS = {
    "place": "place a drawn card",
    "pick": "pick a public card",
    "church": "resolve a church card",
    "bid": "bid or pass",
    "pay": "pay for the card won",
    "give": "discard cards for the Gold card won",
}
ACTION_FIELDS = {
    "place": {"to"},
    "pick": {"card"},
    "use_church": {"dice", "delta"},
    "discard_church": set(),
    "bid": {"amount"},
    "pass": set(),
    "pay": {"cards"},
    "give": {"card"},
    "refuse": set(),
}
ACTION_KEYS = {kind: frozenset(keys | {"type"}) for kind, keys in ACTION_FIELDS.items()}
ACTION_STEPS = {
    "place": ("place",),
    "pick": ("pick",),
    "use_church": ("church",),
    "discard_church": ("church",),
    "bid": ("bid",),
    "pass": ("bid",),
    "pay": ("pay",),
    "give": ("give",),
    "refuse": ("pay", "give"),
}


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the rule."""


@dataclass
class State:
    """One moment of a game. Plain data: `dumps` writes it as JSON, `loads` reads it back."""

    setup: dict  # the arguments of new_game, enough to replay the game from the start
    num_players: int
    edition: str
    options: dict
    first_player: int
    seed: int | str
    rng_draws: int  # random draws used since setup: the next one is seeded from seed + this
    version: int  # number of actions applied
    phase: str  # "gift" | "auction" | "over"
    step: str  # what is awaited: "place" | "pick" | "church" | "bid" | "pay" | "give" | "over"
    dice: list  # one die per category, in Scriptorium order
    draw_pile: list  # top card first
    removed: list  # R1: never seen by any player
    hands: list  # one list of card ids per seat
    discard: list  # out of the game, face up: seen by everyone
    hidden_discard: list  # out of the game, face down: [card, [seats that know it]]
    active: int  # gift: the allocating player; auction: the player whose card is auctioned
    drawing: str | None  # the card the active player has drawn and must place (R3)
    self_card: str | None  # placed face down to self, taken into hand after allocating (R5)
    placed: int  # cards allocated this gift turn
    self_used: bool
    auction_used: bool
    public_space: list
    picks: int  # public cards picked this gift turn
    auction_pile: list
    placed_by: dict  # auction-pile card -> seat that placed it (R22)
    church: list | None  # [card, owner] while a church card awaits its owner (R16)
    auction_card: str | None
    bidder: int | None  # whose turn it is to bid
    high_bid: int
    high_bidder: int | None
    passed: list
    excluded: list  # defaulters on the current card (R14)
    bids: list  # [seat, amount or None for a pass] for the current card, in order
    given: int  # cards discarded so far for a Gold card won (R12)
    events: list  # what the last action did (see `events_for`)


_FIELD_NAMES = tuple(f.name for f in fields(State))


def _clone(state: State) -> State:
    """A copy that an action may change without touching `state`.

    Lists and dicts inside a state are never changed in place: an action replaces whatever it
    changes with a new list (see `_add_to_hand`), so only the outer dict and the list of hands
    need copying. The property tests check that applying an action leaves its input unchanged.
    """
    data = state.__dict__.copy()
    data["hands"] = state.hands[:]
    data["events"] = []
    clone = object.__new__(State)
    clone.__dict__ = data
    return clone


def _add_to_hand(state: State, seat: int, card: str) -> None:
    state.hands[seat] = [*state.hands[seat], card]


def _remove_from_hand(state: State, seat: int, cards) -> None:
    gone = set(cards)
    state.hands[seat] = [card for card in state.hands[seat] if card not in gone]


def _rng(state: State, purpose: str) -> random.Random:
    """The next random stream, derived from the stored seed only (never a clock or global)."""
    state.rng_draws += 1
    return random.Random(f"{state.seed}/{purpose}/{state.rng_draws}")


def _event(state: State, kind: str, secret_to=None, secret=None, **public) -> None:
    """Record an event; `secret` fields are shown only to the seats in `secret_to` (R22)."""
    event = {"type": kind, **public}
    if secret:
        event["secret_to"] = list(secret_to)
        event["secret"] = secret
    state.events.append(event)


# --------------------------------------------------------------------------------------- setup


def new_game(
    num_players: int,
    *,
    seed: int | str,
    variant: str = "biblios",
    options: dict | None = None,
    first_player: int | None = None,
    deck: list | None = None,
) -> State:
    """Set up a game (R1, R2). `variant` is the edition (`VARIANTS`); `deck`, when given, is
    the exact draw pile, top card first."""
    if num_players not in DRAW_PILE_SIZE or isinstance(num_players, bool):
        raise IllegalAction("R1: Biblios is played by 2, 3 or 4 players")
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise IllegalAction("setup: the seed must be an integer or a string")
    if variant not in VARIANTS:
        raise IllegalAction(f"setup: unknown edition {variant!r} (one of {', '.join(VARIANTS)})")
    table_options = _checked_options(options, variant)
    if first_player is not None and (
        not isinstance(first_player, int)
        or isinstance(first_player, bool)
        or not 0 <= first_player < num_players
    ):
        raise IllegalAction(f"R2: the first player must be a seat from 0 to {num_players - 1}")

    if deck is None:
        draw_pile, removed = _shuffled_setup(num_players, seed)
    else:
        draw_pile, removed = _scripted_setup(num_players, deck)
    if first_player is None:
        first_player = random.Random(f"{seed}/first-player").randrange(num_players)

    state = State(
        setup={
            "num_players": num_players,
            "seed": seed,
            "edition": variant,
            "options": dict(table_options),
            "first_player": first_player,
            "deck": list(deck) if deck is not None else None,
        },
        num_players=num_players,
        edition=variant,
        options=table_options,
        first_player=first_player,
        seed=seed,
        rng_draws=0,
        version=0,
        phase="gift",
        step="place",
        dice=[DIE_START] * len(CATEGORIES),
        draw_pile=draw_pile,
        removed=removed,
        hands=[[] for _ in range(num_players)],
        discard=[],
        hidden_discard=[],
        active=first_player,
        drawing=None,
        self_card=None,
        placed=0,
        self_used=False,
        auction_used=False,
        public_space=[],
        picks=0,
        auction_pile=[],
        placed_by={},
        church=None,
        auction_card=None,
        bidder=None,
        high_bid=0,
        high_bidder=None,
        passed=[],
        excluded=[],
        bids=[],
        given=0,
        events=[],
    )
    _event(
        state,
        "game_started",
        players=num_players,
        edition=variant,
        first_player=first_player,
        options=dict(table_options),
    )
    _continue_gift(state)
    return state


def _checked_options(options: dict | None, edition: str) -> dict:
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise IllegalAction("setup: options must be a mapping of option names to true/false")
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise IllegalAction(f"setup: unknown table options {sorted(unknown)}")
    if any(not isinstance(value, bool) for value in options.values()):
        raise IllegalAction("setup: table options are true or false")
    checked = {**OPTIONS, **options}
    if checked["medieval_bluff"] and edition != "biblios":
        raise IllegalAction("R15: Medieval bluff is a Biblios option, not in Scripts & Scribes")
    return checked


def _shuffled_setup(num_players: int, seed) -> tuple[list, list]:
    """R1: remove the fixed Gold, shuffle, then remove the random cards face down."""
    fixed = [
        card for v in (1, 2, 3) for card in GOLD_BY_VALUE[v][: FIXED_GOLD_REMOVED[num_players]]
    ]
    fixed_set = set(fixed)
    pile = [card for card in CARD_IDS if card not in fixed_set]
    random.Random(f"{seed}/setup").shuffle(pile)
    cut = RANDOM_REMOVED[num_players]
    return pile[cut:], fixed + pile[:cut]


def _scripted_setup(num_players: int, deck) -> tuple[list, list]:
    """Accept a given draw pile only if some shuffle could have produced it (R1)."""
    expected = DRAW_PILE_SIZE[num_players]
    if not isinstance(deck, list | tuple) or not all(isinstance(c, str) for c in deck):
        raise IllegalAction("R1: the deck must be a list of card ids")
    unknown = [card for card in deck if card not in DECK_ORDER]
    if unknown:
        raise IllegalAction(f"R1: unknown card ids in the deck: {unknown[:5]}")
    if len(set(deck)) != len(deck):
        raise IllegalAction("R1: a card appears twice in the deck")
    if len(deck) != expected:
        raise IllegalAction(
            f"R1: a {num_players}-player draw pile has {expected} cards, not {len(deck)}"
        )
    in_deck = set(deck)
    removed = [card for card in CARD_IDS if card not in in_deck]
    for value in (1, 2, 3):
        out = sum(1 for card in removed if KIND[card] == "gold" and VALUE[card] == value)
        if out < FIXED_GOLD_REMOVED[num_players]:
            raise IllegalAction(
                f"R1: a {num_players}-player game removes {FIXED_GOLD_REMOVED[num_players]} "
                f"Gold {value} before shuffling; this deck keeps too many"
            )
    return list(deck), removed


# ------------------------------------------------------------------------------- who acts now


def _actor(state: State) -> int | None:
    step = state.step
    if step == "place":
        return state.active
    if step == "pick":
        return (state.active + 1 + state.picks) % state.num_players
    if step == "church":
        return state.church[1]
    if step == "bid":
        return state.bidder
    if step in ("pay", "give"):
        return state.high_bidder
    return None


def to_act(state: State) -> list[int]:
    """The seats expected to act now: one seat, or none once the game is over."""
    seat = _actor(state)
    return [] if seat is None else [seat]


# ------------------------------------------------------------------------------ legal actions


def legal_actions(state: State, seat) -> list[dict]:
    """Every action `seat` may take now (bids up to the documented cap, minimal payments)."""
    actor = _actor(state)
    if actor is None or seat != actor or isinstance(seat, bool):
        return []
    step = state.step
    if step == "place":
        return [{"type": "place", "to": to} for to in _open_destinations(state)]
    if step == "pick":
        return [{"type": "pick", "card": card} for card in state.public_space]
    if step == "church":
        return [
            {"type": "use_church", "dice": list(dice), "delta": delta}
            for dice, delta in _church_uses(state)
        ] + [{"type": "discard_church"}]
    if step == "bid":
        low, high = _bid_range(state, seat)
        bids = [{"type": "bid", "amount": amount} for amount in range(low, high + 1)]
        return bids + [{"type": "pass"}]
    if step == "pay":
        payments = [{"type": "pay", "cards": cards} for cards in _minimal_payments(state, seat)]
        return payments + [{"type": "refuse"}]
    # step == "give"
    gives = []
    if len(state.hands[seat]) >= state.high_bid - state.given:
        gives = [{"type": "give", "card": card} for card in _sorted_cards(state.hands[seat])]
    return gives + ([{"type": "refuse"}] if state.given == 0 else [])


def _open_destinations(state: State) -> list[str]:
    open_to = []
    if not state.self_used:
        open_to.append("self")
    if not state.auction_used:
        open_to.append("auction")
    if len(state.public_space) < state.num_players - 1:
        open_to.append("public")
    return open_to


def _church_uses(state: State) -> list[tuple[tuple[str, ...], int]]:
    """R17, R18: every use of the pending church card that keeps the dice within 1–6."""
    card = state.church[0]
    uses = []
    for delta in CHURCH_DELTAS[card]:
        movable = [
            category
            for category, value in zip(CATEGORIES, state.dice, strict=True)
            if DIE_MIN <= value + delta <= DIE_MAX
        ]
        if CHURCH_DICE[card] == 1:
            uses.extend(((category,), delta) for category in movable)
        else:
            uses.extend(
                ((first, second), delta)
                for i, first in enumerate(movable)
                for second in movable[i + 1 :]
            )
    return uses


def _gold_auction(state: State) -> bool:
    return KIND[state.auction_card] == "gold"


def _coverable(state: State, seat: int) -> int:
    """What a seat can pay: Gold value in hand, or cards in hand for a Gold card (R11, R12)."""
    hand = state.hands[seat]
    if _gold_auction(state):
        return len(hand)
    return sum(VALUE[card] for card in hand if KIND[card] == "gold")


def _bid_range(state: State, seat: int) -> tuple[int, int]:
    """The lowest and highest bid `seat` may make now (R9, R10, R13; cap in module doc)."""
    low = state.high_bid + 1
    if state.options["forbid_uncoverable_bids"]:
        return low, _coverable(state, seat)
    hand_size = len(state.hands[seat])
    public_bound = hand_size if _gold_auction(state) else 3 * hand_size
    return low, max(low, public_bound)


def _minimal_payments(state: State, seat: int) -> list[list[str]]:
    """R11: every set of Gold covering the bid from which no card can be removed.

    Gold cards of one value are interchangeable, so each set is listed once, with the seat's
    lowest card ids of each value.
    """
    bid = state.high_bid
    gold = {1: [], 2: [], 3: []}
    for card in _sorted_cards(state.hands[seat]):
        if KIND[card] == "gold":
            gold[VALUE[card]].append(card)
    payments = []
    for threes in range(len(gold[3]) + 1):
        for twos in range(len(gold[2]) + 1):
            partial = 3 * threes + 2 * twos
            ones = max(0, bid - partial)
            if ones > len(gold[1]):
                continue
            total = partial + ones
            smallest = 1 if ones else (2 if twos else 3)
            if total < bid or total - smallest >= bid:
                continue
            payments.append(gold[1][:ones] + gold[2][:twos] + gold[3][:threes])
    return payments


def _sorted_cards(cards) -> list[str]:
    return sorted(cards, key=DECK_ORDER.__getitem__)


# ---------------------------------------------------------------------------- applying actions


def apply_action(state: State, seat, action) -> State:
    """Apply one action for `seat` and return the new state; `state` itself is left untouched.

    Raises IllegalAction, naming the rule, for anything the rules do not allow now.
    """
    try:
        kind = action["type"]
        keys = ACTION_KEYS[kind]
    except (TypeError, KeyError, IndexError):  # not a mapping, no type, unknown or odd type
        keys = None
    if keys is None or type(action) is not dict or action.keys() != keys:
        kind = _check_shape(action)
    step = state.step
    if step == "over":
        raise IllegalAction("R8, R9: the game is over; no more actions")
    if type(seat) is not int or not 0 <= seat < state.num_players:
        raise IllegalAction(
            f"malformed action: seat must be a number from 0 to {state.num_players - 1}"
        )
    actor = _actor(state)
    if step not in ACTION_STEPS[kind]:
        raise IllegalAction(
            f"{STEP_RULE[step]}: a {kind!r} action is not possible now; "
            f"waiting for seat {actor} to {STEP_WORDS[step]}"
        )
    if seat != actor:
        raise IllegalAction(
            f"{STEP_RULE[step]}: it is seat {actor}'s turn to {STEP_WORDS[step]}, not seat {seat}'s"
        )
    _CHECKS[kind](state, seat, action)  # raises before any copy is made
    new = _clone(state)
    new.version += 1
    _EFFECTS[kind](new, seat, action)
    return new


def _check_shape(action) -> str:
    """The precise complaint about a malformed action (the fast path in apply_action failed)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction('malformed action: expected an object with a "type"')
    kind = action["type"]
    keys = ACTION_KEYS.get(kind)
    if keys is None:
        raise IllegalAction(f"malformed action: unknown type {kind!r}")
    if action.keys() != keys:
        fields_wanted = sorted(keys - {"type"}) or "no fields"
        raise IllegalAction(f"malformed action: {kind!r} takes exactly {fields_wanted}")
    return kind


def _check_place(state, seat, action):
    to = action["to"]
    if to not in ("self", "auction", "public"):
        raise IllegalAction('malformed action: "to" is "self", "auction" or "public"')
    if to == "self" and state.self_used:
        raise IllegalAction("R3: this turn's card for yourself is already placed")
    if to == "auction" and state.auction_used:
        raise IllegalAction("R3: the auction pile already has this turn's card")
    if to == "public" and len(state.public_space) >= state.num_players - 1:
        raise IllegalAction(f"R3: the public space already holds {state.num_players - 1} cards")


def _check_pick(state, seat, action):
    card = action["card"]
    if not isinstance(card, str) or card not in state.public_space:
        raise IllegalAction("R5: pick one of the cards in the public space")


def _check_use_church(state, seat, action):
    dice, delta = action["dice"], action["delta"]
    card = state.church[0]
    if not isinstance(dice, list) or not all(isinstance(d, str) for d in dice):
        raise IllegalAction('malformed action: "dice" is a list of category names')
    if type(delta) is not int or delta not in CHURCH_DELTAS[card]:
        raise IllegalAction(f"R17: this church card moves dice by {list(CHURCH_DELTAS[card])}")
    unknown = [d for d in dice if d not in CATEGORY_INDEX]
    if unknown:
        raise IllegalAction(f"R17: unknown categories {unknown}")
    if len(dice) != CHURCH_DICE[card] or len(set(dice)) != len(dice):
        raise IllegalAction(
            f"R17: this church card moves exactly {CHURCH_DICE[card]} different dice"
            + (" (both or none, never 2 on one die)" if CHURCH_DICE[card] == 2 else "")
        )
    for category in dice:
        if not DIE_MIN <= state.dice[CATEGORY_INDEX[category]] + delta <= DIE_MAX:
            raise IllegalAction(f"R18: the {category} die cannot go outside 1–6")


def _check_nothing(state, seat, action):
    """Actions without fields are legal whenever their step is (checked by the caller)."""


def _check_bid(state, seat, action):
    amount = action["amount"]
    if type(amount) is not int:
        raise IllegalAction("R10: a bid is a whole number")
    low, high = _bid_range(state, seat)
    if amount < low:
        raise IllegalAction(f"R9, R10: a bid must be at least {low}")
    if amount > high:
        if state.options["forbid_uncoverable_bids"]:
            raise IllegalAction(f"R13: this table forbids bids you cannot cover (at most {high})")
        raise IllegalAction(f"R13: a bid above {high} could not be paid from a hand of this size")


def _check_pay(state, seat, action):
    cards = action["cards"]
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise IllegalAction('malformed action: "cards" is a list of card ids')
    hand = state.hands[seat]
    if len(set(cards)) != len(cards) or any(card not in hand for card in cards):
        raise IllegalAction("R11: pay with Gold cards from your own hand, each once")
    if any(KIND[card] != "gold" for card in cards):
        raise IllegalAction("R11: only Gold cards pay for a non-Gold card")
    if sum(VALUE[card] for card in cards) < state.high_bid:
        raise IllegalAction(
            f"R11: the Gold paid must add up to at least the bid ({state.high_bid})"
        )


def _check_give(state, seat, action):
    card = action["card"]
    if not isinstance(card, str) or card not in state.hands[seat]:
        raise IllegalAction("R12: discard a card from your own hand")
    if len(state.hands[seat]) < state.high_bid - state.given:
        raise IllegalAction(f"R12, R13: you hold fewer than the {state.high_bid} cards bid")


def _check_refuse(state, seat, action):
    if state.step == "give" and state.given:
        raise IllegalAction("R12: the payment has begun; the remaining cards must be discarded")


_CHECKS = {
    "place": _check_place,
    "pick": _check_pick,
    "use_church": _check_use_church,
    "discard_church": _check_nothing,
    "bid": _check_bid,
    "pass": _check_nothing,
    "pay": _check_pay,
    "give": _check_give,
    "refuse": _check_refuse,
}


# ------------------------------------------------------------------------------- gift phase


def _do_place(state: State, seat: int, action) -> None:
    """R3, R4: place the drawn card; a church card kept for oneself is acquired at once."""
    card, to = state.drawing, action["to"]
    state.drawing = None
    state.placed += 1
    if to == "self":
        state.self_used = True
        if KIND[card] == "church":
            _event(state, "placed", seat=seat, to="self", card=card)
            _acquire_church(state, card, seat)
            return
        state.self_card = card
        _event(state, "placed", seat=seat, to="self", secret_to=[seat], secret={"card": card})
    elif to == "auction":
        state.auction_used = True
        state.auction_pile = [*state.auction_pile, card]
        state.placed_by = {**state.placed_by, card: seat}
        _event(state, "placed", seat=seat, to="auction", secret_to=[seat], secret={"card": card})
    else:
        state.public_space = [*state.public_space, card]
        _event(state, "placed", seat=seat, to="public", card=card)
    _continue_gift(state)


def _do_pick(state: State, seat: int, action) -> None:
    """R5, R6: take one public card; a church card is resolved before the next pick."""
    card = action["card"]
    state.public_space = [other for other in state.public_space if other != card]
    state.picks += 1
    _event(state, "picked", seat=seat, card=card)
    if KIND[card] == "church":
        _acquire_church(state, card, seat)
        return
    _add_to_hand(state, seat, card)
    _continue_gift(state)


def _continue_gift(state: State) -> None:
    """Advance the gift phase to the next decision: draw, take the self card, pick, next turn."""
    n = state.num_players
    while True:
        if state.placed < n + 1:
            state.drawing, state.draw_pile = state.draw_pile[0], state.draw_pile[1:]
            state.step = "place"
            _event(
                state, "drew", seat=state.active, secret_to=[state.active],
                secret={"card": state.drawing},
            )  # fmt: skip
            return
        if state.self_card is not None:  # R5: allocation done, the self card goes to hand
            card, state.self_card = state.self_card, None
            _add_to_hand(state, state.active, card)
            _event(
                state, "took_own_card", seat=state.active, secret_to=[state.active],
                secret={"card": card},
            )  # fmt: skip
        if state.picks < n - 1:
            state.step = "pick"
            return
        if not state.draw_pile:  # R8
            _start_auctions(state)
            return
        state.active = (state.active + 1) % n
        state.placed = state.picks = 0
        state.self_used = state.auction_used = False
        _event(state, "gift_turn", seat=state.active)


# --------------------------------------------------------------------------------- church


def _acquire_church(state: State, card: str, owner: int) -> None:
    """R16: the game waits while the owner resolves the church card just acquired."""
    state.church = [card, owner]
    state.step = "church"
    _event(state, "church_acquired", seat=owner, card=card)


def _do_use_church(state: State, seat: int, action) -> None:
    """R17: move the chosen dice by the card's delta; the card is then discarded."""
    delta = action["delta"]
    dice = state.dice[:]
    for category in action["dice"]:
        dice[CATEGORY_INDEX[category]] += delta
    state.dice = dice
    dice_moved = list(action["dice"])
    _event(state, "church_used", seat=seat, card=state.church[0], dice=dice_moved, delta=delta)
    _finish_church(state)


def _do_discard_church(state: State, seat: int, action) -> None:
    _event(state, "church_unused", seat=seat, card=state.church[0])
    _finish_church(state)


def _finish_church(state: State) -> None:
    """R16: a church card never stays in hand; then the interrupted phase resumes."""
    state.discard = [*state.discard, state.church[0]]
    state.church = None
    if state.phase == "gift":
        _continue_gift(state)
    else:
        _next_auction(state)


# -------------------------------------------------------------------------------- auctions


def _start_auctions(state: State) -> None:
    """R9: shuffle the auction pile; the game's first player auctions the first card."""
    state.phase = "auction"
    pile = state.auction_pile[:]
    _rng(state, "auction-pile").shuffle(pile)
    state.auction_pile = pile
    state.active = state.first_player
    _event(state, "auction_phase", cards=len(state.auction_pile))
    _reveal(state)


def _next_auction(state: State) -> None:
    """The current card is settled: the next player clockwise auctions the next card."""
    state.active = (state.active + 1) % state.num_players
    _reveal(state)


def _reveal(state: State) -> None:
    if not state.auction_pile:
        state.phase = state.step = "over"
        state.bidder = state.high_bidder = None
        _event(state, "game_over")
        return
    card, state.auction_pile = state.auction_pile[0], state.auction_pile[1:]
    state.placed_by = {other: seat for other, seat in state.placed_by.items() if other != card}
    state.auction_card = card
    state.excluded = []
    _event(state, "auction_card", seat=state.active, card=card)
    _open_bidding(state)


def _open_bidding(state: State) -> None:
    """R9, R14: bidding (re)starts on the active player's left, defaulters excluded."""
    state.high_bid, state.high_bidder, state.given = 0, None, 0
    state.passed, state.bids = [], []
    state.bidder = state.active
    _next_bidder(state)


def _do_bid(state: State, seat: int, action) -> None:
    state.high_bid, state.high_bidder = action["amount"], seat
    state.bids = [*state.bids, [seat, action["amount"]]]
    _event(state, "bid", seat=seat, amount=action["amount"])
    _next_bidder(state)


def _do_pass(state: State, seat: int, action) -> None:
    state.passed = [*state.passed, seat]
    state.bids = [*state.bids, [seat, None]]
    _event(state, "passed", seat=seat)
    _next_bidder(state)


def _next_bidder(state: State) -> None:
    """R9: settle the auction when all but the high bidder have passed, else ask the next seat."""
    n = state.num_players
    in_play = [s for s in range(n) if s not in state.passed and s not in state.excluded]
    if state.high_bidder is not None and in_play == [state.high_bidder]:
        state.bidder = None
        state.step = "give" if _gold_auction(state) else "pay"
        _event(state, "auction_won", seat=state.high_bidder, amount=state.high_bid)
        return
    if not in_play:
        _event(state, "card_unsold", card=state.auction_card)
        state.discard = [*state.discard, state.auction_card]
        state.auction_card = None
        _next_auction(state)
        return
    seat = (state.bidder + 1) % n
    while seat not in in_play:
        seat = (seat + 1) % n
    state.bidder = seat
    state.step = "bid"


def _do_pay(state: State, seat: int, action) -> None:
    """R11: the Gold paid is shown to everyone and discarded."""
    cards = _sorted_cards(action["cards"])
    _remove_from_hand(state, seat, cards)
    state.discard = [*state.discard, *cards]
    _event(state, "paid", seat=seat, cards=cards, amount=state.high_bid)
    _award(state, seat)


def _do_give(state: State, seat: int, action) -> None:
    """R12: one card discarded face down; nobody else learns which."""
    card = action["card"]
    _remove_from_hand(state, seat, [card])
    state.hidden_discard = [*state.hidden_discard, [card, [seat]]]
    state.given += 1
    _event(state, "gave", seat=seat, secret_to=[seat], secret={"card": card})
    if state.given == state.high_bid:
        _award(state, seat)


def _award(state: State, seat: int) -> None:
    """The paid-for card goes to the winner; a church card is acquired now (R16)."""
    card, state.auction_card = state.auction_card, None
    if KIND[card] == "church":
        _acquire_church(state, card, seat)
        return
    _add_to_hand(state, seat, card)
    _event(state, "card_bought", seat=seat, card=card)
    _next_auction(state)


def _do_refuse(state: State, seat: int, action) -> None:
    """R13–R15: the defaulter is penalised and the same card is auctioned again without them."""
    _event(state, "refused", seat=seat, amount=state.high_bid)
    hand, n = state.hands[seat][:], state.num_players
    rng = _rng(state, "penalty")
    if state.options["medieval_bluff"]:  # R15
        if hand:
            left = (seat + 1) % n
            card = hand.pop(rng.randrange(len(hand)))
            state.hidden_discard = [*state.hidden_discard, [card, [left, seat]]]
            _event(
                state, "penalty_discard", seat=left, loser=seat, secret_to=[left, seat],
                secret={"card": card},
            )  # fmt: skip
    else:  # R14
        for offset in range(1, n):
            taker = (seat + offset) % n
            if not hand:
                break
            card = hand.pop(rng.randrange(len(hand)))
            _add_to_hand(state, taker, card)
            _event(
                state, "penalty_take", seat=taker, loser=seat, secret_to=[taker, seat],
                secret={"card": card},
            )  # fmt: skip
    state.hands[seat] = hand
    state.excluded = [*state.excluded, seat]
    _open_bidding(state)


_EFFECTS = {
    "place": _do_place,
    "pick": _do_pick,
    "use_church": _do_use_church,
    "discard_church": _do_discard_church,
    "bid": _do_bid,
    "pass": _do_pass,
    "pay": _do_pay,
    "give": _do_give,
    "refuse": _do_refuse,
}


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


def result(state: State) -> dict:
    """The final scoring (R19–R21); only once the game is over."""
    if state.phase != "over":
        raise ValueError("result: the game is not over")
    return score(state.hands, state.dice)


# ---------------------------------------------------------------------------- persistence


def dumps(state: State) -> str:
    """The state as JSON text; `loads(dumps(s)) == s`."""
    return json.dumps(asdict(state), separators=(",", ":"))


def loads(text: str) -> State:
    data = json.loads(text)
    if not isinstance(data, dict) or set(data) != set(_FIELD_NAMES):
        raise ValueError("loads: not a Biblios state")
    return State(**data)


def setup_of(state: State) -> dict:
    """What `replay` and `steps` start this game from (the `new_game` arguments)."""
    return dict(state.setup)


def steps(setup: dict, moves, *, resume: State | None = None) -> Iterator[State]:
    """The one fold over a move log: the state after each step, one at a time.

    The deal first, then the state after each (seat, action) of `moves`; or, given `resume` (a
    state reached by a first part of this game's log), only the states after it, `moves` being
    the rest of the log. Each state's `events_for` are what its step did. Replays, the game
    log, the integrity check and the inspector all walk a game through here; a move the rules
    refuse raises IllegalAction once the states before it have been yielded.
    """
    return fold(
        lambda: new_game(
            setup["num_players"],
            seed=setup["seed"],
            variant=setup.get("edition", "biblios"),
            options=setup.get("options"),
            first_player=setup.get("first_player"),
            deck=setup.get("deck"),
        ),
        apply_action,
        moves,
        resume=resume,
    )


def replay(setup: dict, actions) -> State:
    """Rebuild a state from its setup and its [(seat, action), …] log."""
    return last(steps(setup, actions))


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
