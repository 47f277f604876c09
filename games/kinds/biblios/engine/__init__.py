"""The Biblios rules engine: pure, deterministic, replayable.

Everything the platform knows about the game goes through this package's public functions, the
engine contract of `games/kinds/protocol.py`: `new_game`, `to_act`, `legal_actions`,
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

Where things are: `state` (the constants, the `State` record, who acts now), `rules` (the deal,
the legal actions, the checks, the result, persistence), `play` (what each action does) and
`view` (what each seat may know, and redaction).
"""

from .cards import CATEGORIES
from .rules import (
    apply_action,
    dumps,
    legal_actions,
    loads,
    new_game,
    replay,
    result,
    setup_of,
    steps,
)
from .state import (
    ACTION_FIELDS,
    ACTION_KEYS,
    ACTION_STEPS,
    DIE_MAX,
    DIE_MIN,
    DIE_START,
    DRAW_PILE_SIZE,
    FIXED_GOLD_REMOVED,
    OPTIONS,
    PLAYER_COUNTS,
    RANDOM_REMOVED,
    STEP_RULE,
    STEP_WORDS,
    VARIANTS,
    IllegalAction,
    State,
    to_act,
)
from .view import (
    events_for,
    open_hands_view,
    public_action,
    public_setup,
    redraw_hidden,
    revealed_cards,
    view,
    zones,
)

__all__ = [
    "ACTION_FIELDS",
    "ACTION_KEYS",
    "ACTION_STEPS",
    "CATEGORIES",
    "DIE_MAX",
    "DIE_MIN",
    "DIE_START",
    "DRAW_PILE_SIZE",
    "FIXED_GOLD_REMOVED",
    "IllegalAction",
    "OPTIONS",
    "PLAYER_COUNTS",
    "RANDOM_REMOVED",
    "STEP_RULE",
    "STEP_WORDS",
    "State",
    "VARIANTS",
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
    "revealed_cards",
    "setup_of",
    "steps",
    "to_act",
    "view",
    "zones",
]
