"""High card's entry in the game registry: everything the platform knows of it."""

from games.kinds.registry import BotLevel, GameKind, Variant

from . import bots, engine, forms, presenter

KIND = GameKind(
    slug="toy",
    name="High card",
    engine=engine,
    variants=(Variant("high", "High card"), Variant("low", "Low card")),
    options_form=forms.OptionsForm,
    bot_levels=(BotLevel("random", "Random"),),
    stand_in="random",
    default_bot="random",
    bots=bots,
    parse_action=forms.parse_action,
    presenter=presenter,
    board_template="toy/board.html",
    rules_template="toy/rules.html",
)
