"""The waiting room's invite link is the full URL a player can send, on the page and in the
live redraw alike, with a copy button that its own static script shows (no inline script)."""

import re

import pytest
from django.contrib.staticfiles import finders

from games.access import Visitor
from games.play import rendering
from games.tables import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(users):
    game = services.create_table(users[0], services.TableSettings(3))
    services.join_table(game.pk, users[1])
    return game


def invite_paragraph(html: str) -> str:
    return re.search(r'<p class="invite">.*?</p>', html, re.S).group(0)


def test_the_page_shows_the_full_invite_url_with_a_copy_button(table, clients, users):
    html = clients[users[1].pk].get(f"/games/{table.pk}/").content.decode()
    url = f"http://testserver/join/{table.invite_code}/"
    invite = invite_paragraph(html)
    assert f'<a href="{url}" id="invite-link">{url}</a>' in invite
    assert f'data-copy="{url}"' in invite and "hidden>Copy link</button>" in invite
    assert '<script src="/static/js/copy-link.js" defer></script>' in html
    assert finders.find("js/copy-link.js")


def test_the_live_redraw_shows_the_full_invite_url_from_the_sockets_origin(table, users):
    html = rendering.board_html(
        table, Visitor.of(table, users[1]), oob=True, origin="https://biblios.example"
    )
    url = f"https://biblios.example/join/{table.invite_code}/"
    assert 'hx-swap-oob="true"' in html
    assert f'<a href="{url}" id="invite-link">{url}</a>' in invite_paragraph(html)


def test_an_htmx_answer_from_the_table_page_keeps_the_full_invite_url(table, clients, users):
    """A move posted before the start is refused with the waiting room, drawn from that
    request."""
    response = clients[users[1].pk].post(
        f"/games/{table.pk}/act/", {"version": 0, "type": "pass"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert 'id="board-waiting"' in html
    assert f"http://testserver/join/{table.invite_code}/" in invite_paragraph(html)
