"""Words and pictures of the board beyond the bare view: help per decision, the end-of-game chart,
the tie-break steps in sentences, and the rules page's edition names.

All of it is computed from the seat's view (or the final result, which every seat may see), in
the reader's language; the templates only lay it out.
"""

from django.utils.translation import gettext, gettext_lazy

from games.kinds.biblios import names as printed
from games.kinds.biblios.engine.cards import CATEGORIES
from games.kinds.biblios.engine.scoring import TIE_BREAK_STEPS
from games.play.charts import player_marks, player_pattern

# A short help text per decision, and the anchor of the rules page section that explains it.
STEP_HELP = {
    "place": (
        gettext_lazy(
            "Each drawn card goes to one place: one face down for you, one face down to the "
            "auction pile, the rest face up for the others to pick."
        ),
        "gift",
    ),
    "pick": (
        gettext_lazy("Take one face-up card; the last player takes what is left."),
        "gift",
    ),
    "church": (
        gettext_lazy(
            "Move the dice as the card says, or discard it unused. Dice stay from 1 to 6."
        ),
        "church",
    ),
    "bid": (
        gettext_lazy(
            "Bid more than the high bid or pass for good. Gold cards are bought with cards, "
            "everything else with Gold."
        ),
        "auction",
    ),
    "pay": (
        gettext_lazy(
            "Pay with Gold cards worth at least your bid; no change is given. Refusing costs "
            "you random cards from your hand."
        ),
        "paying",
    ),
    "give": (
        gettext_lazy("Discard as many cards as you bid, face down, one at a time."),
        "paying",
    ),
}

# The R21 step that put a player ahead, as the words after "ahead" or "wins": a whole phrase
# per step rather than "on" + the step's name, so that each language joins its own preposition
# and article ("grâce aux points", "grâce au total", "gracias al valor").
AHEAD_ON_WORDS = {
    "vp": gettext_lazy("on victory points"),
    "gold": gettext_lazy("on Gold value"),
}

# Bar chart geometry (SVG user units); the chart scales to its box.
CHART_BAR_WIDTH = 14
CHART_BAR_GAP = 3
CHART_GROUP_GAP = 22
# Each category's name sits under its bars, one word a line, in board.css's bold 8.5px
# (.chart-label). Its width is reckoned at 0.75 of the font size a letter, more than the widest
# fonts of the page's font list give ("Iluminadores" measures 0.61 in DejaVu Sans Bold), so
# that neighbouring names keep a gap and the first and last stay inside the chart.
CHART_LABEL_FONT_SIZE = 8.5
CHART_LETTER_WIDTH = 0.75
CHART_LABEL_GAP = 8
CHART_HEIGHT = 120
CHART_TOP = 16
CHART_LEFT = 8
CHART_LABEL_SPACE = 48


def step_help(step: str | None) -> dict | None:
    """The help text and rules anchor for the decision awaited now (None when nothing is)."""
    if step not in STEP_HELP:
        return None
    text, anchor = STEP_HELP[step]
    return {"text": text, "anchor": anchor}


def score_chart(result: dict, names: list[str], edition: str) -> dict:
    """Bars for each category's totals per player, grouped by category under its die value.

    Players are told apart by a fill pattern and a short mark on the bar (`games.charts`), not
    colour alone; every bar also carries its number, and the table beside the chart has the same
    figures. Each group is as wide as its name needs. Coordinates are rounded to 0.1, and the
    template writes them unlocalized.
    """
    players = len(names)
    tallest = max([1] + [total for entry in result["categories"] for total in entry["totals"]])
    marks = player_marks(names)
    labels = [printed.category_label(entry["category"], edition) for entry in result["categories"]]
    lines = [label_lines(label) for label in labels]
    longest = max(len(line) for label in lines for line in label)
    slot = longest * CHART_LETTER_WIDTH * CHART_LABEL_FONT_SIZE + CHART_LABEL_GAP
    group_width = players * CHART_BAR_WIDTH + (players - 1) * CHART_BAR_GAP
    group_gap = max(CHART_GROUP_GAP, slot - group_width)
    margin = max(CHART_LEFT, (slot - group_width) / 2)
    groups = []
    for index, entry in enumerate(result["categories"]):
        left = margin + index * (group_width + group_gap)
        bars = []
        for seat, total in enumerate(entry["totals"]):
            height = round(CHART_HEIGHT * total / tallest, 1)
            x = left + seat * (CHART_BAR_WIDTH + CHART_BAR_GAP)
            bars.append(
                {
                    "x": round(x, 1),
                    "y": round(CHART_TOP + CHART_HEIGHT - height, 1),
                    "height": height,
                    "total": total,
                    "name": names[seat],
                    "initial": marks[seat],
                    "pattern": player_pattern(seat),
                    "wins": entry["winner"] == seat,
                    "text_x": round(x + CHART_BAR_WIDTH / 2, 1),
                }
            )
        groups.append(
            {
                "category": entry["category"],
                "name": labels[index],
                "label_lines": lines[index],
                "die": entry["die"],
                "center": round(left + group_width / 2, 1),
                "bars": bars,
            }
        )
    width = 2 * margin + len(groups) * group_width + (len(groups) - 1) * group_gap
    return {
        "groups": groups,
        "bar_width": CHART_BAR_WIDTH,
        "width": round(width, 1),
        "height": CHART_TOP + CHART_HEIGHT + CHART_LABEL_SPACE,
        "baseline": CHART_TOP + CHART_HEIGHT,
        "initial_y": CHART_TOP + CHART_HEIGHT + 9,
        "label_y": CHART_TOP + CHART_HEIGHT + 19,
        "die_y": CHART_TOP + CHART_HEIGHT + 42,
        "legend": [
            {
                "name": name,
                "initial": marks[seat],
                "pattern": player_pattern(seat),
            }
            for seat, name in enumerate(names)
        ],
    }


