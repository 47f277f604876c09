"""The lobby and the waiting room: creating, listing, joining, leaving, removing, starting,
invite links, private tables and tables without spectators."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games.models import Game
from games.play import rendering
from games.tables import selectors, services
from tests.play import started_game

from .helpers import forms_in

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def table(host, num_players=2, **settings):
    return services.create_table(host, services.TableSettings(num_players, **settings))


def lobby_of(client) -> str:
    response = client.get("/")
    assert response.status_code == 200
    return response.content.decode()


# ------------------------------------------------------------------------------ lobby


def test_lobby_lists_open_public_tables_with_seats_and_a_join_button(users, clients):
    game = table(users[0], 3, options={"medieval_bluff": True})
    services.join_table(game.pk, users[1])
    html = lobby_of(clients[users[2].pk])
    row = html.split(f'<tr data-game="{game.pk}">')[1].split("</tr>")[0]
    assert "2/3" in row
    assert "Scripts" not in row and "Biblios" in row
    assert "Medieval bluff." in row and "Forbid bids" not in row
    assert "Brother 0" in row
    assert f'action="/games/{game.pk}/join/"' in row


def test_a_full_table_is_listed_to_its_players_alone_until_a_seat_frees(users, clients):
    """A 3-seat table with its host, a bot and a guest is 3/3: nobody can join it, so no list
    offers it to anyone else (no Join button that could only answer "this table is full")."""
    full = table(users[0], 3, bots=("novice",))
    services.join_table(full.pk, users[1])
    full_by_people = table(users[1], 2)
    services.join_table(full_by_people.pk, users[2])
    joinable = table(users[3], 3, bots=("novice",))
    for reader in (users[4], AnonymousUser()):
        listed = [game.pk for game in selectors.lobby_tables(reader)["open_tables"]]
        assert listed == [joinable.pk]
        assert f'data-game="{full.pk}"' not in rendering.lobby_html(reader)
    page = lobby_of(clients[users[4].pk])
    assert f'<tr data-game="{joinable.pk}">' in page
    assert f'data-game="{full.pk}"' not in page and f"/games/{full.pk}/join/" not in page
    assert f'data-game="{full_by_people.pk}"' not in lobby_of(clients[None])
    for player, game in ((users[0], full), (users[2], full_by_people)):
        mine = lobby_of(clients[player.pk])
        row = mine.split(f'<tr data-game="{game.pk}">')[1].split("</tr>")[0]
        assert f'<a href="/games/{game.pk}/">Your table</a>' in row and "/join/" not in row
    services.leave_table(full_by_people.pk, users[2])
    listed = [game.pk for game in selectors.lobby_tables(users[4])["open_tables"]]
    assert listed == [joinable.pk, full_by_people.pk]


def test_lobby_hides_private_tables_except_from_their_players(users, clients):
    hidden = table(users[0], private=True)
    assert f'data-game="{hidden.pk}"' not in lobby_of(clients[users[1].pk])
    assert f'data-game="{hidden.pk}"' not in lobby_of(clients[None])
    mine = lobby_of(clients[users[0].pk])
    assert f'<a href="/games/{hidden.pk}/">Table {hidden.pk}</a>' in mine


def test_lobby_lists_games_in_progress_with_watch_links_only_where_allowed(users, clients):
    watchable = started_game(users, 2)
    closed = started_game(users[2:], 2, spectators_allowed=False)
    html = lobby_of(clients[users[4].pk])
    in_progress = html.split('id="in-progress-heading"')[1]
    assert f'<li data-game="{watchable.pk}">' in in_progress
    assert f'<a href="/games/{watchable.pk}/">Watch</a>' in in_progress
    closed_line = in_progress.split(f'<li data-game="{closed.pk}">')[1].split("</li>")[0]
    assert "Watch" not in closed_line
    assert f'data-game="{watchable.pk}"' not in html.split('id="in-progress-heading"')[0]


def test_lobby_drops_finished_and_closed_tables(users, clients):
    closed = table(users[0])
    services.leave_table(closed.pk, users[0])
    assert f'data-game="{closed.pk}"' not in lobby_of(clients[users[1].pk])


def test_anonymous_lobby_invites_to_log_in(clients):
    html = lobby_of(clients[None])
    assert "/accounts/login/" in html
    assert not [form for form in forms_in(html) if form.action == "/tables/new/"]


# ------------------------------------------------------------------------------ create


def test_create_table_seats_the_host_and_opens_its_page(users, clients):
    response = clients[users[0].pk].post(
        "/tables/new/",
        {
            "kind": "biblios",
            "variant": "scripts_and_scribes",
            "num_players": "3",
            "biblios-forbid_uncoverable_bids": "on",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/"
    assert (game.kind, game.variant) == ("biblios", "scripts_and_scribes")
    assert (game.num_players, game.host) == (3, users[0])
    assert game.options == {"medieval_bluff": False, "forbid_uncoverable_bids": True}
    assert not game.private and not game.spectators_allowed  # unchecked boxes are off
    assert list(game.seats.values_list("user", flat=True)) == [users[0].pk]


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (
            {"num_players": "2", "variant": "scripts_and_scribes", "biblios-medieval_bluff": "on"},
            "Medieval bluff is a Biblios option",
        ),
        ({"num_players": "5", "variant": "biblios"}, "Select a valid choice"),
        ({"num_players": "two", "variant": "biblios"}, "Select a valid choice"),
        ({"num_players": "2", "variant": "chess"}, "Select a valid choice"),
        ({"num_players": "2", "kind": "chess"}, "Select a valid choice"),
    ],
    ids=["bluff-outside-biblios", "five-seats", "garbage-seats", "unknown-variant", "unknown-kind"],
)
def test_create_table_refuses_bad_settings_with_a_form_error(users, clients, data, error):
    response = clients[users[0].pk].post("/tables/new/", data)
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not Game.objects.exists()


def test_the_lobby_form_draws_the_kinds_options_and_creates_what_it_shows(
    users, clients, biblios_alone
):
    """One live kind: its slug is a hidden field, and its options form is drawn beside the
    table's fields, its names prefixed by the kind (`biblios-…`) so they never meet ours."""
    (form,) = [form for form in forms_in(lobby_of(clients[users[0].pk])) if "table" in form.action]
    assert ("kind", "biblios") in form.fields
    boxes = {name for name, _, _ in form.checkboxes}
    assert {"biblios-medieval_bluff", "biblios-forbid_uncoverable_bids"} <= boxes
    data = form.data(num_players=2, **{"biblios-medieval_bluff": "on"})
    response = clients[users[0].pk].post(form.action, data)
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.kind, game.variant, game.num_players) == ("biblios", "biblios", 2)
    assert game.options == {"medieval_bluff": True, "forbid_uncoverable_bids": False}


