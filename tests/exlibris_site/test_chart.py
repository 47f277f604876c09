"""The end-of-game chart tells players apart as Biblios' does (games/charts.py): players whose
names start alike get different marks on their bars and in the legend."""

from games.kinds.exlibris import presenter


def sheet(value: int) -> dict:
    return dict.fromkeys(presenter.CHART_LINES, value)


def test_players_with_the_same_initial_get_different_marks():
    chart = presenter._chart([("Alice", sheet(3)), ("Anna", sheet(-2)), ("Bob", sheet(0))])
    legend = [entry["initial"] for entry in chart["legend"]]
    assert legend == ["Al", "An", "Bo"]
    for group in chart["groups"]:
        assert [bar["initial"] for bar in group["bars"]] == legend
    assert [entry["pattern"] for entry in chart["legend"]] == ["solid", "hatched", "dotted"]
