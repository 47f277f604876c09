"""A Swiss tournament of tables of 2 to 4 players: each round's tables from the standings, and
the standings from the rounds' results. Pure: players are ids, results plain data.

The rules, from what BGA and Lichess players ask for and complain about
(`docs/tournaments.md`):
- **Grouped by score.** Tables are filled from the top of the standings: the leaders sit
  together, then the next group, and so on.
- **No repeat opponents where possible.** A table is searched for whose players have not met
  yet; only when no such seating of the whole round exists are repeats allowed, as few as can be
  found, and still near in the standings.
- **Byes** go to the lowest in the standings who have not had one, never twice to one player
  while someone else has had fewer. A bye scores as a win at a table of the round's size. When
  the tournament lets bots fill seats, a short table takes bots instead and nobody has a bye.
- **Points by place**: at a table of n, the first scores n - 1 points, the last 0; players
  sharing a place share its points (the higher place's).
- **Seat order** at each table is drawn at random (from the seed the caller passes), so the
  first seat does not go to the leader.
- **Tie-breaks**, in order: points; Buchholz (the sum of the points of everyone one has sat
  with); first places; then the registration order.
"""

import random
from dataclasses import dataclass, field
from itertools import combinations

SEARCH_BUDGET = 20_000  # seatings tried per round before settling for the fewest repeats
# A table's other players come from the next WINDOW_PLAYERS in the standings (or three tables'
# worth, if more): near enough to keep scores together, wide enough to step round those met.
WINDOW_PLAYERS = 12


@dataclass(frozen=True)
class Round:
    """One round's seating: `tables` (each a list of player ids in seat order) and `byes`."""

    tables: list
    byes: list
    bots: list = field(default_factory=list)  # per table, how many bot seats fill it


@dataclass(frozen=True)
class Standing:
    player: int
    points: float
    buchholz: float
    firsts: int
    byes: int


def points_for(place: int, table_size: int) -> int:
    """A place's points at a table of `table_size` (bots' seats count in its size)."""
    return table_size - place


def standings(players: list[int], results: list[dict]) -> list[Standing]:
    """Every registered player, the best first. `players`: ids in registration order;
    `results`: one per finished table or bye, {"places": {player: place}, "size": n} (a bye:
    {"bye": player, "size": n})."""
    points = dict.fromkeys(players, 0.0)
    firsts = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    met: dict[int, list[int]] = {player: [] for player in players}
    for result in results:
        if "bye" in result:
            points[result["bye"]] += points_for(1, result["size"])
            byes[result["bye"]] += 1
            continue
        places = result["places"]
        for player, place in places.items():
            points[player] += points_for(place, result["size"])
            firsts[player] += place == 1
            met[player] += [other for other in places if other != player]
    order = {player: index for index, player in enumerate(players)}
    found = [
        Standing(
            player,
            points[player],
            sum(points[other] for other in met[player]),
            firsts[player],
            byes[player],
        )
        for player in players
    ]
    return sorted(found, key=lambda s: (-s.points, -s.buchholz, -s.firsts, order[s.player]))


def pair_round(
    ranked: list[int],
    table_size: int,
    met: set[frozenset],
    byes: dict[int, int],
    *,
    bots_allowed: bool,
    seed: int | str,
) -> Round:
    """The next round's tables for the players `ranked` (the best first; withdrawn players left
    out), tables of `table_size`, where `met` holds each pair that has already sat together and
    `byes` how many byes each player has had."""
    if len(ranked) < 2 or (len(ranked) < table_size and not bots_allowed):
        raise ValueError("too few players left for a table of this size")
    rng = random.Random(f"swiss/{seed}")
    sitting, resting = list(ranked), []
    short = len(ranked) % table_size
    if short and not bots_allowed:
        resting = bye_takers(ranked, short, byes)
        sitting = [player for player in ranked if player not in resting]
    sizes = table_sizes(len(sitting), table_size)
    tables = seat(sitting, sizes, met)
    for table in tables:
        rng.shuffle(table)
    bots = [table_size - len(table) for table in tables]
    return Round(tables, resting, bots)


def bye_takers(ranked: list[int], count: int, byes: dict[int, int]) -> list[int]:
    """The `count` players who rest: those with the fewest byes, the lowest first."""
    lowest_first = list(reversed(ranked))
    return sorted(lowest_first, key=lambda player: byes.get(player, 0))[:count]


def table_sizes(players: int, table_size: int) -> list[int]:
    """Full tables, then one short table for the rest (its empty seats go to bots)."""
    full, rest = divmod(players, table_size)
    return [table_size] * full + ([rest] if rest else [])


def seat(players: list[int], sizes: list[int], met: set[frozenset]) -> list[list[int]]:
    """Tables of `sizes` from `players` (the best first), each filled from the top of who is
    left: the seating with no repeat pair if one is found within SEARCH_BUDGET tries, else the
    fewest repeats found, each table still taking the best players left."""
    best: list = [None, None]  # (repeats, tables)
    tries = [0]

    def repeats(table) -> int:
        return sum(frozenset(pair) in met for pair in combinations(table, 2))

    def fill(left: list[int], at: int, done: list, count: int) -> bool:
        if best[0] is not None and count >= best[0]:
            return False
        if at == len(sizes):
            best[0], best[1] = count, [list(table) for table in done]
            return count == 0
        tries[0] += 1
        if tries[0] > SEARCH_BUDGET and best[0] is not None:
            return True
        anchor, rest = left[0], left[1:]
        window = min(len(rest), max(WINDOW_PLAYERS, 3 * sizes[at]))
        choices = sorted(
            combinations(range(window), sizes[at] - 1),
            key=lambda picked: (repeats([anchor, *(rest[i] for i in picked)]), picked),
        )
        for picked in choices:
            table = [anchor, *(rest[i] for i in picked)]
            others = [player for i, player in enumerate(rest) if i not in picked]
            if fill(others, at + 1, [*done, table], count + repeats(table)):
                return True
        return False

    fill(players, 0, [], 0)
    return best[1]