def test_create_table_needs_a_login(clients):
    response = clients[None].post("/tables/new/", {"num_players": "2", "variant": "biblios"})
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    assert not Game.objects.exists()


# ------------------------------------------------------------------------- waiting room


def test_join_takes_a_seat_and_htmx_gets_a_client_redirect(users, clients):
    game = table(users[0], 3)
    response = clients[users[1].pk].post(f"/games/{game.pk}/join/")
    assert response.status_code == 302
    response = clients[users[2].pk].post(f"/games/{game.pk}/join/", **HTMX)
    assert response["HX-Redirect"] == f"/games/{game.pk}/"
    assert game.seats.count() == 3


def test_joining_a_full_table_says_so_and_changes_nothing(users, clients):
    game = table(users[0], 2)
    services.join_table(game.pk, users[1])
    response = clients[users[2].pk].post(f"/games/{game.pk}/join/", follow=True)
    assert "This table is full" in response.content.decode()
    assert game.seats.count() == 2


def test_join_needs_a_login_and_get_leads_back_to_the_table(users, clients):
    game = table(users[0])
    response = clients[None].post(f"/games/{game.pk}/join/")
    assert "/accounts/login/" in response["Location"]
    response = clients[users[1].pk].get(f"/games/{game.pk}/join/")
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.seats.count() == 1


