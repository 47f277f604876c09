"""The sign-up form as drawn: required fields marked, each box followed by its help text and
described by it, so a screen reader reads the help with the box."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def field_blocks(html: str) -> dict[str, str]:
    return dict(re.findall(r'<div class="field field-([a-z_0-9]+)">(.*?)\n</div>', html, re.S))


def test_every_field_is_marked_required_and_its_help_follows_the_box(client):
    """Every field but the e-mail address (optional: only for notices)."""
    html = client.get(reverse("accounts:signup")).content.decode()
    assert "Fields marked" in html
    blocks = field_blocks(html)
    assert set(blocks) == {"username", "display_name", "email", "password1", "password2"}
    for name, block in blocks.items():
        label = block.index("<label")
        box = block.index("<input")
        help_at = block.index('class="helptext"')
        assert label < box < help_at, f"{name}: label, box, then help"
        required = name != "email"
        mark = '<span class="required-mark" aria-hidden="true"> *</span></label>'
        assert (mark in block) == required, name
        box_tag = re.search(r"<input[^>]*>", block).group()
        assert (" required" in box_tag) == required, name
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


def test_the_e_mail_address_is_optional_checked_and_kept(client, django_user_model):
    """Notices are e-mailed to the address given at sign-up, if any."""
    signup = {
        "display_name": "Ada L",
        "password1": "a long pass 8723",
        "password2": "a long pass 8723",
    }
    refused = client.post(
        reverse("accounts:signup"), {**signup, "username": "ada", "email": "ada@"}
    )
    assert refused.status_code == 200 and "Enter a valid email address." in refused.content.decode()
    assert not django_user_model.objects.filter(username="ada").exists()
    client.post(
        reverse("accounts:signup"), {**signup, "username": "ada", "email": "ada@example.org"}
    )
    assert django_user_model.objects.get(username="ada").email == "ada@example.org"
    client.logout()
    client.post(reverse("accounts:signup"), {**signup, "username": "bob", "display_name": "Bob B"})
    assert django_user_model.objects.get(username="bob").email == ""
