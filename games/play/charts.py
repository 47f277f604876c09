"""What every game's end-of-game chart shares: how its players are told apart.

Each kind's presenter draws its own chart (the lines it scores differ), but a player must read
the same way on every one: a fill pattern and a short mark per player, not colour alone, the
legend pairing each mark with its name. The patterns are styled in static/css/board.css.
"""

PLAYER_PATTERNS = ("solid", "hatched", "dotted", "outlined")


def player_pattern(seat: int) -> str:
    return PLAYER_PATTERNS[seat % len(PLAYER_PATTERNS)]


def player_marks(names: list[str]) -> list[str]:
    """A short mark per player for the chart's bars, different for every player: their
    initials, or their first two letters where initials clash ("Al", "An"), or else their seat
    numbers (the legend pairs each mark with its name)."""
    for marks in (
        [name[:1].upper() for name in names],
        [name[:1].upper() + name[1:2].lower() for name in names],
    ):
        if len(set(marks)) == len(names) and all(mark.strip() for mark in marks):
            return marks
    return [str(seat + 1) for seat in range(len(names))]
