"""The notifications page, the navigation's unread count and the API: the list
newest first, links to the games, a Join button for an invitation to an open table, marking
read by htmx and by plain form, and the same through `/api/notifications`."""

import re

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games.models import Game
from games.tables import services
from notifications.models import Notification
from notifications.services import notify
from tests.api.conftest import ApiClient
from tests.notifications.helpers import notices
from tests.play import started_game

pytestmark = pytest.mark.django_db

Event = Notification.Event
UNREAD = re.compile(r'<span id="nav-unread"(?: class="nav-count")?>(\d*)</span>')


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def unread_in_nav(client) -> int:
    found = UNREAD.search(client.get(reverse("rules")).content.decode())
    assert found, "no unread count in the navigation"
    return int(found[1] or 0)


@pytest.fixture
def told(people, committed):
    """Basil invited to Ada's open table, then told it is his turn at a 24-hour game."""
    ada, basil = people[:2]
    table = services.create_table(ada, services.TableSettings(2))

    def invite():
        with transaction.atomic():
            notify(basil, Event.INVITATION, game=table, actor=ada)

    committed(invite)
    game = committed(started_game, [basil, ada], 2, seed=1, turn_seconds=86400)
    return table, game


def test_the_list_shows_newest_first_with_links_and_a_join_button(people, told):
    ada, basil = people[:2]
    table, game = told
    client = browser(basil)
    html = client.get(reverse("notifications:list")).content.decode()
    rows = re.findall(r'data-notification="(\d+)" data-event="(\w+)"', html)
    expected = [(str(n.pk), n.event) for n in reversed(notices(basil))]
    assert rows == expected and rows[-1][1] == "invitation"
    assert "Reader 0 invites you to Biblios table" in html
    join = f'action="/join/{table.invite_code}/"'
    assert join in html  # the table is open, he is not seated
    assert unread_in_nav(client) == len(rows)
    assert unread_in_nav(browser(people[2])) == 0
    # Joined: no more Join button.
    services.join_table(table.pk, basil)
    html = client.get(reverse("notifications:list")).content.decode()
    assert join not in html


def test_marking_read_by_htmx_and_by_plain_form(people, told):
    basil = people[1]
    client = browser(basil)
    first, *others = notices(basil)
    partial = client.post(
        reverse("notifications:read"), {"notification": first.pk}, headers={"HX-Request": "true"}
    )
    assert partial.status_code == 200
    html = partial.content.decode()
    assert html.lstrip().startswith('<div id="notifications"') and "<nav" not in html
    first.refresh_from_db()
    assert first.read_at is not None
    assert unread_in_nav(client) == len(others)
    plain = client.post(reverse("notifications:read"), {"all": "1"})
    assert plain.status_code == 302 and plain["Location"] == reverse("notifications:list")
    assert unread_in_nav(client) == 0
    bad = client.post(reverse("notifications:read"), {"notification": "x"})
    assert bad.status_code == 400 and "Say which notification" in bad.content.decode()


def test_nobody_marks_anothers_notifications(people, told):
    ada, basil = people[:2]
    theirs = notices(basil)[0]
    browser(ada).post(reverse("notifications:read"), {"notification": theirs.pk})
    theirs.refresh_from_db()
    assert theirs.read_at is None
    assert Client().get(reverse("notifications:list")).status_code == 302  # to log in


def test_the_api_lists_and_marks_read(people, told):
    basil = people[1]
    api = ApiClient(ApiToken.issue(basil, "tests")[1], basil)
    listed = api.get("/api/notifications").data
    mine = notices(basil)
    assert listed["unread"] == len(mine)
    assert [n["id"] for n in listed["notifications"]] == [n.pk for n in reversed(mine)]
    invitation = listed["notifications"][-1]
    assert invitation["event"] == "invitation" and invitation["actor"] == "Reader 0"
    table = Game.objects.get(pk=invitation["game"])
    assert invitation["url"] == f"http://localhost:8000/join/{table.invite_code}/"
    assert invitation["title"] == "Reader 0 invites you to a table" and not invitation["read"]
    assert api.post("/api/notifications/read", {"ids": [mine[0].pk]}).data == {
        "marked": 1,
        "unread": len(mine) - 1,
    }
    for wrong in ({"ids": ["x"]}, {"ids": [True]}, {}, {"all": True, "ids": []}, {"al": 1}):
        response = api.post("/api/notifications/read", wrong)
        assert response.status_code == 400, wrong
    assert api.post("/api/notifications/read", {"all": True}).data["unread"] == 0
