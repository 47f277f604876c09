"""A Swiss tournament through its services (docs/tournaments.md): registration and check-in
until the start, no-shows withdrawn at the start, rounds opened as the last table ends (once,
however many ask), results by place, withdrawals of those who leave, the staff's cancel and
removal, and the notices at each step."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from biblios_site import errors
from games.kinds import registry
from games.models import Game, Tournament, TournamentPlayer, TournamentRound
from games.play import services as play_services
from games.tables import services as tables
from games.tournaments import selectors, services
from notifications.models import Notification
from tests.play import make_users
from tests.tournaments.helpers import finish, round_games, scheduled, started

pytestmark = pytest.mark.django_db
Event = Notification.Event


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("staff", password="x", is_staff=True)


@pytest.fixture
def people(django_user_model):
    return make_users(django_user_model, "swiss", 6)


def notices(user, event) -> list:
    return list(Notification.objects.filter(recipient=user, event=event))


def test_only_the_staff_schedule_and_every_setting_is_checked(staff, people):
    with pytest.raises(errors.NotAllowed):
        scheduled(people[0])
    refusals = [
        {"table_size": 5},
        {"rounds": 0},
        {"turn_seconds": 45},
        {"kind": "chess"},
        {"variant": "nope"},
        {"bot_level": "grandmaster"},
        {"name": " "},
        {"minutes": -1},
    ]
    for fields in refusals:
        with pytest.raises(errors.ServiceError):
            scheduled(staff, **fields)
    assert not Tournament.objects.exists()
    tournament = scheduled(staff, kind="exlibris", table_size=4, turn_seconds=24 * 3600)
    kind = registry.get("exlibris")
    assert (tournament.variant, tournament.bot_level) == (kind.default_variant, kind.default_bot)


def test_registration_check_in_and_unregistering_until_the_start(staff, people):
    early = scheduled(staff, minutes=90)
    first = services.register(early.pk, people[0])
    assert first.checked_in_at is None  # before the window: not checked in yet
    with pytest.raises(errors.Conflict):
        services.register(early.pk, people[0])
    with pytest.raises(errors.Conflict, match="check-in opens 30 minutes"):
        services.check_in(early.pk, people[0])
    assert notices(people[0], Event.TOURNEY_REGISTERED)
    services.unregister(early.pk, people[0])
    with pytest.raises(errors.Conflict):
        services.unregister(early.pk, people[0])
    # Inside the window, registering checks in; check-in works for an earlier registration.
    services.register(early.pk, people[1])
    later = early.starts_at - timedelta(minutes=10)
    services.check_in(early.pk, people[1], now=later)
    assert early.players.get(user=people[1]).checked_in_at == later
    soon = scheduled(staff)
    assert services.register(soon.pk, people[2]).checked_in_at is not None
    # After the start: closed, whatever the door.
    past = soon.starts_at + timedelta(seconds=1)
    for action in (services.register, services.unregister, services.check_in):
        with pytest.raises(errors.Conflict, match="registration is closed"):
            action(soon.pk, people[3], now=past)


def test_a_two_round_swiss_of_three_player_tables_with_a_no_show(
    staff, people, django_capture_on_commit_callbacks
):
    """Three check in, a fourth registers early and never does: withdrawn at the start; round
    1 is one table of three (bots not allowed: nobody else), round 2 opens when it ends, and
    the final standings follow the places."""
    tournament = scheduled(staff, minutes=40)
    absent = people[3]
    services.register(tournament.pk, absent)
    later = tournament.starts_at - timedelta(minutes=20)
    for person in people[:3]:
        services.register(tournament.pk, person, now=later)
    tournament = started(tournament)
    assert tournament.status == Tournament.Status.RUNNING
    entry = tournament.players.get(user=absent)
    assert entry.withdrawn == TournamentPlayer.Withdrawal.NO_SHOW
    assert notices(absent, Event.TOURNEY_WITHDRAWN)
    (game,) = round_games(tournament, 1)
    assert game.status == Game.Status.ACTIVE and game.turn_seconds == 60
    assert {seat.user_id for seat in game.seats.all()} == {p.pk for p in people[:3]}
    assert all(notices(person, Event.TOURNEY_ROUND) for person in people[:3])
    assert not notices(people[0], Event.GAME_STARTED)  # the round's notice says it

    with django_capture_on_commit_callbacks(execute=True):
        finish(game, random.Random(1))
    first = TournamentRound.objects.get(tournament=tournament, number=1)
    assert first.finished_at is not None
    (second,) = round_games(tournament, 2)
    assert second.status == Game.Status.ACTIVE
    assert services.advance(tournament.pk) is False  # a second ask opens nothing

    with django_capture_on_commit_callbacks(execute=True):
        finish(second, random.Random(2))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert all(notices(person, Event.TOURNEY_OVER) for person in people[:4])
    points = {}
    for played in (game, second):
        for seat in played.seats.all():
            points[seat.user_id] = points.get(seat.user_id, 0) + 3 - seat.place
    rows = selectors.board(tournament, people[0]).standings
    assert [row.points for row in rows[:3]] == sorted(points.values(), reverse=True)
    assert rows[-1].user_id == absent.pk and rows[-1].withdrawn


def test_bots_fill_a_short_table_only_when_allowed_else_a_bye(staff, people):
    with_bots = scheduled(staff, bots_allowed=True, rounds=1)
    without = scheduled(staff, rounds=1)
    for tournament in (with_bots, without):
        for person in people[:4]:
            services.register(tournament.pk, person)
    with_bots, without = started(with_bots), started(without)
    tables = round_games(with_bots, 1)
    assert sorted(g.seats.filter(user=None).count() for g in tables) == [0, 2]
    assert not TournamentRound.objects.get(tournament=with_bots).byes
    (table,) = round_games(without, 1)
    assert not table.seats.filter(user=None).exists()
    (rest,) = TournamentRound.objects.get(tournament=without).byes
    assert rest not in {seat.user_id for seat in table.seats.all()}
    assert notices(next(p for p in people if p.pk == rest), Event.TOURNEY_ROUND)


def test_too_few_players_cancel_the_tournament(staff, people):
    tournament = scheduled(staff)
    services.register(tournament.pk, people[0])
    services.register(tournament.pk, people[1])
    tournament = started(tournament)
    assert tournament.status == Tournament.Status.CANCELLED
    assert notices(people[0], Event.TOURNEY_CANCELLED)


def test_a_tournament_table_is_opened_whatever_its_hosts_open_tables(staff, people, settings):
    """The cap on one's open tables guards the lobby; a tournament's table never waits there."""
    settings.MAX_OPEN_TABLES_PER_USER = 1
    tournament = scheduled(staff, table_size=2, rounds=1)
    for person in people[:2]:
        services.register(tournament.pk, person)
        tables.create_table(person, tables.TableSettings(2))
    tournament = started(tournament)
    assert len(round_games(tournament, 1)) == 1


def test_a_player_who_leaves_is_withdrawn_and_coming_back_wins_nothing(staff, people):
    tournament = scheduled(staff, table_size=2, rounds=2)
    for person in people[:4]:
        services.register(tournament.pk, person)
    tournament = started(tournament)
    game = round_games(tournament, 1)[0]
    leaver = game.seats.get(position=0).user
    play_services.leave_game(game.pk, leaver)
    play_services.take_seat_back(game.pk, leaver)
    entry = tournament.players.get(user=leaver)
    assert entry.withdrawn == TournamentPlayer.Withdrawal.LEFT
    for played in round_games(tournament, 1):
        finish(played, random.Random(3))
    services.start_due(now=timezone.now())  # the clock opens the round nobody opened
    seated = {s.user_id for g in round_games(tournament, 2) for s in g.seats.all()}
    byes = TournamentRound.objects.get(tournament=tournament, number=2).byes
    assert leaver.pk not in seated | set(byes)
    assert len(seated | set(byes)) == 3


def test_the_staff_remove_a_player_and_cancel(staff, people):
    tournament = scheduled(staff, table_size=2, rounds=3)
    for person in people[:4]:
        services.register(tournament.pk, person)
    tournament = started(tournament)
    services.remove_player(tournament.pk, people[0].pk)
    assert tournament.players.get(user=people[0]).withdrawn == TournamentPlayer.Withdrawal.REMOVED
    with pytest.raises(errors.NotFound):
        services.remove_player(tournament.pk, people[5].pk)
    services.cancel(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert notices(people[1], Event.TOURNEY_CANCELLED)
    for played in round_games(tournament, 1):
        finish(played, random.Random(4))
    services.start_due(now=timezone.now())
    assert not round_games(tournament, 2)  # no more pairing
    with pytest.raises(errors.Conflict):
        services.cancel(tournament.pk)


def test_a_banned_player_is_withdrawn_at_the_pairing_and_the_round_opens(staff, people):
    tournament = scheduled(staff, table_size=2, rounds=1)
    for person in people[:3]:
        services.register(tournament.pk, person)
    people[0].is_active = False
    people[0].save()
    tournament = started(tournament)
    entry = tournament.players.get(user=people[0])
    assert entry.withdrawn == TournamentPlayer.Withdrawal.REMOVED
    (game,) = round_games(tournament, 1)
    assert {seat.user_id for seat in game.seats.all()} == {people[1].pk, people[2].pk}
