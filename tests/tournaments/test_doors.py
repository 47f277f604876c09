"""The tournaments' doors: the list and the page (with their htmx live region and plain-POST
buttons), the JSON API (docs/api.md), the admin's cancel and removal, the notices' texts; and no
door of a tournament shows a card of its running games, to a player, a spectator or anyone."""

import json
import random
from datetime import timedelta

import pytest
from django.contrib.admin.sites import site as admin_site
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken
from games.access import Visitor
from games.models import Tournament, TournamentPlayer
from games.play import selectors as play_selectors
from games.play import services as play_services
from games.tournaments import services
from notifications import texts
from notifications.models import Notification
from tests.api.conftest import ApiClient
from tests.kinds.exlibris.site.helpers import cards_in
from tests.play import choose_quickly, make_users
from tests.tournaments.helpers import round_games, scheduled, started
from tests.web.helpers import card_ids_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        "staff", password="x", is_staff=True, is_superuser=True
    )


@pytest.fixture
def people(django_user_model):
    return make_users(django_user_model, "door", 5)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_page_registers_checks_in_and_unregisters_by_htmx_or_plain_post(staff, people):
    tournament = scheduled(staff, minutes=60)
    anonymous = Client().get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert "Autumn Swiss" in anonymous and "Log in to register" in anonymous
    assert "Buchholz" in anonymous  # the tie-breaks are written out
    listing = Client().get(reverse("tournaments")).content.decode()
    assert reverse("tournament", args=[tournament.pk]) in listing
    player = logged_in(people[0])
    register = reverse("tournament_register", args=[tournament.pk])
    answer = player.post(register, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and 'id="tournament-live"' in answer.content.decode()
    assert "<html" not in answer.content.decode()  # the region alone
    assert tournament.players.filter(user=people[0]).exists()
    again = player.post(register, headers={"HX-Request": "true"}).content.decode()
    assert "registered for this tournament already" in again
    # Check-in is not open an hour before: the button is not there, the door refuses.
    page = player.get(reverse("tournament", args=[tournament.pk])).content.decode()
    assert reverse("tournament_check_in", args=[tournament.pk]) not in page
    refused = player.post(reverse("tournament_check_in", args=[tournament.pk]), follow=True)
    assert "Check-in opens 30 minutes" in refused.content.decode()
    unregister = player.post(reverse("tournament_unregister", args=[tournament.pk]))
    assert unregister.status_code == 302
    assert not tournament.players.exists()
    soon = scheduled(staff, minutes=20)
    services.register(soon.pk, people[1])
    TournamentPlayer.objects.filter(user=people[1]).update(checked_in_at=None)
    page = logged_in(people[1]).get(reverse("tournament", args=[soon.pk])).content.decode()
    assert reverse("tournament_check_in", args=[soon.pk]) in page
    logged_in(people[1]).post(reverse("tournament_check_in", args=[soon.pk]))
    assert soon.players.get(user=people[1]).checked_in_at is not None


def test_a_tournament_game_links_its_tournament_and_warns_who_would_leave(staff, people):
    tournament = scheduled(staff, table_size=2, rounds=1)
    for person in people[:2]:
        services.register(tournament.pk, person)
    started(tournament)
    (game,) = round_games(tournament, 1)
    page = logged_in(people[0]).get(reverse("game", args=[game.pk])).content.decode()
    assert reverse("tournament", args=[tournament.pk]) in page
    assert "Round 1 of Autumn Swiss" in page
    assert "withdraws you from its later rounds" in page


def test_the_api_lists_shows_and_takes_registrations(staff, people):
    tournament = scheduled(staff, minutes=20, table_size=2, rounds=1)
    clients = []
    for person in people[:3]:
        _, raw = ApiToken.issue(person, "tests")
        clients.append(ApiClient(raw, person))
    listed = clients[0].get("/api/tournaments")
    assert [t["id"] for t in listed.data["tournaments"]] == [tournament.pk]
    for client in clients:
        answer = client.post(f"/api/tournaments/{tournament.pk}/register")
        assert answer.status_code == 200 and answer.data["me"]["checked_in"]
    assert clients[0].post(f"/api/tournaments/{tournament.pk}/register").status_code == 409
    assert clients[2].post(f"/api/tournaments/{tournament.pk}/unregister").status_code == 200
    assert clients[2].post(f"/api/tournaments/{tournament.pk}/check-in").status_code == 409
    assert clients[0].post(f"/api/tournaments/{tournament.pk}/check-in").status_code == 200
    assert clients[0].get("/api/tournaments/999999").status_code == 404
    assert (
        clients[0].post(f"/api/tournaments/{tournament.pk}/register", {"x": 1}).status_code == 400
    )
    started(tournament)
    detail = clients[0].get(f"/api/tournaments/{tournament.pk}").data
    assert detail["status"] == "running" and not detail["may_unregister"]
    (table,) = detail["rounds_played"][0]["tables"]
    assert table["game"] == round_games(tournament, 1)[0].pk
    assert {p["name"] for p in table["players"]} == {str(p) for p in people[:2]}
    assert [row["points"] for row in detail["standings"]] == [0, 0]


def test_the_staff_schedule_a_tournament_in_the_admin_each_setting_checked(staff):
    admin = logged_in(staff)
    add = reverse("admin:games_tournament_add")
    assert admin.get(add).status_code == 200
    start = timezone.localtime(timezone.now() + timedelta(days=1))
    form = {
        "name": "Winter Swiss",
        "kind": "biblios",
        "variant": "",
        "table_size": "3",
        "rounds": "3",
        "starts_at_0": start.strftime("%Y-%m-%d"),
        "starts_at_1": start.strftime("%H:%M:%S"),
        "turn_seconds": "86400",
        "bot_level": "",
    }
    refused = admin.post(add, {**form, "turn_seconds": "45"})
    assert refused.status_code == 200 and "time per move must be" in refused.content.decode()
    assert not Tournament.objects.exists()
    created = admin.post(add, form)
    assert created.status_code == 302
    (tournament,) = Tournament.objects.all()
    assert (tournament.name, tournament.rounds, tournament.created_by) == ("Winter Swiss", 3, staff)
    assert tournament.variant == "biblios" and tournament.bot_level


def test_the_admin_cancels_and_removes(staff, people):
    tournament = scheduled(staff, table_size=2, rounds=2)
    for person in people[:3]:
        services.register(tournament.pk, person)
    started(tournament)
    admin = logged_in(staff)
    change = reverse("admin:games_tournament_change", args=[tournament.pk])
    assert admin.get(change).status_code == 200
    remove = reverse("admin:games_tournament_remove_player", args=[tournament.pk])
    admin.post(remove, {"user": people[0].pk})
    assert tournament.players.get(user=people[0]).withdrawn == "removed"
    changelist = reverse("admin:games_tournament_changelist")
    admin.post(changelist, {"action": "cancel_tournaments", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert Tournament in admin_site._registry


def test_every_notice_of_a_tournament_reads_in_each_language(staff, people):
    tournament = scheduled(staff, table_size=2, rounds=1)
    for person in people[:3]:
        services.register(tournament.pk, person)
    started(tournament)
    services.cancel(tournament.pk)
    found = Notification.objects.filter(tournament=tournament)
    events = {notice.event for notice in found}
    assert {"tourney_registered", "tourney_round", "tourney_cancelled"} <= events
    for language in ("en", "fr", "es"):
        for notice in found:
            notice.recipient.language = language
            text = texts.render(notice)
            assert "Autumn Swiss" in text.title and text.body and text.path.startswith("/")


@pytest.mark.parametrize("kind", ["biblios", "exlibris"])
def test_no_door_of_a_tournament_shows_a_card_of_its_running_games(staff, people, kind):
    """Mid-game, the page, its live region, the list and the API, read by a player of each
    table, a registered player at another table, a spectator and a visitor, name no card."""
    tournament = scheduled(staff, kind=kind, table_size=2, rounds=2)
    for person in people[:4]:
        services.register(tournament.pk, person)
    started(tournament)
    rng = random.Random(5)
    for game in round_games(tournament, 1):
        for _ in range(12):
            game.refresh_from_db()
            to_act = game.seats.get(on_turn=True)
            board = play_selectors.board_for(game, Visitor.of(game, to_act.user))
            play_services.submit_action(
                game.pk, to_act.user, choose_quickly(board, rng), version=board["version"]
            )
    found = card_ids_in if kind == "biblios" else cards_in
    board = logged_in(people[0]).get(reverse("game", args=[round_games(tournament, 1)[0].pk]))
    assert found(board.content.decode())  # teeth: a player's own board shows their cards
    readers = [logged_in(person) for person in people] + [Client()]
    for reader in readers:
        for url in (
            reverse("tournament", args=[tournament.pk]),
            reverse("tournament_live", args=[tournament.pk]),
            reverse("tournaments"),
        ):
            page = reader.get(url).content.decode()
            assert not found(page), (url, found(page))
    for person in people[:4]:
        _, raw = ApiToken.issue(person, "leak")
        detail = ApiClient(raw, person).get(f"/api/tournaments/{tournament.pk}").data
        assert not found(json.dumps(detail))
