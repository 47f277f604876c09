"""Ex Libris through the turn worker (games/play/turns.py): bot seats of both levels play their
tables
to the end through the services, and a seat whose time runs out is played by the stand-in, the
greedy bot (three in a row: it takes the seat over)."""

import logging
import random
from datetime import timedelta

import pytest

from games.access import Visitor
from games.kinds import registry
from games.models import Game, Move
from games.moderation import services as moderation
from games.play import selectors, services, turns
from tests.kinds.exlibris.site.helpers import open_table
from tests.turns.helpers import acting_seat, after_deadline, play_until_idle, play_with_bots

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_bots(settings):
    settings.BOT_MOVE_DELAY_S = 0


@pytest.fixture
def people(django_user_model):
    return [
        django_user_model.objects.create_user(f"turn{i}", display_name=f"Turn {i}")
        for i in range(4)
    ]


def assert_log_is_truth(game: Game) -> None:
    game.refresh_from_db()
    assert game.moves.count() == game.version
    assert moderation.check_integrity(game).problem == ""


@pytest.mark.parametrize(
    "bots", [["random"], ["greedy"], ["greedy", "random", "random"]], ids="-".join
)
def test_bot_seats_play_their_table_to_the_end_against_a_person(people, bots, caplog):
    """The person picks from its own view; every bot turn is the worker's, with no refused move
    (a refused bot move would be logged before a fallback move)."""
    caplog.set_level(logging.ERROR, logger="games.play.turns")
    game = open_table(people, len(bots) + 1, bots=bots, seed=len(bots) * 13 + len(bots[0]))
    game = play_with_bots(game, random.Random(2), max_steps=3000)
    assert game.status == Game.Status.FINISHED and game.result["players"]
    assert_log_is_truth(game)
    assert not caplog.records
    moves = set(game.moves.values_list("seat", "played_by"))
    assert {by for seat, by in moves if seat > 0} == {Move.PlayedBy.BOT}
    assert {by for seat, by in moves if seat == 0} == {Move.PlayedBy.PLAYER}
    assert set(game.seats.filter(user=None).values_list("bot_level", flat=True)) == set(bots)
    assert all(seat.place for seat in game.seats.all())


def test_a_table_of_bots_is_played_out_by_the_worker_after_its_host_leaves(people, caplog):
    """The host leaves at once: the stand-in (greedy) takes its seat and the worker alone plays
    the game to its end (X67)."""
    caplog.set_level(logging.ERROR, logger="games.play.turns")
    game = open_table(people, 4, bots=["greedy", "random", "random"], seed=44)
    services.leave_game(game.pk, people[0])
    play_until_idle()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert_log_is_truth(game)
    assert not caplog.records
    host = game.seats.get(position=0)
    assert host.bot_level == registry.of(game).stand_in == "greedy" and host.abandoned
    assert set(game.moves.filter(seat=0).values_list("played_by", flat=True)) == {
        Move.PlayedBy.TAKEOVER
    }


def move_in_time(game: Game, seat, rng: random.Random) -> None:
    """A random legal move from the seat's own view, a second before its deadline."""
    game.refresh_from_db()
    board = selectors.board_for(game, Visitor.of(game, seat.user))
    moment = game.due_at - timedelta(seconds=1)
    action = rng.choice(board["legal_actions"])
    services.submit_action(game.pk, seat.user, action, version=game.version, now=moment)
    game.refresh_from_db()


def test_a_seat_out_of_time_is_played_by_the_greedy_stand_in(people):
    """At a 30-second table the worker plays a late seat's move: greedy's choice from that
    seat's view, logged as the clock's; the third in a row hands the seat to greedy for good,
    and the game still ends."""
    game = open_table(people, 2, seed=61, turn_seconds=30)
    rng = random.Random(6)
    while game.engine_state()["phase"] != "placement":  # the draft in time (X8)
        move_in_time(game, acting_seat(game), rng)
    sleeper = acting_seat(game)
    drafted = game.version
    rng_seed = 4
    greedy = turns.bot_action(game, sleeper.position, "greedy", random.Random(rng_seed))
    randomly = turns.bot_action(game, sleeper.position, "random", random.Random(rng_seed))
    assert greedy != randomly, "this deal must tell the two levels apart"
    moved = turns.play_turn(game.pk, now=after_deadline(game), rng=random.Random(rng_seed))
    assert moved is not None
    first = game.moves.order_by("seq").last()
    assert (first.seat, first.action, first.played_by) == (
        sleeper.position,
        greedy,
        Move.PlayedBy.TIMEOUT,
    )
    sleeper.refresh_from_db()
    assert sleeper.consecutive_timeouts == 1 and not sleeper.bot_level

    for _ in range(3000):
        seat = acting_seat(game)
        if seat is None:
            break
        if seat.bot_level or seat.user == sleeper.user:  # its timeouts, then the stand-in
            assert turns.play_turn(game.pk, now=after_deadline(game), rng=rng) is not None
        else:
            move_in_time(game, seat, rng)
    assert game.status == Game.Status.FINISHED
    assert_log_is_truth(game)
    sleeper.refresh_from_db()
    assert sleeper.bot_level == "greedy" and sleeper.taken_over
    since = game.moves.filter(seat=sleeper.position, seq__gt=drafted).order_by("seq")
    played = list(since.values_list("played_by", flat=True))
    timeouts = services.TIMEOUTS_BEFORE_TAKEOVER
    assert played[:timeouts] == [Move.PlayedBy.TIMEOUT] * timeouts
    assert set(played[timeouts:]) == {Move.PlayedBy.TAKEOVER}
