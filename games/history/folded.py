"""A game's states and each reader's events, folded from its move log once and kept for the
recently read games, so each new move costs one engine step: the history's log, the replay and
the review read them here.

Two caches, because their readers differ. Every state of a game (`_History`) only for the few
games a replay, review or whole log reads. The live board, pushed on every move of every running
game, reads only each reader's newest events: `_Tails` keeps those and the last state folded for
many more games, so only a reader's first push replays its game from the deal, however long or
however many the games."""

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from biblios_site.recent import Recent
from games.kinds import registry
from games.models import Game, Move

# The newest events of each reader a live game keeps (a few more than the board shows), over at
# most so many steps (should steps show a reader nothing). About 30 KiB a game of four, the
# last state included (its events take the most): some 60 MiB for the 2048 live games kept.
TAIL_EVENTS = 16
TAIL_STEPS = 4 * TAIL_EVENTS

Steps = tuple[tuple[int, list[dict]], ...]  # (step, the events of that step), oldest first


def _key(game: Game) -> tuple:
    """Keyed by (game id, seed, creation time): a reused id (a test database rolled back, say)
    never picks up another game's history, even with the same fixed seed."""
    return (game.pk, game.seed, game.created_at)


class _History:
    """Recently replayed games, step by step, so each new move costs one engine step.

    Engine states are never changed in place, so sharing them is safe; a lock keeps concurrent
    renders (consumer threads) consistent.
    """

    def __init__(self, size: int = 32):
        self.size = size
        self.games: OrderedDict[tuple, dict] = OrderedDict()
        self.lock = threading.Lock()

    def events(self, game: Game, seat) -> list[list[dict]]:
        """Each step's events as `seat` may see them, from the setup to the game's version."""
        return self.folded(game, seat)[1]

    def states(self, game: Game) -> list:
        """Every engine state of the game, from the deal to its version."""
        states, _ = self._folded(game, None)
        self._keep(game, states)
        return states

    def folded(self, game: Game, seat) -> tuple[list, list[list[dict]]]:
        """Every state of the game and each step's events as `seat` may see them."""
        states, seen = self._folded(game, seat)
        engine = registry.of(game).engine
        seen = seen + [engine.events_for(state, seat) for state in states[len(seen) :]]
        self._keep(game, states, seat, seen)
        return states, seen

    def _folded(self, game: Game, seat) -> tuple[list, list]:
        """The game's states folded up to its version, and the events of `seat` kept so far."""
        with self.lock:
            entry = self.games.get(_key(game)) or {"states": [], "events": {}}
            states = entry["states"][: game.version + 1]
            seen = entry["events"].get(seat, [])[: len(states)]
        if len(states) < game.version + 1:
            engine = registry.of(game).engine
            first = max(len(states), 1)  # the first move not folded yet (moves start at seq 1)
            moves = game.moves.filter(seq__gte=first, seq__lte=game.version).order_by("seq")
            logged = moves.values_list("seat", "action") if first <= game.version else []
            states += engine.steps(game.setup, logged, resume=states[-1] if states else None)
        return states, seen

    def _keep(self, game: Game, states: list, seat=None, seen: list | None = None) -> None:
        with self.lock:
            key = _key(game)
            entry = self.games.get(key)
            if entry is None or len(entry["states"]) <= len(states):
                entry = {
                    "states": states,
                    "events": {} if entry is None else entry["events"],
                }
                self.games[key] = entry
            if seen is not None:
                entry["events"][seat] = seen
            self.games.move_to_end(key)
            while len(self.games) > self.size:
                self.games.popitem(last=False)


@dataclass(frozen=True)
class _Tail:
    """A live game at one version: its last state and each reader's newest steps (`_trimmed`).
    Never changed once kept: a newer version is a new `_Tail`."""

    version: int
    state: Any
    seats: dict[Any, Steps]


