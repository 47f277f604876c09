"""Turn timers, timeouts, leaving a game on purpose and coming back (services and worker).

Time is injected (`now=`) rather than slept: a deadline is a row in the database, so a test
moves the clock past it.
"""

import random

import pytest

from biblios_site import errors
from games.access import Visitor
from games.kinds.biblios import engine as biblios
from games.models import Game, Move
from games.moderation import services as moderation
from games.play import selectors, turns
from games.play import services as play_services
from games.tables import services as tables_services
from tests.play import started_game
from tests.turns.helpers import acting_seat, after_deadline, before_deadline, bot_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def timed_game(people):
    """Two people at a 30-second table."""
    return started_game(people, 2, seed=12, turn_seconds=30)


def test_the_deadline_is_stored_when_the_turn_starts(timed_game):
    game = timed_game
    assert (game.due_at - game.started_at).total_seconds() == 30
    seat = acting_seat(game)
    board = selectors.board_for(game, Visitor.of(game, seat.user))
    moved_at = before_deadline(game)
    play_services.submit_action(
        game.pk, seat.user, board["legal_actions"][0], version=0, now=moved_at
    )
    game.refresh_from_db()
    assert (game.due_at - moved_at).total_seconds() == 30


def test_a_late_move_is_refused_even_before_the_worker_ran(timed_game):
    game = timed_game
    seat = acting_seat(game)
    action = selectors.board_for(game, Visitor.of(game, seat.user))["legal_actions"][0]
    with pytest.raises(errors.TimeUp, match="your time for this move ran out"):
        play_services.submit_action(game.pk, seat.user, action, version=0, now=after_deadline(game))
    game.refresh_from_db()
    assert game.version == 0 and not game.moves.exists()
    # In time, the same move is accepted.
    play_services.submit_action(game.pk, seat.user, action, version=0, now=before_deadline(game))
    assert game.moves.count() == 1


def test_the_worker_does_nothing_before_the_deadline(timed_game):
    assert turns.play_due(now=before_deadline(timed_game)) == 0
    timed_game.refresh_from_db()
    assert timed_game.version == 0


def time_out(game: Game):
    """Let the person to act run out of time and the worker move for them."""
    seat = acting_seat(game)
    assert not seat.bot_level
    assert turns.play_due(now=after_deadline(game)) == 1
    return seat


def test_a_timeout_gets_one_scholar_move_logged_as_automatic(timed_game):
    seat = time_out(timed_game)
    move = Move.objects.get(game=timed_game, seq=1)
    assert move.seat == seat.position and move.played_by == Move.PlayedBy.TIMEOUT
    seat.refresh_from_db()
    assert seat.consecutive_timeouts == 1 and not seat.bot_level and not seat.abandoned
    timed_game.refresh_from_db()
    assert moderation.check_integrity(timed_game).problem == ""


def test_three_timeouts_in_a_row_hand_the_seat_to_a_bot_and_the_game_still_ends(timed_game):
    game = timed_game
    sleeper = acting_seat(game).user
    timeouts = 0
    while timeouts < play_services.TIMEOUTS_BEFORE_TAKEOVER:
        seat = acting_seat(game)
        if seat.user == sleeper:
            time_out(game)
            timeouts += 1
        else:  # the other player moves in time
            board = selectors.board_for(game, Visitor.of(game, seat.user))
            play_services.submit_action(
                game.pk,
                seat.user,
                board["legal_actions"][0],
                version=game.version,
                now=before_deadline(game),
            )
    mine = game.seats.get(user=sleeper)
    assert mine.bot_level == "scholar" and mine.abandoned and mine.taken_over
    # Taken over: the player may not move for the bot.
    game.refresh_from_db()
    if acting_seat(game).user == sleeper:
        action = selectors.board_for(game, Visitor.of(game, sleeper))["legal_actions"][0]
        with pytest.raises(errors.Conflict, match="take your seat back"):
            play_services.submit_action(game.pk, sleeper, action, version=game.version)
    # The bot plays the sleeper's seat to the end.
    rng = random.Random(1)
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat = acting_seat(game)
        if seat.user == sleeper:
            assert turns.play_due(now=after_deadline(game, 0)) == 1
        else:
            board = selectors.board_for(game, Visitor.of(game, seat.user))
            play_services.submit_action(
                game.pk, seat.user, rng.choice(board["legal_actions"]), version=game.version
            )
    assert game.status == Game.Status.FINISHED
    kinds = set(game.moves.filter(seat=mine.position).values_list("played_by", flat=True))
    assert kinds == {Move.PlayedBy.TIMEOUT, Move.PlayedBy.TAKEOVER}


