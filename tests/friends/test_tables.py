"""What friendships and blocks change at the tables ("Friends"): friends' open tables
first in the lobby; tables for the host's friends only (listed to them alone, every door of
joining refused to the rest); inviting a friend from the table; a blocked user's chat hidden
from the one who blocked them."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from biblios_site import errors
from friends import services as friends
from games import access
from games.chat import services as chat
from games.models import Game
from games.play import rendering
from games.tables import selectors, services
from notifications.models import Notification
from tests.play import started_game

from .conftest import api_client, befriend, browser

pytestmark = pytest.mark.django_db


def table(host, *, players: int = 2, **settings) -> Game:
    return services.create_table(host, services.TableSettings(players, **settings))


def seated(game) -> list[str]:
    return list(game.seats.values_list("user__username", flat=True))


# ------------------------------------------------------------------------------ the lobby


def test_the_lobby_lists_my_friends_open_tables_first(users):
    ada, basil, clio, dora = users
    friends_table = table(basil)
    newer = [table(clio), table(dora)]  # opened later, so newer, by strangers to ada
    befriend(ada, basil)
    listed = [game.pk for game in selectors.lobby_tables(ada)["open_tables"]]
    assert listed == [friends_table.pk, newer[1].pk, newer[0].pk]
    stranger = [game.pk for game in selectors.lobby_tables(dora)["open_tables"]]
    assert stranger == [newer[1].pk, newer[0].pk, friends_table.pk]  # newest first, as before
    page = browser(ada).get(reverse("home")).content.decode()
    assert page.index(f'data-game="{friends_table.pk}"') < page.index(f'data-game="{newer[1].pk}"')
    assert "(friend)" in page


def test_a_friends_only_table_is_listed_to_the_hosts_friends_alone(users):
    ada, basil, clio, _ = users
    befriend(ada, basil)
    game = table(ada, friends_only=True)
    assert game.friends_only
    for reader, shown in ((ada, True), (basil, True), (clio, False)):
        listed = [found.pk for found in selectors.lobby_tables(reader)["open_tables"]]
        assert (game.pk in listed) is shown
        lobby = rendering.lobby_html(reader)
        assert (f'data-game="{game.pk}"' in lobby) is shown
        tables = api_client(reader).get("/api/tables").data["tables"]
        assert (game.pk in [found["id"] for found in tables]) is shown
    anonymous = selectors.lobby_tables(AnonymousUser())["open_tables"]
    assert game.pk not in [found.pk for found in anonymous]


def test_a_non_friend_is_refused_at_every_door_of_a_friends_only_table(users):
    ada, basil, clio, _ = users
    game = table(ada, friends_only=True, players=3)
    with pytest.raises(errors.NotAllowed, match="host's friends only"):
        services.join_table(game.pk, clio)
    with pytest.raises(errors.NotAllowed, match="host's friends only"):
        services.join_by_invite(game.invite_code, clio)
    stranger = access.Visitor.of(game, clio)
    assert access.join_refusal(game, stranger) == "this table is for the host's friends only"
    assert not access.may_join(game, stranger)
    page = browser(clio).post(reverse("game_join", args=[game.pk]), follow=True)
    assert "This table is for the host&#x27;s friends only." in page.content.decode()
    link = browser(clio).get(reverse("invite", args=[game.invite_code]), follow=True)
    assert "host&#x27;s friends only" in link.content.decode()
    refused = api_client(clio).post(
        f"/api/tables/{game.pk}/join", {"invite_code": game.invite_code}
    )
    assert refused.status_code == 403 and "friends only" in refused.data["error"]
    assert seated(game) == ["ada"]
    waiting = browser(clio).get(reverse("game", args=[game.pk])).content.decode()
    assert "host&#x27;s friends only" in waiting and "Join this table" not in waiting
    # A friend of the host takes a seat by each door.
    befriend(ada, basil)
    assert access.may_join(game, access.Visitor.of(game, basil))
    assert browser(basil).post(reverse("game_join", args=[game.pk])).status_code == 302
    assert seated(game) == ["ada", "basil"]


def test_a_friend_joins_by_the_api_and_a_rematch_keeps_the_table_for_friends(users):
    ada, basil, clio, _ = users
    befriend(ada, basil)
    created = api_client(ada).post("/api/tables", {"num_players": 2, "friends_only": True})
    assert created.status_code == 201 and created.data["friends_only"] is True
    joined = api_client(basil).post(f"/api/tables/{created.data['id']}/join")
    assert joined.status_code == 200 and joined.data["seat"] == 1
    finished = started_game([ada, basil], 2, friends_only=True)
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    again = services.rematch(finished.pk, basil)
    assert again.friends_only and again.host_id == basil.pk


def test_the_table_form_offers_friends_only(users):
    ada, *_ = users
    response = browser(ada).post(
        reverse("table_create"), {"num_players": 2, "turn_seconds": "", "friends_only": "on"}
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.friends_only
    assert "Friends of the host only" in browser(ada).get(response["Location"]).content.decode()


# --------------------------------------------------------------------------- invitations


def invitations(user) -> list:
    return list(
        Notification.objects.filter(recipient=user, event="invitation").values_list(
            "game_id", "actor__username"
        )
    )


def test_a_seated_player_invites_a_friend_who_is_notified_once(users):
    ada, basil, clio, _ = users
    befriend(ada, basil)
    befriend(clio, basil)
    game = table(ada, players=3)
    services.join_table(game.pk, clio)
    services.invite_friend(game.pk, ada, basil)
    services.invite_friend(game.pk, ada, basil)  # a second click adds nothing
    services.invite_friend(game.pk, clio, basil)  # another player's invitation is its own
    assert sorted(invitations(basil)) == [(game.pk, "ada"), (game.pk, "clio")]


@pytest.mark.parametrize(
    ("case", "refusal", "message"),
    [
        ("stranger", errors.NotAllowed, "only invite your friends"),
        ("blocked by the friend", errors.NotAllowed, "only invite your friends"),
        ("blocked the friend", errors.NotAllowed, "only invite your friends"),
        ("not seated", errors.NotAllowed, "only the table's players"),
        ("seated already", errors.Conflict, "seated at this table already"),
        ("full", errors.Conflict, "this table is full"),
        ("started", errors.Conflict, "already started"),
        ("not the host's friend", errors.NotAllowed, "host's friends only"),
    ],
)
def test_invitations_are_refused_with_a_reason_and_notify_nobody(users, case, refusal, message):
    ada, basil, clio, dora = users
    inviter, friend = ada, basil
    if case != "stranger":
        befriend(ada, basil)
    game = table(
        clio if case in ("not the host's friend", "not seated") else ada,
        players=3,
        friends_only=case == "not the host's friend",
    )
    if case == "not the host's friend":
        befriend(clio, ada)
        services.join_table(game.pk, ada)
    if case == "blocked by the friend":
        friends.block(basil, ada)
    if case == "blocked the friend":
        friends.block(ada, basil)
    if case == "seated already":
        services.join_table(game.pk, basil)
    if case == "full":
        befriend(ada, dora)
        befriend(ada, clio)
        services.join_table(game.pk, clio)
        services.join_table(game.pk, dora)
    if case == "started":
        services.join_table(game.pk, clio)
        services.join_table(game.pk, dora)
        services.start_game(game.pk, ada)
    with pytest.raises(refusal, match=message):
        services.invite_friend(game.pk, inviter, friend)
    assert not Notification.objects.filter(event="invitation").exists()


def test_the_waiting_room_offers_my_friends_not_seated_and_invites_by_a_plain_post(users):
    ada, basil, clio, dora = users
    befriend(ada, basil)
    befriend(ada, clio)
    game = table(ada, players=3)
    services.join_table(game.pk, clio)
    page = browser(ada).get(reverse("game", args=[game.pk])).content.decode()
    assert 'name="friend"' in page and f'value="{basil.pk}">Basil' in page
    assert f'value="{clio.pk}"' not in page.split('name="friend"')[1].split("</select>")[0]
    assert (
        'name="friend"' not in browser(dora).get(reverse("game", args=[game.pk])).content.decode()
    )
    url = reverse("game_invite_friend", args=[game.pk])
    sent = browser(ada).post(url, {"friend": basil.pk}, follow=True)
    assert "Basil is invited." in sent.content.decode()
    refused = browser(ada).post(url, {"friend": dora.pk}, follow=True)
    assert "You can only invite your friends." in refused.content.decode()
    junk = browser(ada).post(url, {"friend": "x"}, follow=True)
    assert "Choose a friend to invite." in junk.content.decode()
    assert invitations(basil) == [(game.pk, "ada")] and invitations(dora) == []
    htmx = browser(ada).post(url, {"friend": clio.pk}, headers={"HX-Request": "true"})
    assert htmx.status_code == 200 and htmx["HX-Redirect"] == reverse("game", args=[game.pk])


def test_inviting_through_the_api(users):
    ada, basil, clio, _ = users
    befriend(ada, basil)
    game = table(ada)
    host = api_client(ada)
    assert host.post(f"/api/tables/{game.pk}/invite", {"username": "basil"}).status_code == 200
    assert invitations(basil) == [(game.pk, "ada")]
    refused = host.post(f"/api/tables/{game.pk}/invite", {"username": "clio"})
    assert refused.status_code == 403 and "friends" in refused.data["error"]
    missing = host.post(f"/api/tables/{game.pk}/invite", {"username": "nobody"})
    assert missing.status_code == 404
    assert host.post(f"/api/tables/{game.pk}/invite", {"user": 1}).status_code == 400
    assert invitations(clio) == []


def test_the_invitation_shows_a_join_button_that_seats_the_friend(users):
    ada, basil, *_ = users
    befriend(ada, basil)
    game = table(ada)
    services.invite_friend(game.pk, ada, basil)
    client = browser(basil)
    page = client.get(reverse("notifications:list")).content.decode()
    assert "Ada invites you to Biblios table" in page
    action = reverse("invite", args=[game.invite_code])  # a private table's way in too
    assert f'action="{action}"' in page
    assert client.post(action).status_code == 302
    assert seated(game) == ["ada", "basil"]
    assert f'action="{action}"' not in client.get(reverse("notifications:list")).content.decode()


def test_an_invitation_lets_the_friend_into_a_private_table(users):
    """The invitation's join button is the table's invite link (the notification's own)."""
    ada, basil, *_ = users
    befriend(ada, basil)
    game = table(ada, private=True)
    services.invite_friend(game.pk, ada, basil)
    page = browser(basil).get(reverse("notifications:list")).content.decode()
    link = reverse("invite", args=[game.invite_code])
    assert link in page
    browser(basil).get(link)
    assert seated(game) == ["ada", "basil"]


# --------------------------------------------------------------------------------- chat


def test_a_blocked_players_chat_is_hidden_from_the_blocker_only(users):
    ada, basil, clio, _ = users
    game = started_game([ada, basil, clio])
    chat.post_message(game.pk, basil, "hello from basil")
    chat.post_message(game.pk, clio, "hello from clio")
    friends.block(ada, basil)
    shown = {
        user.username: [m.text for m in chat.recent(game, "players", user)]
        for user in (ada, basil, clio)
    }
    assert shown == {
        "ada": ["hello from clio"],
        "basil": ["hello from basil", "hello from clio"],
        "clio": ["hello from basil", "hello from clio"],
    }
    page = browser(ada).get(reverse("game", args=[game.pk])).content.decode()
    assert "hello from clio" in page and "hello from basil" not in page
    assert "hello from basil" in browser(clio).get(reverse("game", args=[game.pk])).content.decode()
    friends.unblock(ada, basil)
    assert "hello from basil" in browser(ada).get(reverse("game", args=[game.pk])).content.decode()