def test_waiting_room_shows_seats_invite_link_and_host_controls(users, clients):
    """The invite link while a seat is free; the host's start once the table is full (its link
    then could only answer that the table is full)."""
    game = table(users[0], 2)
    waiting = clients[users[0].pk].get(f"/games/{game.pk}/").content.decode()
    assert f"/join/{game.invite_code}/" in waiting
    assert f"/games/{game.pk}/start/" not in waiting
    services.join_table(game.pk, users[1])
    host_page = clients[users[0].pk].get(f"/games/{game.pk}/").content.decode()
    assert game.invite_code not in host_page
    assert "Brother 1" in host_page
    actions = {form.action for form in forms_in(host_page)}
    assert {f"/games/{game.pk}/remove/", f"/games/{game.pk}/start/"} <= actions
    player_page = clients[users[1].pk].get(f"/games/{game.pk}/").content.decode()
    assert "Brother 0" in player_page and game.invite_code not in player_page
    assert f"/games/{game.pk}/start/" not in player_page
    outsider_page = clients[users[2].pk].get(f"/games/{game.pk}/").content.decode()
    assert game.invite_code not in outsider_page


def test_leave_frees_the_seat_and_a_leaving_host_closes_the_table(users, clients):
    game = table(users[0], 3)
    services.join_table(game.pk, users[1])
    response = clients[users[1].pk].post(f"/games/{game.pk}/leave/")
    assert response["Location"] == "/"
    assert game.seats.count() == 1
    clients[users[0].pk].post(f"/games/{game.pk}/leave/")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    page = clients[users[2].pk].get(f"/games/{game.pk}/").content.decode()
    assert "closed by its host" in page
    assert not [form for form in forms_in(page) if form.action.endswith("/join/")]


def test_host_removes_a_player_but_nobody_else_can(users, clients):
    game = table(users[0], 3)
    services.join_table(game.pk, users[1])
    services.join_table(game.pk, users[2])
    response = clients[users[1].pk].post(
        f"/games/{game.pk}/remove/", {"user": users[2].pk}, follow=True
    )
    assert "Only the host can remove players" in response.content.decode()
    assert game.seats.count() == 3
    for bad in ("", "x", "999999"):
        response = clients[users[0].pk].post(
            f"/games/{game.pk}/remove/", {"user": bad}, follow=True
        )
        assert response.status_code in (200, 404)
        assert game.seats.count() == 3
    clients[users[0].pk].post(f"/games/{game.pk}/remove/", {"user": users[2].pk})
    assert set(game.seats.values_list("user", flat=True)) == {users[0].pk, users[1].pk}


def test_start_needs_the_host_and_a_full_table(users, clients):
    game = table(users[0], 2)
    response = clients[users[0].pk].post(f"/games/{game.pk}/start/", follow=True)
    assert "needs 2 players" in response.content.decode()
    services.join_table(game.pk, users[1])
    response = clients[users[1].pk].post(f"/games/{game.pk}/start/", follow=True)
    assert "Only the host can start" in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN
    response = clients[users[0].pk].post(f"/games/{game.pk}/start/", follow=True)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert 'id="board"' in response.content.decode()


# ------------------------------------------------------------------------------ invites


def test_invite_link_seats_a_logged_in_visitor(users, clients):
    game = table(users[0], 2, private=True)
    response = clients[users[1].pk].get(f"/join/{game.invite_code}/")
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.seats.filter(user=users[1]).exists()
    again = clients[users[1].pk].get(f"/join/{game.invite_code}/")
    assert again["Location"] == f"/games/{game.pk}/"
    assert game.seats.count() == 2