def test_a_move_in_time_resets_the_count_of_timeouts(timed_game):
    game = timed_game
    sleeper = acting_seat(game).user
    time_out(game)
    for _ in range(200):  # play until the sleeper's turn comes back, then move in time
        seat = acting_seat(game)
        board = selectors.board_for(game, Visitor.of(game, seat.user))
        play_services.submit_action(
            game.pk,
            seat.user,
            board["legal_actions"][0],
            version=game.version,
            now=before_deadline(game),
        )
        if seat.user == sleeper:
            break
    assert game.seats.get(user=sleeper).consecutive_timeouts == 0


def test_leaving_on_purpose_hands_the_seat_to_the_scholar_at_once(people):
    game = started_game(people, 3, seed=4)
    leaver = people[1]
    play_services.leave_game(game.pk, leaver)
    seat = game.seats.get(user=leaver)
    assert seat.bot_level == "scholar" and seat.abandoned and seat.consecutive_timeouts == 0
    with pytest.raises(errors.Conflict, match="already plays your seat"):
        play_services.leave_game(game.pk, leaver)
    # When the leaver's turn comes the worker plays it, even at an untimed table.
    rng = random.Random(2)
    for _ in range(200):
        current = acting_seat(game)
        if current.user == leaver:
            assert turns.play_due() == 1
            move = game.moves.order_by("-seq").first()
            assert move.seat == seat.position and move.played_by == Move.PlayedBy.TAKEOVER
            break
        board = selectors.board_for(game, Visitor.of(game, current.user))
        play_services.submit_action(
            game.pk, current.user, rng.choice(board["legal_actions"]), version=game.version
        )
    else:
        pytest.fail("the leaver's turn never came")


def test_a_returning_player_takes_the_seat_back(people):
    game = started_game(people, 2, seed=6, turn_seconds=60)
    leaver = acting_seat(game).user
    play_services.leave_game(game.pk, leaver)
    game.refresh_from_db()
    bot_due = game.due_at
    play_services.take_seat_back(game.pk, leaver)
    seat = game.seats.get(user=leaver)
    assert not seat.bot_level and not seat.abandoned and seat.consecutive_timeouts == 0
    game.refresh_from_db()
    # Their turn again: a fresh person's deadline replaced the bot's due time.
    assert (game.due_at - bot_due).total_seconds() > 50
    action = selectors.board_for(game, Visitor.of(game, leaver))["legal_actions"][0]
    play_services.submit_action(game.pk, leaver, action, version=game.version)
    assert game.moves.get().played_by == Move.PlayedBy.PLAYER
    with pytest.raises(errors.Conflict, match="already playing your seat"):
        play_services.take_seat_back(game.pk, leaver)


def test_only_players_of_a_running_game_leave_or_come_back(people):
    game = started_game(people, 2, seed=6)
    with pytest.raises(errors.NotAllowed):
        play_services.leave_game(game.pk, people[3])
    with pytest.raises(errors.NotAllowed):
        play_services.take_seat_back(game.pk, people[3])
    table = tables_services.create_table(people[2], tables_services.TableSettings(2))
    with pytest.raises(errors.Conflict, match="waiting for players"):
        play_services.leave_game(table.pk, people[2])


def test_a_bot_seat_is_due_after_the_readable_delay(people, settings):
    settings.BOT_MOVE_DELAY_S = 0.8
    game = bot_table(people[0], ["novice"], seed=1)
    play_services.leave_game(game.pk, people[0])
    game.refresh_from_db()
    assert turns.play_due(now=after_deadline(game, -0.5)) == 0
    assert turns.play_due(now=after_deadline(game, 0)) == 1


def test_a_bots_deadline_is_not_shown_as_a_persons(people):
    game = bot_table(people[0], ["scholar"], seed=3, turn_seconds=30)
    seats = list(game.seats.all())
    for _ in range(50):
        game.refresh_from_db()
        acting = acting_seat(game)
        shown = selectors.turn_deadline(game, seats, biblios.to_act(game.engine_state()))
        assert shown == (None if acting.bot_level else game.due_at)
        if acting.bot_level:
            turns.play_due(now=after_deadline(game))
        else:
            board = selectors.board_for(game, Visitor.of(game, acting.user))
            play_services.submit_action(
                game.pk,
                acting.user,
                board["legal_actions"][0],
                version=game.version,
                now=before_deadline(game),
            )
    assert biblios.to_act(game.engine_state())  # still running: both kinds of turn were seen
