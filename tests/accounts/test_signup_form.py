"""The sign-up form as drawn: required fields marked, each box followed by its help text and
described by it, so a screen reader reads the help with the box."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def field_blocks(html: str) -> dict[str, str]:
    return dict(re.findall(r'<div class="field field-([a-z_0-9]+)">(.*?)\n</div>', html, re.S))


def test_every_field_is_marked_required_and_its_help_follows_the_box(client):
    html = client.get(reverse("accounts:signup")).content.decode()
    assert "Fields marked" in html
    blocks = field_blocks(html)
    assert set(blocks) == {"username", "display_name", "password1", "password2"}
    for name, block in blocks.items():
        label = block.index("<label")
        box = block.index("<input")
        help_at = block.index('class="helptext"')
        assert label < box < help_at, f"{name}: label, box, then help"
        assert '<span class="required-mark" aria-hidden="true"> *</span></label>' in block
        box_tag = re.search(r"<input[^>]*>", block).group()
        assert " required" in box_tag
        help_id = re.search(r'class="helptext" id="([^"]+)"', block).group(1)
        assert f'aria-describedby="{help_id}"' in box_tag


def test_an_error_is_shown_under_the_box_and_described(client):
    html = client.post(
        reverse("accounts:signup"),
        {"username": "ada", "display_name": "x", "password1": "p", "password2": "q"},
    ).content.decode()
    block = field_blocks(html)["display_name"]
    box_tag = re.search(r"<input[^>]*>", block).group()
    assert 'aria-invalid="true"' in box_tag
    assert "id_display_name_error" in box_tag
    assert block.index("<input") < block.index('id="id_display_name_error"')
