"""The Biblios rules: the deal (R1, R2), the legal actions, the checks an action must pass
before it applies, the result (R19-R21), and the state's persistence and replay."""

import json
import random
from collections.abc import Iterator
from dataclasses import asdict
from itertools import product

from games.kinds.protocol import fold, last

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
from .play import _EFFECTS, _continue_gift
from .scoring import score
from .state import (
    _FIELD_NAMES,
    ACTION_KEYS,
    ACTION_STEPS,
    DIE_MAX,
    DIE_MIN,
    DIE_START,
    DRAW_PILE_SIZE,
    FIXED_GOLD_REMOVED,
    OPTIONS,
    RANDOM_REMOVED,
    STEP_RULE,
    STEP_WORDS,
    VARIANTS,
    IllegalAction,
    State,
    _actor,
    _event,
    _gold_auction,
    _sorted_cards,
)

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


# ------------------------------------------------------------------------------ legal actions


# The actions that name no more than a card, a destination or an amount, built once:
# `legal_actions` lists copies of them (the caller's to change), which `dict.copy` makes faster
# than building each anew.
_DESTINATIONS = ("self", "auction", "public")
_PLACE = {to: {"type": "place", "to": to} for to in _DESTINATIONS}
_PLACE_LISTS = {  # by which of self, auction and public are open
    opens: [_PLACE[to] for to, is_open in zip(_DESTINATIONS, opens, strict=True) if is_open]
    for opens in product((False, True), repeat=3)
}
_PICK = {card: {"type": "pick", "card": card} for card in CARD_IDS}
_GIVE = {card: {"type": "give", "card": card} for card in CARD_IDS}
_BIDS = tuple({"type": "bid", "amount": amount} for amount in range(3 * len(CARD_IDS) + 2))
_copy = dict.copy


def legal_actions(state: State, seat) -> list[dict]:
    """Every action `seat` may take now (bids up to the documented cap, minimal payments)."""
    step = state.step
    if step == "bid":  # the most frequent step, first
        if seat != state.bidder or isinstance(seat, bool):
            return []
        low, high = _bid_range(state, seat)
        if high < len(_BIDS):
            bids = list(map(_copy, _BIDS[low : high + 1]))
        else:
            bids = [{"type": "bid", "amount": amount} for amount in range(low, high + 1)]
        bids.append({"type": "pass"})
        return bids
    actor = _actor(state)
    if actor is None or seat != actor or isinstance(seat, bool):
        return []
    if step == "place":
        return list(
            map(
                _copy,
                _PLACE_LISTS[
                    not state.self_used,
                    not state.auction_used,
                    len(state.public_space) < state.num_players - 1,
                ],
            )
        )
    if step == "pick":
        return [_PICK[card].copy() for card in state.public_space]
    if step == "church":
        return [
            {"type": "use_church", "dice": list(dice), "delta": delta}
            for dice, delta in _church_uses(state)
        ] + [{"type": "discard_church"}]
    if step == "pay":
        payments = [{"type": "pay", "cards": cards} for cards in _minimal_payments(state, seat)]
        payments.append({"type": "refuse"})
        return payments
    # step == "give"
    gives = []
    if len(state.hands[seat]) >= state.high_bid - state.given:
        gives = [_GIVE[card].copy() for card in _sorted_cards(state.hands[seat])]
    if state.given == 0:
        gives.append({"type": "refuse"})
    return gives


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


def _coverable(state: State, seat: int) -> int:
    """What a seat can pay: Gold value in hand, or cards in hand for a Gold card (R11, R12)."""
    hand = state.hands[seat]
    if _gold_auction(state):
        return len(hand)
    return sum(VALUE[card] for card in hand if KIND[card] == "gold")


def _bid_range(state: State, seat: int) -> tuple[int, int]:
    """The lowest and highest bid `seat` may make now (R9, R10, R13; the cap: the package doc)."""
    low = state.high_bid + 1
    if state.options["forbid_uncoverable_bids"]:
        return low, _coverable(state, seat)
    hand_size = len(state.hands[seat])
    public_bound = hand_size if KIND[state.auction_card] == "gold" else 3 * hand_size
    return low, public_bound if public_bound > low else low


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
    if state.step == "bid" and seat == state.bidder and type(seat) is int:
        # Bids and passes, over half of all actions, checked here without the tables' calls
        if kind == "bid":
            amount = action["amount"]
            low, high = _bid_range(state, seat)
            if type(amount) is not int or not low <= amount <= high:
                _check_bid(state, seat, action)  # raises the precise complaint
        elif kind != "pass":
            _refuse_turn(state, seat, kind)
    else:
        if (
            state.step not in ACTION_STEPS[kind] or type(seat) is not int or seat != _actor(state)
        ):  # no step takes an action once the game is over
            _refuse_turn(state, seat, kind)
        _CHECKS[kind](state, seat, action)  # raises before any copy is made
    # The copy the action changes. Lists and dicts inside a state are never changed in place:
    # an action replaces whatever it changes with a new list (see `_add_to_hand`), so only the
    # outer dict and the list of hands need copying. The property tests check that applying
    # an action leaves its input unchanged.
    data = state.__dict__.copy()
    data["hands"] = state.hands[:]
    data["events"] = []
    data["version"] += 1
    new = object.__new__(State)
    new.__dict__ = data
    _EFFECTS[kind](new, seat, action)
    return new


def _refuse_turn(state: State, seat, kind: str) -> None:
    """The complaint about an action out of turn or at the wrong step, in the order the rules
    are checked: the game over, the seat, the step, whose turn."""
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
    raise IllegalAction(
        f"{STEP_RULE[step]}: it is seat {actor}'s turn to {STEP_WORDS[step]}, not seat {seat}'s"
    )


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
