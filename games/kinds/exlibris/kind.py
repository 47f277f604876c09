"""Ex Libris' entry in the game registry: live since its board became whole."""

from django.utils.translation import pgettext_lazy

from games.kinds.exlibris import bots, engine, forms, names, orders, presenter, tutorial
from games.kinds.exlibris.bots.review import (
    expected_margins,
    final_margin,
    review_moves,
    sampled_world,
)
from games.kinds.registry import (
    BEST_IN_SIGHT,
    PLAYS_AT_RANDOM,
    THINKS_AHEAD,
    BotLevel,
    DailyTable,
    GameKind,
    Region,
    Reviewer,
    Variant,
)


def total_points(result: dict, seat: int) -> int:
    return next(row["total"] for row in result["players"] if row["seat"] == seat)


KIND = GameKind(
    slug="exlibris",
    name="Ex Libris",
    engine=engine,
    variants=tuple(Variant(slug, names.variant_name(slug)) for slug in engine.VARIANTS),
    options_form=forms.OptionsForm,
    # The arena (docs/performance.md): Greedy wins 100% of 300 heads-up games against Random
    # (98.7–100.0%) and of 300 against three Randoms, so the gap is at least Biblios'
    # Scholar–Novice one (500 for 100% of 100). The same yardsticks as there: moves at random
    # 1000, the greedy stand-in 1500, a newcomer's start. 800 and 1200 (a 400 gap: 91% expected)
    # were guesses.
    bot_levels=(
        BotLevel("random", pgettext_lazy("bot level", "Random"), PLAYS_AT_RANDOM, rating=1000.0),
        BotLevel("greedy", pgettext_lazy("bot level", "Greedy"), BEST_IN_SIGHT, rating=1500.0),
        # The searching level: a guess, as Biblios' Abbot's, 200 over the Greedy it improves on;
        # it wins 78% of 100 heads-up games against it at a tenth of the site's budget (a 220
        # gap by Elo's curve) and 58% of 100 against three Greedies (docs/exlibris.md).
        BotLevel("archivist", pgettext_lazy("bot level", "Archivist"), THINKS_AHEAD, rating=1700.0),
    ),
    stand_in=bots.STAND_IN,
    default_bot="archivist",
    bots=bots,
    parse_action=forms.parse_action,
    presenter=presenter,
    board_template="exlibris/board.html",
    rules_template="exlibris/rules.html",
    rules_names=names.rules_names,
    stylesheet="exlibris/board.css",
    lesson=tutorial.LESSON,
    review=Reviewer(
        measure=pgettext_lazy("review", "expected margin in points"),
        lower_is_better=False,
        thresholds=(2.0, 4.0, 8.0),
        moves=review_moves,
        results=expected_margins,
        final=final_margin,
        world=sampled_world,
        # Heads-up, 90.3% of grades alike at 60 against 85.0% at 30; a four-player review at 60
        # takes 320–430 CPU seconds of its 900. Solo, whose clean-up removals part two reviews
        # most, 93.7% alike at 240 against 85.3% at 60, at 150–230 s (docs/review.md).
        worlds={1: 240, 2: 60, 3: 60, 4: 60},
        # Four players' moves part at once in a playout, so only more worlds settle a decision
        # near a boundary: 91.3% alike with up to eight times, 86-90% with four.
        more_worlds=8,
    ),
    daily=DailyTable(
        players=2,
        bot_level="archivist",
        points=total_points,
        points_name=pgettext_lazy("daily deal", "points"),
    ),
    orders=orders.ORDERS,
    regions=(
        Region("banner"),
        Region("players", reads=("players",)),
        Region("town", public=True),
        Region("tiles", reads=("tiles", "actions.on_tiles", "unfold", "view.locations.permanent")),
        Region("actions"),
        Region("shelves", reads=("shelves", "actions.cells")),
        Region("mine", reads=("mine",)),
        Region("score"),
        Region("log"),
    ),
)