class _Tails:
    """The live games' newest events by reader, so a push after a move costs that move's
    `events_for` for each reader (once, whoever asks first), never a replay from the deal.

    A reader not met yet at a game is folded once through `_history`. Bounded by games, and
    each game by one state and `TAIL_STEPS` steps per reader, so it holds every game a site's
    workers run at once without every state of each.
    """

    def __init__(self, size: int = 2048):
        self.size = size
        self.games: OrderedDict[tuple, _Tail] = OrderedDict()
        self.lock = threading.Lock()

    def newest(self, game: Game, seat) -> Steps:
        """The newest steps of `seat` at the game's version (`_trimmed`); for a read older
        than the last kept, those kept up to its version, maybe too few (`_covers`)."""
        key = _key(game)
        with self.lock:
            tail = self.games.get(key)
        if tail is not None and tail.version > game.version:
            return tuple(step for step in tail.seats.get(seat, ()) if step[0] <= game.version)
        if tail is not None and tail.version < game.version:
            engine = registry.of(game).engine
            moves = game.moves.filter(seq__gt=tail.version, seq__lte=game.version)
            logged = moves.order_by("seq").values_list("seat", "action")
            tail = _advanced(
                engine, tail, list(engine.steps(game.setup, logged, resume=tail.state))
            )
        if tail is None or seat not in tail.seats:
            tail = self._met(game, seat, tail)
        self._keep(key, tail)
        return tail.seats[seat]

    def _met(self, game: Game, seat, tail: _Tail | None) -> _Tail:
        """`tail` with a reader it did not have, folded from the deal; a new one if None."""
        states, seen = _history.folded(game, seat)
        mine = _trimmed(tuple(enumerate(seen)))
        if tail is None:
            return _Tail(game.version, states[-1], {seat: mine})
        return replace(tail, seats={**tail.seats, seat: mine})

    def _keep(self, key: tuple, tail: _Tail) -> None:
        """Keep `tail` unless another thread kept a newer version meanwhile; at the same
        version, the readers of both."""
        with self.lock:
            kept = self.games.get(key)
            if kept is None or kept.version < tail.version:
                self.games[key] = tail
            elif kept.version == tail.version and kept is not tail:
                self.games[key] = replace(kept, seats={**kept.seats, **tail.seats})
            self.games.move_to_end(key)
            while len(self.games) > self.size:
                self.games.popitem(last=False)


def _advanced(engine, tail: _Tail, states: list) -> _Tail:
    """`tail` folded on by `states` (those after its version), each reader's events added."""
    first = tail.version + 1
    seats = {
        seat: _trimmed(
            steps
            + tuple((first + i, engine.events_for(state, seat)) for i, state in enumerate(states))
        )
        for seat, steps in tail.seats.items()
    }
    return _Tail(tail.version + len(states), states[-1] if states else tail.state, seats)


def _trimmed(steps: Steps) -> Steps:
    """The newest of `steps` holding `TAIL_EVENTS` events (all of them, if fewer), and at most
    `TAIL_STEPS` steps."""
    start, count = len(steps), 0
    while start > 0 and count < TAIL_EVENTS and len(steps) - start < TAIL_STEPS:
        start -= 1
        count += len(steps[start][1])
    return steps[start:]


def _covers(steps: Steps, events: int) -> bool:
    """Whether `steps` hold a log's newest `events`: they go back to the deal, or hold as many
    events (the platform's own lines only add to them)."""
    return bool(steps) and (steps[0][0] == 0 or sum(len(shown) for _, shown in steps) >= events)


class _TimedOut:
    """Which moves the clock played (`Move.PlayedBy.TIMEOUT`), by game and version: a logged
    move never changes, so what was read at a version holds for good, and every socket of a
    game reads it once per move rather than once each."""

    def __init__(self, size: int = 2048):
        self.kept = Recent(size)  # (game, version) -> (from which step it was read, the steps)

    def steps(self, game: Game, since: int) -> set[int]:
        key = (_key(game), game.version)
        kept = self.kept.get(key)
        if kept is not None and kept[0] <= since:
            return {step for step in kept[1] if step >= since}
        moves = game.moves.filter(
            played_by=Move.PlayedBy.TIMEOUT, seq__gte=since, seq__lte=game.version
        )
        found = frozenset(moves.values_list("seq", flat=True))
        self.kept.put(key, (since, found))
        return set(found)


_history = _History()
_tails = _Tails()
_timed_out = _TimedOut()


def game_steps(game: Game, seat) -> list[list[dict]]:
    """Each step's events as `seat` may see them: the setup's, then one list per move."""
    return _history.events(game, seat) if game.setup else []


def newest_steps(game: Game, seat, events: int) -> list[tuple[int, list[dict]]]:
    """The newest steps of `seat`'s log holding its newest `events` events, oldest first, each
    with its number (a step is the move after which it happened): what the live board's log
    reads on every push, kept for many more games than `game_steps`."""
    if not game.setup:
        return []
    if events <= TAIL_EVENTS:
        steps = _tails.newest(game, seat)
        if _covers(steps, events):
            return list(steps)
    return list(enumerate(game_steps(game, seat)))


def game_states(game: Game) -> list:
    """The game's engine states, the deal's first, then one after each move (so the state
    just before move n is [n - 1]): folded once and kept with the recent games' events."""
    return _history.states(game) if game.setup else []


def timed_out_steps(game: Game, *, since: int = 0) -> set[int]:
    """The moves (by seq, which is their step) from `since` to the game's version that the
    stand-in bot played for a player whose time ran out."""
    return _timed_out.steps(game, since)
