"""Ex Libris' inspection on the board (X69-X76): the score sheet of a finished game, worked out
from the view (which shows every bookshelf, hand, focus and pre-flip once the game is over,
X77), its tie-breaks in words, and the chart of each player's scoring lines. The presenter
(`presenter.view_context`) puts `score_context` in the board's context.
"""

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games.kinds.exlibris import engine, names
from games.kinds.exlibris.card_faces import card_name
from games.kinds.exlibris.engine.cards import CATEGORIES
from games.play.charts import player_marks, player_pattern

PLACE_WORDS = {
    1: pgettext_lazy("place in a game", "1st"),
    2: pgettext_lazy("place in a game", "2nd"),
    3: pgettext_lazy("place in a game", "3rd"),
    4: pgettext_lazy("place in a game", "4th"),
}

# X76, X90.1: the tie-break steps, in words.
DECIDED_BY = {
    "total": gettext_lazy("a higher total"),
    "books": gettext_lazy("more face-up books"),
    "hand": gettext_lazy("fewer cards in hand"),
    "banned": gettext_lazy("fewer face-up Banned books"),
}

# The scoring lines the chart draws, in the form's order.
CHART_LINES = ("b1", "b2", "b3", "b4", "b5", "total")


def inspection(view: dict) -> dict:
    """The engine's `result` of a finished game, worked out from the view, which shows every
    bookshelf, hand, focus and pre-flip once the game is over (X77)."""
    entries = [
        {
            "bookshelf": seat["bookshelf"],
            "focus": seat["focus"],
            "hand": list(seat["hand"]),
            "pre_flips": seat["pre_flips"],
        }
        for seat in view["seats"]
    ]
    solo_focus = view["solo"]["public_library_focus"] if view["solo"] else None
    return engine.scored(entries, view["discard"], view["prominent"], view["banned"], solo_focus)


def score_context(view: dict, names_by_seat: list[str]) -> dict | None:
    if view["phase"] != "over":
        return None
    result = inspection(view)
    working = result["inspection"]
    if result["solo"]:
        return _solo_score(view, working, names_by_seat)
    sheets = working["players"]
    columns = [
        {
            "name": names_by_seat[sheet["seat"]],
            "is_me": sheet["seat"] == view["seat"],
            "winner": sheet["seat"] in result["winners"],
            **_sheet(sheet, working),
        }
        for sheet in sheets
    ]
    ranking = [
        {
            "place": sheets[seat]["place"],
            "name": names_by_seat[seat],
            "total": sheets[seat]["total"],
            "is_me": seat == view["seat"],
            "hand": [card_name(card) for card in view["seats"][seat]["hand"]],
            "decided_by": DECIDED_BY.get(sheets[seat]["decided_by"], "")
            if sheets[seat]["decided_by"] not in (None, "total")
            else "",
        }
        for seat in working["ranking"]
    ]
    return {
        "solo": False,
        "columns": columns,
        "ranking": ranking,
        "shared_win": working["shared_win"],
        "winners": [names_by_seat[w] for w in result["winners"]],
        **_form_rows(columns, working),
    }


def _form_rows(columns: list[dict], working: dict) -> dict:
    """What both forms share: the chart, the A2 rows per category, the town's categories."""
    return {
        "chart": _chart([(column["name"], column) for column in columns]),
        "count_rows": [
            (category, [column["counts"][index] for column in columns])
            for index, category in enumerate(CATEGORIES)
        ],
        "prominent_name": names.category(working["prominent"]),
        "banned_name": names.category(working["banned"]),
    }


def _sheet(sheet: dict, working: dict) -> dict:
    """One player's form (X68–X76) in the board's words."""
    stability = sheet["stability"]
    return {
        "focus": sheet["focus"],
        "pre_flips": len(sheet["pre_flips"]),
        "a1_cards": [card_name(card) for card in sheet["a1_flipped_cards"]],
        "counts": [sheet["counts"][category] for category in CATEGORIES],
        "books": sheet["books"],
        "rectangle": gettext("%(width)s × %(height)s")
        % {"width": stability["width"], "height": stability["height"]},
        "entombed": stability["entombed"],
        "b1": sheet["b1"],
        "prominent_books": sheet["prominent_books"],
        "b2_place": PLACE_WORDS.get(sheet.get("b2_place"), ""),
        "b2": sheet["b2"],
        "banned_books": sheet["banned_books"],
        "b3": sheet["b3"],
        "scarcest": [names.category(c) for c in sheet["scarcest"]],
        "b4": sheet["b4"],
        "b5": sheet["b5"],
        "hand": sheet["hand"],
        "total": sheet["total"],
        "place": sheet.get("place"),
    }


