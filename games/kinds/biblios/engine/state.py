"""The Biblios state and the helpers every step uses: the rules' constants, the `State`
record and its copy, chance, events, and who acts now."""

import random
from dataclasses import dataclass, fields

from .cards import DECK_ORDER, KIND

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


# ------------------------------------------------------------------------------- who acts now


def _actor(state: State) -> int | None:
    step = state.step
    if step == "bid":  # the most frequent step first
        return state.bidder
    if step == "place":
        return state.active
    if step == "pick":
        return (state.active + 1 + state.picks) % state.num_players
    if step == "church":
        return state.church[1]
    if step in ("pay", "give"):
        return state.high_bidder
    return None


def to_act(state: State) -> list[int]:
    """The seats expected to act now: one seat, or none once the game is over."""
    seat = _actor(state)
    return [] if seat is None else [seat]


def _gold_auction(state: State) -> bool:
    return KIND[state.auction_card] == "gold"


def _sorted_cards(cards) -> list[str]:
    return sorted(cards, key=DECK_ORDER.__getitem__)
