"""The friend buttons on profiles, the friends page and the friends API ("Friends":
requests from the profile page and the API), as plain POSTs, with htmx, and in FR and ES."""

import pytest
from django.test import Client
from django.urls import reverse

from friends import selectors, services
from friends.models import Block, Friendship

from .conftest import api_client, befriend, browser

pytestmark = pytest.mark.django_db


def profile(user) -> str:
    return reverse("accounts:profile", args=[user.username])


def act(client, action: str, other, **headers):
    data = {"user": other.pk, "next": profile(other)}
    return client.post(reverse("friends:act", args=[action]), data, headers=headers)


def test_the_profile_buttons_walk_a_request_through_with_plain_posts(users):
    ada, basil, *_ = users
    page = browser(ada).get(profile(basil)).content.decode()
    assert "Add friend" in page and "Block" in page
    client = browser(ada)
    sent = act(client, "request", basil)
    assert sent.status_code == 302 and sent["Location"] == profile(basil)
    page = client.get(profile(basil)).content.decode()
    assert "Friend request sent to Basil." in page and "Cancel the request" in page
    mine = browser(basil).get(profile(basil)).content.decode()
    assert "My friends" in mine and "(1 request waiting)" in mine
    theirs = browser(basil).get(profile(ada)).content.decode()
    assert "Accept" in theirs and "Refuse" in theirs
    act(browser(basil), "accept", ada)
    assert selectors.are_friends(ada, basil)
    assert "Remove friend" in browser(ada).get(profile(basil)).content.decode()
    act(browser(ada), "remove", basil)
    assert not Friendship.objects.exists()
    act(browser(ada), "block", basil)
    assert "Unblock" in browser(ada).get(profile(basil)).content.decode()
    act(browser(ada), "unblock", basil)
    assert not Block.objects.exists()
    # A visitor sees no buttons; an unsafe `next` goes to the friends page.
    assert "Add friend" not in Client().get(profile(basil)).content.decode()
    away = browser(ada).post(
        reverse("friends:act", args=["request"]),
        {"user": basil.pk, "next": "https://evil.example/"},
    )
    assert away["Location"] == reverse("friends:page")


def test_htmx_gets_the_buttons_or_the_lists_redrawn_with_the_message(users):
    ada, basil, clio, _ = users
    answer = act(browser(ada), "request", basil, **{"HX-Request": "true"})
    html = answer.content.decode()
    assert answer.status_code == 200 and html.startswith('<div class="friend-actions"')
    assert "Friend request sent to Basil." in html and "Cancel the request" in html
    refused = act(browser(ada), "request", basil, **{"HX-Request": "true"})
    refusal = refused.content.decode()
    assert refused.status_code == 200  # htmx swaps it: the fragment says why, as an alert
    assert '<p class="friend-message" role="alert">You asked already' in refusal
    services.send_request(clio, ada)
    lists = act(browser(ada), "accept", clio, **{"HX-Request": "true", "HX-Target": "friend-lists"})
    html = lists.content.decode()
    assert html.startswith('<div id="friend-lists"') and "You and Clio are friends now." in html
    assert html.count("You and Clio are friends now.") == 1


def test_bad_posts_change_nothing_and_say_why(users):
    ada, basil, *_ = users
    client = browser(ada)
    for data in ({"user": "x"}, {"user": 999999}, {}, {"user": ada.pk}):
        page = client.post(reverse("friends:act", args=["request"]), data, follow=True)
        text = page.content.decode()
        assert "There is no such player." in text or "That is you." in text
    unknown = client.post(reverse("friends:act", args=["adopt"]), {"user": basil.pk}, follow=True)
    assert "There is no such action." in unknown.content.decode()
    assert client.get(reverse("friends:act", args=["request"])).status_code == 405
    anonymous = Client().post(reverse("friends:act", args=["request"]), {"user": basil.pk})
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert not Friendship.objects.exists() and not Block.objects.exists()