def label_lines(label: str) -> list[str]:
    """A category name under its bars: two-word names ("Forbidden Tomes", "Grimoires
    Interdits") on two lines."""
    return label.split(" ", 1)


def _step_values(result: dict, step: str, seat: int):
    """What a player shows on one R21 step: their Gold value, a category total or letter."""
    if step == "gold":
        return result["players"][seat]["gold"]
    category, what = step.rsplit("_", 1)
    entry = result["categories"][CATEGORIES.index(category)]
    if what == "total":
        return entry["totals"][seat]
    return entry["letters"][seat] or "—"


def _step_name(step: str, edition: str) -> str:
    if step == "gold":
        return gettext("Gold value")
    category, what = step.rsplit("_", 1)
    label = printed.category_label(category, edition)
    if what == "total":
        return gettext("%(category)s total") % {"category": label}
    return gettext("earliest %(category)s letter") % {"category": label}


def ahead_on_words(step: str | None, edition: str) -> str:
    """The R21 step that separated a player from the next ("on Gold value", "on Monks
    total"); nothing when none did (the last player, or a complete tie)."""
    if step is None or step == "shared":
        return ""
    if step in AHEAD_ON_WORDS:
        return str(AHEAD_ON_WORDS[step])
    category, what = step.rsplit("_", 1)
    values = {"category": printed.category_label(category, edition)}
    if what == "total":
        return gettext("on %(category)s total") % values
    return gettext("on the earliest %(category)s letter") % values


def tie_break_lines(result: dict, names: list[str], edition: str) -> list[str]:
    """R21 in sentences: for each pair of neighbours in the ranking tied on victory points, the
    steps on which they were equal and the one that separated them (or that they share)."""
    players = result["players"]
    ranking = result["ranking"]
    lines = []
    for upper, lower in zip(ranking, ranking[1:], strict=False):
        step = players[upper]["decided_by"]
        if step == "vp":
            continue
        values = {
            "upper": names[upper],
            "lower": names[lower],
            "vp": players[upper]["vp"],
        }
        equal_steps = []
        for candidate in TIE_BREAK_STEPS[1:]:
            if candidate == step:
                break
            equal_steps.append(
                gettext("%(step)s (%(value)s)")
                % {
                    "step": _step_name(candidate, edition),
                    "value": _step_values(result, candidate, upper),
                }
            )
        if step == "shared":
            line = (
                gettext(
                    "%(upper)s and %(lower)s both have %(vp)s VP and are equal on every tie-break "
                    "step, so they share their place."
                )
                % values
            )
        else:
            line = gettext(
                "%(upper)s and %(lower)s both have %(vp)s VP; %(upper)s is ahead %(on_step)s: "
                "%(mine)s against %(theirs)s."
            ) % {
                **values,
                "on_step": ahead_on_words(step, edition),
                "mine": _step_values(result, step, upper),
                "theirs": _step_values(result, step, lower),
            }
            if equal_steps:
                line += " " + gettext("They were equal on %(steps)s.") % {
                    "steps": ", ".join(equal_steps)
                }
        lines.append(line)
    return lines


def rules_names(edition: str) -> dict:
    """The edition's printed names that the rules page uses."""
    return {
        "categories": [
            {"id": category, "name": printed.category_label(category, edition)}
            for category in CATEGORIES
        ],
        "first_category": printed.category_label(CATEGORIES[0], edition),
        "church": printed.church_label(edition),
        "dice_board": printed.dice_board_label(edition),
        "gold": printed.gold_label(),
    }
