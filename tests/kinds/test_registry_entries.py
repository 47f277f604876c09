"""Every registered kind's entry agrees with its engine: the platform reads player counts,
variants, bot levels and table options from the entry and hands them to the engine, so a
mismatch would offer tables the engine refuses, or refuse ones it plays."""

import pytest

from .conftest import KINDS

EVERY_KIND = pytest.mark.parametrize("kind", KINDS.values(), ids=KINDS.keys())


@EVERY_KIND
def test_the_entry_names_what_its_engine_plays(kind):
    """Same player counts and variants (the default first), and the stand-in that plays
    timeouts and leavers is one of the kind's bot levels (a seat may be handed to it)."""
    assert kind.player_counts == tuple(kind.engine.PLAYER_COUNTS)
    assert [variant.slug for variant in kind.variants] == list(kind.engine.VARIANTS)
    assert kind.stand_in in kind.bot_level_slugs


@EVERY_KIND
def test_the_options_form_accepts_what_the_engine_plays(kind):
    """At every player count and variant, with no option given (an empty lobby form, an API
    call without options), each option alone and all of them: the form, told the table's size,
    is valid exactly when the engine deals that game, and its cleaned data start it. The web
    form and the API both bind this form, so neither offers a table the engine refuses."""
    engine = kind.engine
    names = list(engine.OPTIONS)
    choices = [{}, *({name: True} for name in names), dict.fromkeys(names, True)]
    for players in engine.PLAYER_COUNTS:
        for variant in engine.VARIANTS:
            for options in choices:
                try:
                    engine.new_game(players, seed=0, variant=variant, options=options)
                except engine.IllegalAction:
                    dealt = False
                else:
                    dealt = True
                form = kind.options_form(variant, data=options, players=players)
                assert form.is_valid() == dealt, (players, variant, options, form.errors)
                if dealt:
                    engine.new_game(players, seed=0, variant=variant, options=form.cleaned_data)
