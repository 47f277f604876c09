"""A kept part of a board (`{% kept %}`, games/templatetags/kept_parts.py) is rendered once per
worker for its values and language and handed to whoever draws the same values: along random
games of every kind and player count, every reader's board (each seat's and a spectator's, in
English, French and Spanish) must be byte for byte the same drawn with all the others' parts
already kept as drawn with none kept. A part that read anything its tag does not pass would
differ here, and one reader would be shown another's."""

import pytest
from django.template.loader import get_template, render_to_string
from django.utils import translation

from games.kinds import registry
from games.play import rendering
from games.templatetags import kept_parts

from .conftest import table_id
from .conftest import tables as engine_tables
from .test_public_regions import along_a_random_game

pytestmark = pytest.mark.django_db

STATES = 5  # states checked per game, besides the first and the last
LANGUAGES = ("en", "fr", "es")


def kept_tables():
    """Every player count of each site kind's first variant, without options."""
    return [
        pytest.param(kind, table, id=f"{kind.slug}-{table_id(table)}")
        for kind in registry.kinds(include_alpha=True)
        for table in engine_tables(kind.engine)
        if table[1] == kind.engine.VARIANTS[0] and not table[2]
    ]


def test_the_installed_kinds_keep_parts():
    """The test below checks something: a board keeps parts."""
    keeping = {
        kind.slug
        for kind in registry.kinds(include_alpha=True)
        if "{% kept " in get_template(kind.board_template).template.source
    }
    assert keeping == {"biblios", "exlibris"}


@pytest.mark.parametrize(("kind", "table"), kept_tables())
def test_a_board_is_the_same_with_its_parts_kept_from_other_boards(kind, table):
    for step, game, readers in along_a_random_game(kind, table, STATES, salt="kept"):
        alone = {}
        for language in LANGUAGES:
            with translation.override(language):
                for reader in readers:
                    kept_parts.KEPT.clear()
                    alone[language, reader.seat] = rendering.board_html(game, reader, oob=False)
        kept_parts.KEPT.clear()
        for language in LANGUAGES:
            with translation.override(language):
                for reader in readers:
                    board = rendering.board_html(game, reader, oob=False)
                    assert board == alone[language, reader.seat], (
                        f"step {step}, seat {reader.seat}, {language}"
                    )


def test_a_part_is_kept_by_its_values_and_language():
    """The same values in the same language are drawn once; other values, or another
    language, are drawn anew."""
    kept_parts.KEPT.clear()
    partial = "exlibris/board.html#tile"
    tile = {"id": "dump", "number": 3, "name": "Town Dump", "slots": [], "cards": []}
    first = kept_parts.kept(partial, tile=tile, unfold=False)
    assert first == render_to_string(partial, {"tile": tile, "unfold": False})
    assert kept_parts.kept(partial, tile=dict(tile), unfold=False) is first
    assert len(kept_parts.KEPT.items()) == 1
    unfolded = kept_parts.kept(partial, tile=tile, unfold=True)
    assert "data-fold-open" in unfolded and "data-fold-open" not in first
    with translation.override("fr"):
        french = kept_parts.kept(partial, tile=tile, unfold=False)
    assert "instantané" in french and "instantané" not in first
    assert len(kept_parts.KEPT.items()) == 3
    with pytest.raises(TypeError, match="not plain data"):
        kept_parts.kept(partial, tile=tile, unfold=object())  # its text would not say all of it