def test_the_friends_page_lists_friends_requests_and_blocks(users):
    ada, basil, clio, dora = users
    befriend(ada, basil)
    services.send_request(clio, ada)
    services.send_request(ada, dora)
    page = browser(ada).get(reverse("friends:page")).content.decode()
    sections = page.split("<h2")
    incoming, friends, outgoing, blocked = sections[1:5]
    assert "Clio" in incoming and "Accept" in incoming
    assert "Basil" in friends and "Remove friend" in friends
    assert "Dora" in outgoing and "Cancel the request" in outgoing
    assert "You have blocked nobody." in blocked
    services.block(ada, clio)
    blocked = browser(ada).get(reverse("friends:page")).content.decode().split("<h2")[4]
    assert "Clio" in blocked and "Unblock" in blocked
    assert Client().get(reverse("friends:page")).status_code == 302  # log in first


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ["Mes amis", "Demandes pour vous", "Joueurs bloqués", "Retirer de mes amis"]),
        ("es", ["Mis amigos", "Solicitudes para ti", "Jugadores bloqueados", "Quitar amigo"]),
    ],
)
def test_the_friends_pages_read_in_french_and_spanish(users, language, words):
    ada, basil, clio, _ = users
    befriend(ada, basil)
    page = browser(ada, language).get(reverse("friends:page")).content.decode()
    for word in words:
        assert word in page, word
    assert "Friends" not in page.split("<main")[1]
    other = browser(ada, language).get(profile(clio)).content.decode()
    assert {"fr": "Ajouter en ami", "es": "Añadir amigo"}[language] in other


# ------------------------------------------------------------------------------------ API


@pytest.fixture
def api(users):
    return [api_client(user) for user in users]


def test_the_api_sends_accepts_and_lists(users, api):
    ada, basil, clio, dora = api
    sent = ada.post("/api/friends/basil/request")
    assert sent.status_code == 200
    assert sent.data == {"username": "basil", "name": "Basil", "relation": "request_sent"}
    assert basil.get("/api/friends").data["incoming"] == [{"username": "ada", "name": "Ada"}]
    assert basil.post("/api/friends/ada/accept").data["relation"] == "friends"
    clio.post("/api/friends/ada/request")
    ada.post("/api/friends/dora/block")
    listed = ada.get("/api/friends").data
    assert listed == {
        "friends": [{"username": "basil", "name": "Basil"}],
        "incoming": [{"username": "clio", "name": "Clio"}],
        "outgoing": [],
        "blocked": [{"username": "dora", "name": "Dora"}],
    }
    assert ada.post("/api/friends/clio/refuse").data["relation"] == "none"
    assert ada.post("/api/friends/basil/remove").data["relation"] == "none"
    assert ada.post("/api/friends/dora/unblock").data["relation"] == "none"
    assert ada.get("/api/friends").data == {
        "friends": [],
        "incoming": [],
        "outgoing": [],
        "blocked": [],
    }


def test_the_api_refuses_with_json_and_changes_nothing(users, api):
    ada, basil, *_ = api
    ada.post("/api/friends/basil/block")
    before = list(Block.objects.values_list("pk", flat=True))
    cases = [
        (basil.post("/api/friends/ada/request"), 403, "does not take your friend requests"),
        (ada.post("/api/friends/basil/request"), 409, "unblock them first"),
        (ada.post("/api/friends/ada/request"), 400, "that is you"),
        (ada.post("/api/friends/nobody/request"), 404, "no player"),
        (ada.post("/api/friends/basil/adopt"), 404, "no API endpoint"),
        (ada.post("/api/friends/basil/cancel"), 404, "no such friend request"),
        (ada.post("/api/friends/basil/unblock", {"x": 1}), 400, "unknown field"),
        (ada.get("/api/friends/basil/request"), 405, "not allowed"),
    ]
    for response, status, message in cases:
        assert response.status_code == status and message in response.data["error"]
    assert list(Block.objects.values_list("pk", flat=True)) == before
    assert not Friendship.objects.exists()


# ---------------------------------------------------------------------------------- admin


def test_moderators_see_friendships_and_blocks_in_the_admin_and_change_nothing(users):
    from django.contrib.auth import get_user_model

    ada, basil, clio, _ = users
    befriend(ada, basil)
    services.block(clio, ada)
    moderator = get_user_model().objects.create_superuser("abbot", password="x")
    admin = browser(moderator)
    friendships = admin.get(reverse("admin:friends_friendship_changelist")).content.decode()
    assert "Ada" in friendships and "Basil" in friendships and "Friends" in friendships
    blocks = admin.get(reverse("admin:friends_block_changelist")).content.decode()
    assert "Clio" in blocks and "Ada" in blocks
    block = Block.objects.get()
    assert admin.get(reverse("admin:friends_block_change", args=[block.pk])).status_code == 200
    assert admin.get(reverse("admin:friends_block_add")).status_code == 403
    deleted = admin.post(reverse("admin:friends_block_delete", args=[block.pk]), {"post": "yes"})
    assert deleted.status_code == 403 and Block.objects.count() == 1
