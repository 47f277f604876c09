"""A friend request is told to its receiver, an acceptance to its requester, like every other
notice (in the site, by e-mail and push as they chose); the navigation's "My friends" counts
the requests waiting, live over `ws/me/`. Blocks let nothing through."""

import re

import pytest
from channels.db import database_sync_to_async
from django.core import mail
from django.urls import reverse
from django.utils import translation

from biblios_site import errors
from friends import services
from notifications import texts
from notifications.models import Delivery, Notification
from tests.friends.conftest import browser
from tests.live.conftest import own_channel_layer  # noqa: F401  (a fresh channel layer)
from tests.live.helpers import QUIET, TIMEOUT, run, session_cookie
from tests.notifications.test_live import COUNT, socket

Event = Notification.Event
NAV_FRIENDS = re.compile(
    r'<a href="/friends/" class="friends-link">([^<]*) '
    r'<span id="nav-friends"(?: class="nav-count")? title="[^"]+">(\d*)</span>'
)


@pytest.fixture
def mailed(users):
    """The users with e-mail addresses (the default choice: an e-mail for each notice)."""
    for user in users:
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    return users


def notices(user, event=None) -> list[Notification]:
    rows = Notification.objects.filter(recipient=user).order_by("pk")
    return list(rows.filter(event=event) if event else rows)


def nav_friends(user, language="en") -> tuple[str, str]:
    """The navigation's "My friends" link on the lobby: its words and its count."""
    page = browser(user, language).get(reverse("home")).content.decode()
    return NAV_FRIENDS.search(page).groups()


@pytest.mark.django_db
def test_a_request_is_told_to_its_receiver_and_an_acceptance_to_its_requester(
    mailed, django_capture_on_commit_callbacks
):
    ada, basil, *_ = mailed
    with django_capture_on_commit_callbacks(execute=True):
        services.send_request(ada, basil)
    (request,) = notices(basil)
    assert (request.event, request.actor, request.read_at) == (Event.FRIEND_REQUEST, ada, None)
    assert notices(ada) == []
    text = texts.render(request)
    assert text.title == "Ada wants to be your friend" and text.path == reverse("friends:page")
    assert [(m.to, m.subject) for m in mail.outbox] == [([basil.email], text.title)]
    assert Delivery.objects.get(notification=request).sent_at is not None

    with django_capture_on_commit_callbacks(execute=True):
        services.accept(basil, ada)
    (accepted,) = notices(ada)
    assert (accepted.event, accepted.actor) == (Event.FRIEND_ACCEPTED, basil)
    assert texts.render(accepted).title == "Basil accepted your friend request"
    request.refresh_from_db()
    assert request.read_at is not None  # answered: no badge left for it
    assert len(mail.outbox) == 2


@pytest.mark.django_db
def test_the_texts_are_translated(users):
    ada, basil, *_ = users
    services.send_request(ada, basil)
    services.accept(basil, ada)
    (request,) = notices(basil)
    (accepted,) = notices(ada)
    for language, asked, answered in (
        ("fr", "Ada vous propose d’être amis", "Basil a accepté votre demande d’ami"),
        ("es", "Ada te propone ser amigos", "Basil aceptó tu solicitud de amistad"),
    ):
        with translation.override(language):
            assert texts.text_of(request).title == asked
            assert texts.text_of(accepted).title == answered
            assert "%(" not in texts.text_of(request).body + texts.text_of(accepted).body


@pytest.mark.django_db
def test_a_request_taken_back_or_ended_by_a_block_leaves_no_unread_notice(users):
    ada, basil, clio, _ = users
    services.send_request(ada, basil)
    services.cancel(ada, basil)
    assert notices(basil) == []
    services.send_request(clio, basil)
    services.block(basil, clio)
    assert notices(basil) == []
    services.send_request(ada, basil)
    services.refuse(basil, ada)
    (refused,) = notices(basil)
    assert refused.read_at is not None and notices(ada) == []


@pytest.mark.django_db
def test_blocked_users_requests_create_nothing(users):
    ada, basil, clio, _ = users
    services.block(basil, ada)
    with pytest.raises(errors.NotAllowed):
        services.send_request(ada, basil)  # blocked by the receiver
    services.block(clio, basil)
    with pytest.raises(errors.Conflict):
        services.send_request(clio, basil)  # the sender blocked the receiver
    assert not Notification.objects.exists() and not Delivery.objects.exists()
    assert nav_friends(basil)[1] == ""


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, words", [("en", "My friends"), ("fr", "Mes amis"), ("es", "Mis amigos")]
)
def test_the_navigation_shows_my_friends_with_the_requests_waiting(users, language, words):
    ada, basil, clio, dora = users
    assert nav_friends(ada, language) == (words, "")
    services.send_request(basil, ada)
    services.send_request(clio, ada)
    services.send_request(ada, dora)  # her own request is not counted
    assert nav_friends(ada, language) == (words, "2")
    services.accept(ada, basil)
    assert nav_friends(ada, language) == (words, "1")


@pytest.mark.django_db(transaction=True)
def test_the_count_is_live(users):
    ada, basil, clio, _ = users

    def friends_count(frame: str) -> int:
        return int(dict(COUNT.findall(frame))["nav-friends"] or 0)

    async def scenario():
        page = socket(await database_sync_to_async(session_cookie)(ada))
        assert (await page.connect(timeout=TIMEOUT))[0]
        assert friends_count(await page.receive_from(timeout=TIMEOUT)) == 0
        await database_sync_to_async(services.send_request)(basil, ada)
        assert friends_count(await page.receive_from(timeout=TIMEOUT)) == 1
        await database_sync_to_async(services.send_request)(clio, ada)
        assert friends_count(await page.receive_from(timeout=TIMEOUT)) == 2
        await database_sync_to_async(services.cancel)(clio, ada)
        assert friends_count(await page.receive_from(timeout=TIMEOUT)) == 1
        await database_sync_to_async(services.refuse)(ada, basil)
        frames = [await page.receive_from(timeout=TIMEOUT)]
        while not await page.receive_nothing(timeout=QUIET):
            frames.append(await page.receive_from(timeout=TIMEOUT))
        assert friends_count(frames[-1]) == 0
        await page.disconnect()

    run(scenario)
