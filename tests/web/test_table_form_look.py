"""The create-table form hides what does not apply without JavaScript: seats beyond the chosen
player count and Medieval bluff with Scripts & Scribes, by CSS :has() rules in site.css keyed on
the classes the form draws (the server ignores extra seats and refuses the bluff itself)."""

import re
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

SITE_CSS = (Path(settings.BASE_DIR) / "static" / "css" / "site.css").read_text()


@pytest.fixture
def lobby(clients, users) -> str:
    return clients[users[0].pk].get("/").content.decode()


def test_each_seat_is_in_its_own_block_that_the_stylesheet_hides_by_player_count(lobby):
    for number in (2, 3, 4):
        assert f'<div class="field field-seat_{number}">' in lobby
    assert re.search(
        r'select\[name="num_players"\] option\[value="2"\]:checked\) :is\(\.field-seat_3, '
        r"\.field-seat_4\)",
        SITE_CSS,
    )
    assert 'option[value="3"]:checked) .field-seat_4' in SITE_CSS


def test_medieval_bluff_sits_in_the_biblios_options_that_the_stylesheet_hides_for_s_and_s(lobby):
    biblios_options = r'<fieldset class="table-options" data-kind="biblios">.*?</fieldset>'
    options = re.search(biblios_options, lobby, re.S).group()
    assert '<div class="field field-medieval_bluff">' in options
    assert '<option value="biblios/scripts_and_scribes"' in lobby
    assert re.search(
        r'option\[value="biblios/scripts_and_scribes"\]:checked\)\s+\[data-kind="biblios"\]\s+'
        r"\.field-medieval_bluff:has\(input:not\(:checked\)\)",
        SITE_CSS,
    )


def test_a_checkbox_comes_before_its_label_and_its_help_after(lobby):
    bluff = r'<div class="field field-medieval_bluff">(.*?)\n</div>'
    block = re.search(bluff, lobby, re.S).group(1)
    assert block.index('type="checkbox"') < block.index("<label") < block.index('class="helptext"')
