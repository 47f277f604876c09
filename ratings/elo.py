"""Multi-player Elo, pairwise: the formula alone, pure Python (docs/ratings.md explains it).

A game of n players is scored as the n(n-1)/2 duels between its seats, each decided by the
final places (R19–R21): the better place scores 1, a shared place 0.5, the worse 0. A player's
change is the sum over their duels of K/(n-1) × (score − expected), so a four-player game moves
a rating about as much as one heads-up game, whatever the table size.
"""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

START_RATING = 1500.0
K_ESTABLISHED = 32.0
# Higher at first so a newcomer's rating reaches their level in a few games.
K_PROVISIONAL = 64.0
PROVISIONAL_GAMES = 10


@dataclass(frozen=True)
class Entrant:
    """One seat of a finished game; `k` is None for a bot, whose rating never changes."""

    key: Hashable
    rating: float
    place: int
    k: float | None


def k_factor(games_played: int) -> float:
    """K for a player who has finished `games_played` rated games of the variant before this one."""
    return K_PROVISIONAL if games_played < PROVISIONAL_GAMES else K_ESTABLISHED


def expected_score(rating: float, opponent: float) -> float:
    """The classic Elo expectation of the duel: 1 / (1 + 10^((Rj − Ri) / 400))."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def duel_score(place: int, opponent_place: int) -> float:
    """1 for the better (lower) place, 0.5 for a shared place, 0 for the worse."""
    if place == opponent_place:
        return 0.5
    return 1.0 if place < opponent_place else 0.0


def rating_changes(entrants: Sequence[Entrant]) -> dict:
    """The change of every non-bot entrant's rating, by key, from everybody's rating before."""
    if len(entrants) < 2:
        raise ValueError("a rated game needs at least two seats")
    if len({entrant.key for entrant in entrants}) != len(entrants):
        raise ValueError("each seat must have its own key")
    duels = len(entrants) - 1
    changes = {}
    for entrant in entrants:
        if entrant.k is None:
            continue
        surprise = sum(
            duel_score(entrant.place, other.place) - expected_score(entrant.rating, other.rating)
            for other in entrants
            if other is not entrant
        )
        changes[entrant.key] = entrant.k / duels * surprise
    return changes