def test_invite_link_asks_anonymous_visitors_to_sign_up_or_log_in_first(users, clients):
    game = table(users[0], 2)
    response = clients[None].get(f"/join/{game.invite_code}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"/accounts/signup/?next=%2Fjoin%2F{game.invite_code}%2F" in html
    assert f"/accounts/login/?next=%2Fjoin%2F{game.invite_code}%2F" in html
    assert game.seats.count() == 1


def test_invite_to_a_full_private_table_still_shows_it(users, clients):
    game = table(users[0], 2, private=True)
    services.join_table(game.pk, users[1], invited=True)
    response = clients[users[2].pk].get(f"/join/{game.invite_code}/", follow=True)
    assert response.status_code == 200
    assert "could not take a seat: this table is full" in response.content.decode()
    assert game.seats.count() == 2


def test_unknown_invite_code_is_a_clear_404(users, clients):
    response = clients[users[0].pk].get("/join/not-a-code/")
    assert response.status_code == 404
    assert "invite link is not valid" in response.content.decode()


# ---------------------------------------------------------------------- who sees a table


def test_private_table_is_only_for_players_and_invitees(users, clients):
    game = started_game(users, 2, private=True)
    for outsider in (clients[users[2].pk], clients[None]):
        for url in (f"/games/{game.pk}/", f"/games/{game.pk}/log/"):
            response = outsider.get(url)
            assert response.status_code == 403
            assert "private" in response.content.decode()
    assert clients[users[1].pk].get(f"/games/{game.pk}/").status_code == 200
    invitee = clients[users[3].pk]
    invitee.get(f"/join/{game.invite_code}/")  # the game has started: no seat, but a look
    assert invitee.get(f"/games/{game.pk}/").status_code == 200
    assert not game.seats.filter(user=users[3]).exists()


def test_private_table_cannot_be_joined_without_the_invite(users, clients):
    game = table(users[0], 3, private=True)
    response = clients[users[1].pk].post(f"/games/{game.pk}/join/", follow=True)
    assert "private" in response.content.decode()
    assert game.seats.count() == 1


def test_no_spectators_means_403_for_everyone_but_the_players(users, clients):
    game = started_game(users, 2, spectators_allowed=False)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/log/"):
        response = clients[users[3].pk].get(url)
        assert response.status_code == 403
        assert "does not allow spectators" in response.content.decode()
        assert clients[users[0].pk].get(url).status_code == 200


def test_unknown_game_is_404(clients, users):
    for url in ("/games/99999/", "/games/99999/log/"):
        assert clients[users[0].pk].get(url).status_code == 404
    assert clients[users[0].pk].post("/games/99999/join/").status_code == 404
    assert clients[users[0].pk].post("/games/99999/start/").status_code == 404


# ------------------------------------------------------------------ csrf and the game log


def test_forms_carry_csrf_for_plain_posts_and_the_page_for_htmx(users):
    game = started_game(users, 2)
    seat = game.engine_state().active
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(game.seats.get(position=seat).user)
    page = browser.get(f"/games/{game.pk}/").content.decode()
    form = [form for form in forms_in(page) if form.action.endswith("/act/")][0]
    assert browser.post(form.action, form.data()).status_code == 302
    game.refresh_from_db()
    assert game.version == 1
    # htmx sends the token from the page's hx-headers instead of a form field.
    page = browser.get(f"/games/{game.pk}/").content.decode()
    token = page.split('"X-CSRFToken": "')[1].split('"')[0]
    form = [form for form in forms_in(page) if form.action.endswith("/act/")][0]
    data = {k: v for k, v in form.data().items() if k != "csrfmiddlewaretoken"}
    refused = browser.post(form.action, data, HTTP_HX_REQUEST="true")
    assert refused.status_code == 403
    response = browser.post(form.action, data, HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version == 2


def test_game_log_is_filtered_per_seat(users, clients):
    game = started_game(users, 2)
    state = game.engine_state()
    active, drawn = state.active, state.drawing
    by_seat = {seat.position: clients[seat.user_id] for seat in game.seats.all()}
    mine = by_seat[active].get(f"/games/{game.pk}/log/").content.decode()
    assert 'You drew <span class="card' in mine
    assert f'data-card="{drawn}"' in mine
    for other in (by_seat[1 - active], clients[users[4].pk]):
        theirs = other.get(f"/games/{game.pk}/log/").content.decode()
        assert "drew a card" in theirs
        assert drawn not in theirs
