"""The engine contract: what every game's pure engine provides to the platform.

An engine is a module (Biblios': the package `biblios/` beside this one) of plain functions over
its state type; the platform stores `dumps(state)` and `setup_of(state)`, replays the move log
through `steps`, and shows a player nothing that did not come out of `view`, `events_for` or the
redaction functions below. Seats are 0…N-1; a seat argument may also be None (a spectator) or
"all" (the admin's inspector) where noted. Engines never import Django, keep no global state and
draw randomness only from their seed, so the same setup and moves always give the same game.
What the platform reads of a state is its `version` (the number of moves applied: the move log's
sequence number, checked against a client's to refuse stale moves); of a view, its "version",
"seat", "to_act" and "legal_actions" (the viewing seat's, [] for anyone else). `tests/kinds/`
runs every registered engine through the conformance suite that checks all this.
"""

import inspect
import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Protocol

Seat = int
Move = tuple[Seat, dict]  # (seat, action), as the move log stores it


class Engine(Protocol):
    """The functions and constants of a game's engine module."""

    VARIANTS: tuple[str, ...]  # variant slugs, the default first (Biblios: its editions)
    PLAYER_COUNTS: tuple[int, ...]  # the numbers of players `new_game` accepts
    OPTIONS: Mapping[str, bool]  # table options and their defaults
    IllegalAction: type[Exception]  # what a refused setup or action raises; names the rule

    def new_game(self, players: int, *, seed: int | str, variant: str, options: dict) -> Any:
        """The state after the deal; IllegalAction for a setup the rules refuse."""

    def to_act(self, state) -> list[Seat]:
        """The seats expected to act now; [] exactly when the game is over."""

    def legal_actions(self, state, seat: Seat) -> list[dict]:
        """Every action (a small JSON-able dict) `seat` may take now; [] if it is not its turn."""

    def apply_action(self, state, seat: Seat, action: dict) -> Any:
        """The new state; `state` is left unchanged. IllegalAction, naming the rule, otherwise."""

    def view(self, state, seat: Seat | None | str) -> dict:
        """All a seat (None: a spectator; "all": everything) may know now, JSON-able."""

    def events_for(self, state, seat: Seat | None | str) -> list[dict]:
        """What the last step did, as `seat` may see it."""

    def result(self, state) -> dict:
        """Once over: "players" ({"seat", "place", …} per seat; places rank the seats, 1 the
        best), "winners" (the seats placed 1, or none when the game itself beat the table: a
        lost solo game), and the game's own breakdown."""

    def dumps(self, state) -> str:
        """The state as JSON text; `loads(dumps(s)) == s`."""

    def loads(self, text: str) -> Any: ...

    def setup_of(self, state) -> dict:
        """JSON-able data from which `replay`/`steps` rebuild the deal."""

    def replay(self, setup: dict, moves: Iterable[Move]) -> Any:
        """The state after `moves`; `replay(setup_of(s), log) == s`."""

    def steps(self, setup: dict, moves: Iterable[Move], *, resume=None) -> Iterator[Any]:
        """The one fold over a move log: the deal, then the state after each move (each
        carrying its step's events); with `resume` (a state reached by the log's first moves),
        only the states after it. Raises IllegalAction at a refused move."""

    def public_setup(self, setup: dict) -> dict:
        """The setup without what would reveal hidden cards (the seed, a scripted deck)."""

    def public_action(self, seat: Seat, action: dict, reader: Seat | None) -> dict:
        """`seat`'s logged action as `reader` may know it once the game is over."""

    def open_hands_view(self, states: list, step: int) -> dict:
        """A spectator's view of `states[step]` with every hand open as far as the table saw it
        by the last of `states`: what a finished game's replay may show to anyone."""

    def redraw_hidden(self, state, seat: Seat | None, rng: random.Random) -> Any:
        """`state` with what `seat` cannot know now dealt anew: `view(·, seat)` must not change
        (the conformance suite's non-interference check)."""


def missing(engine) -> list[str]:
    """What `engine` (a module) lacks of the contract: absent names, things that should be
    callable and are not, `new_game` keywords it does not take. [] when it conforms."""
    wanted = [name for name in vars(Engine) if not name.startswith("_")]
    wanted += [name for name in Engine.__annotations__ if name not in wanted]
    gaps = []
    for name in wanted:
        if not hasattr(engine, name):
            gaps.append(name)
        elif callable(getattr(Engine, name, None)) and not callable(getattr(engine, name)):
            gaps.append(f"{name} (not callable)")
    if "new_game" not in gaps:
        accepted = inspect.signature(engine.new_game).parameters
        gaps += [
            f"new_game({keyword}=…)"
            for keyword in ("seed", "variant", "options")
            if keyword not in accepted
        ]
    return gaps


def fold(deal: Callable[[], Any], apply_action, moves: Iterable[Move], *, resume=None) -> Iterator:
    """What every engine's `steps` is: the deal (unless resuming from a state the log's first
    moves reached), then the state after each move. Written once, so engines differ only in how
    they deal and apply."""
    state = resume
    if state is None:
        state = deal()
        yield state
    for seat, action in moves:
        state = apply_action(state, seat, action)
        yield state


def last(states: Iterable):
    """The final state of a fold: what `replay` returns."""
    return deque(states, maxlen=1).pop()
