"""The Gambling Den (X41): a contest between the namers of categories."""

from ..cards import CARDS, CATEGORIES
from ..decisions import decision, effect
from ..shelving import _may_shelve
from ..state import _clockwise_from, _event, _gained, _push, _reveal, _seat, _seats_at


@effect("den")
def _den(state: dict, seat: int) -> None:
    """X41: every arrival is a new contest: each player with an assistant here names a
    category, the active player first, then clockwise (X88); then the contest."""
    namers = _clockwise_from(state, seat, _seats_at(state, "den"))
    _push(state, "den_name", seat=namers[0], rest=namers[1:], names=[], rule="X41")


def _den_choices(state: dict, seat: int, top: dict) -> list[dict]:
    return [{"type": "name", "category": category} for category in CATEGORIES]


@decision("den_name", rule="X41", choices=_den_choices, shown=("names",))
def _do_den_name(state: dict, seat: int, action: dict) -> None:
    """X41.1: a public name (a later namer may follow it, X88); after the last, the contest."""
    top = state["pending"].pop()
    names = top["names"] + [[seat, action["category"]]]
    _event(state, "named", seat=seat, tile="den", category=action["category"], rule="X41")
    if top["rest"]:
        rest = top["rest"]
        state["pending"].append({**top, "seat": rest[0], "rest": rest[1:], "names": names})
    else:
        _den_contest(state, names)


def _den_contest(state: dict, names: list[list]) -> None:
    """X41.2-5: reveal 4 cards; the name whose category shows most books wins, a tie going to
    the earliest namer (the active player, then clockwise); the winner takes the cards holding
    it, the others are discarded; the winner may shelve one per player here."""
    revealed = _reveal(state, 4)
    counts = [sum(CARDS[card].books.count(category) for card in revealed) for _, category in names]
    winner, category = names[counts.index(max(counts))]
    won = [card for card in revealed if category in CARDS[card].books]
    lost = [card for card in revealed if card not in won]
    if won:
        _seat(state, winner)["hand"] += won
    _gained(state, winner, won)
    state["discard"] += lost
    _event(
        state,
        "contest",
        tile="den",
        revealed=revealed,
        counts=counts,
        winner=winner,
        won=won,
        discarded=lost,
        rule="X41",
    )
    _may_shelve(state, winner, won, len(names), "X41")
