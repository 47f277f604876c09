"""Biblios' entry in the game registry."""

from django.utils.translation import pgettext_lazy

from games.kinds.biblios import bots, forms, orders, presentation, presenter, tutorial
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.bots.review import (
    expected_places,
    final_place,
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


def victory_points(result: dict, seat: int) -> int:
    return next(row["vp"] for row in result["players"] if row["seat"] == seat)


KIND = GameKind(
    slug="biblios",
    name="Biblios",
    engine=biblios,
    variants=(
        Variant("biblios", "Biblios"),
        Variant("scripts_and_scribes", "Scripts & Scribes"),
    ),
    options_form=forms.OptionsForm,
    # Scholar beats Novice in every heads-up arena game (docs/performance.md), a gap of several
    # hundred rating points; the Abbot is at least Scholar's equal.
    bot_levels=(
        BotLevel("novice", pgettext_lazy("bot level", "Novice"), PLAYS_AT_RANDOM, rating=1000.0),
        BotLevel("scholar", pgettext_lazy("bot level", "Scholar"), BEST_IN_SIGHT, rating=1500.0),
        BotLevel("abbot", pgettext_lazy("bot level", "Abbot"), THINKS_AHEAD, rating=1700.0),
    ),
    stand_in="scholar",
    default_bot="abbot",
    bots=bots,
    parse_action=forms.parse_action,
    presenter=presenter,
    board_template="biblios/board.html",
    rules_template="biblios/rules.html",
    rules_names=presentation.rules_names,
    stylesheet="biblios/board.css",
    lesson=tutorial.LESSON,
    review=Reviewer(
        measure=pgettext_lazy("review", "expected place"),
        lower_is_better=True,
        thresholds=(0.1, 0.2, 0.3),
        moves=review_moves,
        results=expected_places,
        final=final_place,
        world=sampled_world,
        worlds=30,  # 95% of heads-up grades alike from one review to the next (docs/review.md)
    ),
    daily=DailyTable(
        players=2,
        bot_level="abbot",
        points=victory_points,
        points_name=pgettext_lazy("daily deal", "victory points"),
    ),
    orders=orders.ORDERS,
    regions=(
        Region("banner"),
        Region("dice", public=True),
        Region("players", reads=("players", "view.phase")),
        Region("auction"),
        Region(
            "public",
            reads=(
                "view.public_space",
                "view.gift.self_card",
                "view.public_discard",
                "edition",
                "score",
            ),
        ),
        Region("hand", reads=("hand", "edition", "view.my_hidden_discards", "view.phase")),
        Region("my_auction_cards", reads=("view.my_auction_cards", "edition")),
        Region("actions"),
        Region("score"),
        Region("log"),
    ),
)
