"""A game's states and each reader's events, folded from its move log once and kept for the
recently read games, so each new move costs one engine step: the history's log, the replay and
the review read them here."""

import threading
from collections import OrderedDict

from games.kinds import registry
from games.models import Game


class _History:
    """Recently replayed games, step by step, so each new move costs one engine step.

    Keyed by (game id, seed, creation time): a reused id (a test database rolled back, say)
    never picks up another game's history, even with the same fixed seed. Engine states are
    never changed in place, so sharing them is safe; a lock keeps concurrent renders (consumer
    threads) consistent.
    """

    def __init__(self, size: int = 32):
        self.size = size
        self.games: OrderedDict[tuple, dict] = OrderedDict()
        self.lock = threading.Lock()

    def events(self, game: Game, seat) -> list[list[dict]]:
        """Each step's events as `seat` may see them, from the setup to the game's version."""
        states, seen = self._folded(game, seat)
        engine = registry.of(game).engine
        seen = seen + [engine.events_for(state, seat) for state in states[len(seen) :]]
        self._keep(game, states, seat, seen)
        return seen

    def states(self, game: Game) -> list:
        """Every engine state of the game, from the deal to its version."""
        states, _ = self._folded(game, None)
        self._keep(game, states)
        return states

    def _folded(self, game: Game, seat) -> tuple[list, list]:
        """The game's states folded up to its version, and the events of `seat` kept so far."""
        with self.lock:
            entry = self.games.get(self._key(game)) or {"states": [], "events": {}}
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
            key = self._key(game)
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

    @staticmethod
    def _key(game: Game) -> tuple:
        return (game.pk, game.seed, game.created_at)


_history = _History()


def game_steps(game: Game, seat) -> list[list[dict]]:
    """Each step's events as `seat` may see them: the setup's, then one list per move."""
    return _history.events(game, seat) if game.setup else []


def game_states(game: Game) -> list:
    """The game's engine states, the deal's first, then one after each move (so the state
    just before move n is [n - 1]): folded once and kept with the recent games' events."""
    return _history.states(game) if game.setup else []
