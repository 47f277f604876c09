"""Who is asking (`games.access.Visitor`): worked out once by each door, then handed to the
access rule and to what draws the game, so no door reads the seat or the invite twice."""

import random

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from accounts.models import ApiToken
from games import access
from games.play import rendering
from games.tables import services as tables
from tests.api.conftest import ApiClient
from tests.live.conftest import own_channel_layer  # noqa: F401  (autouse fixture)
from tests.live.helpers import TIMEOUT, Sockets, next_move, run, session_cookie, submit
from tests.play import play_to_end, started_game


@pytest.fixture
def users(django_user_model):
    make = django_user_model.objects.create_user
    return [make(f"monk{i}", password="x", display_name=f"Brother {i}") for i in range(4)]


@pytest.fixture
def built(monkeypatch):
    """Every visitor `Visitor.of` builds, in order."""
    made = []
    build = access.Visitor.of

    def counted(game, user, **options):
        made.append(build(game, user, **options))
        return made[-1]

    monkeypatch.setattr(access.Visitor, "of", counted)
    return made


@pytest.fixture
def drawn_for(monkeypatch):
    """The visitor each board and chat panel was drawn for, by what drew it."""
    seen = []
    for name in ("board_context", "chat_context", "waiting_context", "log_context"):
        draw = getattr(rendering, name)

        def counted(game, visitor, *args, draw=draw, name=name, **kwargs):
            seen.append((name, visitor))
            return draw(game, visitor, *args, **kwargs)

        monkeypatch.setattr(rendering, name, counted)
    return seen


def browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_visitor_is_the_user_their_seat_their_invite_and_whether_they_are_staff(users):
    game = started_game(users[:2], 2)
    seat = game.seats.get(user=users[1]).position
    assert access.Visitor.of(game, users[1]) == access.Visitor(users[1], seat, False, False)
    stranger = access.Visitor.of(game, users[2], invited=True)
    assert (stranger.seat, stranger.invited, stranger.staff) == (None, True, False)
    users[3].is_staff = True
    assert access.Visitor.of(game, users[3]).staff
    anonymous = access.Visitor.of(game, AnonymousUser())
    assert (anonymous.seat, anonymous.staff, anonymous.person) == (None, False, None)


@pytest.mark.django_db
def test_a_banned_account_is_an_anonymous_visitor_even_in_its_seat(users):
    game = started_game(users[:2], 2)
    users[1].is_active, users[1].is_staff = False, True
    banned = access.Visitor.of(game, users[1])
    assert (banned.seat, banned.staff, banned.person) == (None, False, None)
    assert not access.may_play(game, banned)


@pytest.mark.django_db
def test_a_seat_the_caller_has_read_costs_no_query(users, django_assert_num_queries):
    game = started_game(users[:2], 2)
    with django_assert_num_queries(0):
        visitor = access.Visitor.of(game, users[0], seat=0)
        assert access.may_see(game, visitor) and access.may_play(game, visitor)


@pytest.mark.django_db
def test_the_game_page_works_out_its_visitor_once_for_the_board_and_the_chat(
    users, built, drawn_for
):
    game = started_game(users[:2], 2)
    built.clear()  # the services' own, seating the players
    page = browser(users[1]).get(f"/games/{game.pk}/")
    assert page.status_code == 200
    assert len(built) == 1
    (visitor,) = built
    assert visitor.user == users[1] and visitor.seat is not None
    assert [name for name, _ in drawn_for] == ["board_context", "chat_context"]
    assert all(drawn is visitor for _, drawn in drawn_for)


@pytest.mark.django_db
def test_the_waiting_room_and_the_log_each_work_out_one_visitor(users, built, drawn_for):
    game = started_game(users[:2], 2)
    built.clear()  # the services' own, seating the players
    assert browser(users[2]).get(f"/games/{game.pk}/log/").status_code == 200
    assert [(name, drawn) for name, drawn in drawn_for] == [("log_context", built[0])]
    assert len(built) == 1
    built.clear()
    drawn_for.clear()
    waiting = tables.create_table(users[3], tables.TableSettings(2))
    built.clear()
    assert browser(users[3]).get(f"/games/{waiting.pk}/").status_code == 200
    assert len(built) == 1
    assert [name for name, _ in drawn_for] == ["waiting_context", "chat_context"]
    assert all(drawn is built[0] for _, drawn in drawn_for)


@pytest.mark.django_db
def test_the_replay_and_the_api_board_work_out_one_visitor(users, built):
    finished = play_to_end(started_game(users[:2], 2), random.Random(2))
    built.clear()  # the services' own, seating and moving the players
    assert browser(users[2]).get(f"/games/{finished.pk}/replay/").status_code == 200
    assert len(built) == 1
    built.clear()
    _, token = ApiToken.issue(users[2], "tests")
    assert ApiClient(token, users[2]).get(f"/api/games/{finished.pk}").status_code == 200
    assert len(built) == 1


@pytest.mark.django_db(transaction=True)
def test_a_socket_works_out_its_visitor_once_the_seats_no_longer_move(users, built):
    """A spectator's socket on a running game: one visitor for its check and every push after
    (the moves' own visitors are the move service's, read under its lock)."""
    game = started_game(users[:2], 2)
    watcher = users[2]
    cookie = session_cookie(watcher)
    rng = random.Random(3)
    sockets = Sockets()

    async def scenario():
        socket, _ = await sockets.connect(f"/ws/games/{game.pk}/", cookie=cookie)
        for _ in range(3):
            mover, action, version = await database_sync_to_async(next_move)(game, rng)
            await submit(game.pk, mover, action, version=version)
            await socket.receive_from(timeout=TIMEOUT)
        await sockets.close_all()

    run(scenario)
    assert [visitor.user for visitor in built].count(watcher) == 1