def _solo_score(view: dict, working: dict, names_by_seat: list[str]) -> dict:
    player, library = working["player"], working["public_library"]
    mine = {
        "name": names_by_seat[0],
        "is_me": view["seat"] == 0,
        "winner": working["player_wins"],
        **_sheet({**player, "seat": 0, "hand": 0}, working),
    }
    theirs = {
        "name": gettext("Public Library"),
        "is_me": False,
        "winner": not working["player_wins"],
        "focus": library["focus"],
        "pre_flips": 0,
        "a1_cards": [],
        "counts": [library["counts"][category] for category in CATEGORIES],
        "books": library["books"],
        "rectangle": "",
        "entombed": "",
        "b1": 0,
        "prominent_books": library["prominent_books"],
        "b2_place": "",
        "b2": library["b2"],
        "banned_books": library["banned_books"],
        "b3": library["b3"],
        "scarcest": [names.category(c) for c in library["scarcest"]],
        "b4": library["b4"],
        "b5": library["b5"],
        "hand": 0,
        "total": library["total"],
        "place": None,
    }
    columns = [mine, theirs]
    return {
        "solo": True,
        "columns": columns,
        "ranking": [],
        "shared_win": False,
        "winners": [mine["name"]] if working["player_wins"] else [theirs["name"]],
        **_form_rows(columns, working),
        "discarded_hand": working["discarded_hand"],
    }


CHART_LABELS = {
    "b1": pgettext_lazy("scoring line", "Stability"),
    "b2": pgettext_lazy("scoring line", "Prominent"),
    "b3": pgettext_lazy("scoring line", "Banned"),
    "b4": pgettext_lazy("scoring line", "Diversity"),
    "b5": pgettext_lazy("scoring line", "Focus"),
    "total": pgettext_lazy("scoring line", "Total"),
}


def _chart(players: list[tuple[str, dict]]) -> dict:
    """A grouped bar chart of the form's lines per player (SVG numbers: the template writes
    them unlocalized). Bars grow up from the zero line, a Banned penalty down from it."""
    bar_width, gap, group_gap = 12, 2, 14
    # Room under each group for its label ("Especialidad", 8.5 px bold): two players' bars
    # alone left the labels overlapping.
    label_room = 60
    top, plot, below = 14, 110, 40
    values = [sheet[line] for _, sheet in players for line in CHART_LINES]
    high = max(1, max(values))
    low = min(0, min(values))
    scale = plot / (high - low)
    baseline = top + high * scale
    bars_width = len(players) * (bar_width + gap) - gap
    group_width = max(bars_width, label_room)
    marks = player_marks([name for name, _ in players])
    groups = []
    x = group_gap
    for line in CHART_LINES:
        bars = []
        for index, (name, sheet) in enumerate(players):
            value = sheet[line]
            height = abs(value) * scale
            bar_x = x + (group_width - bars_width) / 2 + index * (bar_width + gap)
            bars.append(
                {
                    "x": round(bar_x, 1),
                    "y": round(baseline - height if value >= 0 else baseline, 1),
                    "height": round(height, 1),
                    "text_x": round(bar_x + bar_width / 2, 1),
                    "text_y": round(
                        baseline - height - 3 if value >= 0 else baseline + height + 9, 1
                    ),
                    "value": value,
                    "name": name,
                    "initial": marks[index],
                    "pattern": player_pattern(index),
                }
            )
        groups.append(
            {
                "line": line,
                "label": CHART_LABELS[line],
                "center": round(x + group_width / 2, 1),
                "bars": bars,
            }
        )
        x += group_width + group_gap
    height = baseline + (-low) * scale + below
    return {
        "width": round(x, 1),
        "height": round(height, 1),
        "baseline": round(baseline, 1),
        "bar_width": bar_width,
        "label_y": round(height - 20, 1),
        "initial_y": round(height - 8, 1),
        "groups": groups,
        "legend": [
            {
                "name": name,
                "initial": marks[i],
                "pattern": player_pattern(i),
            }
            for i, (name, _) in enumerate(players)
        ],
    }
