"""The Hut (X35): draw, and the first-player token."""

from ..decisions import effect
from ..state import HUT, _draw, _event


@effect(HUT)
def _hut(state: dict, seat: int) -> None:
    """X35: draw 1 card per distinct assistant of yours placed this round (this one included,
    home spaces too); take the first-player token, which counts from the next round (X28)."""
    count = len(state["seats"][seat]["placed_this_round"])
    _draw(state, seat, count, "X35")
    state["first_player"] = seat
    _event(state, "first_player", seat=seat)
