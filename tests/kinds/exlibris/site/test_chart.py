"""The end-of-game chart tells players apart as Biblios' does (games/charts.py): players whose
names start alike get different marks on their bars and in the legend."""

import itertools

from games.kinds.exlibris import scoresheet


def sheet(value: int) -> dict:
    return dict.fromkeys(scoresheet.CHART_LINES, value)


def test_players_with_the_same_initial_get_different_marks():
    chart = scoresheet._chart([("Alice", sheet(3)), ("Anna", sheet(-2)), ("Bob", sheet(0))])
    legend = [entry["initial"] for entry in chart["legend"]]
    assert legend == ["Al", "An", "Bo"]
    for group in chart["groups"]:
        assert [bar["initial"] for bar in group["bars"]] == legend
    assert [entry["pattern"] for entry in chart["legend"]] == ["solid", "hatched", "dotted"]


def test_each_label_has_room_under_its_bars_whatever_the_number_of_players():
    """The longest label ("Especialidad", 12 letters of 8.5 px bold, about 6 units each) fits
    between its neighbours' centres, and each group's bars stay centred under its label."""
    for players in (1, 2, 3, 4):
        chart = scoresheet._chart([(f"P{i}", sheet(i + 1)) for i in range(players)])
        centres = [group["center"] for group in chart["groups"]]
        assert min(b - a for a, b in itertools.pairwise(centres)) >= 12 * 6, players
        for group in chart["groups"]:
            bars = group["bars"]
            middle = (bars[0]["x"] + bars[-1]["x"] + chart["bar_width"]) / 2
            assert abs(middle - group["center"]) <= 0.1, players
