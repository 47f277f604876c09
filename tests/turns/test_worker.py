"""The turn worker (games/play/turns.py): bots play real tables through the service layer."""

import logging
import random
import re
import threading

import pytest
from django.db import connection

from biblios_site import errors
from games.access import Visitor
from games.history import folded
from games.kinds import registry
from games.kinds.biblios import engine as biblios
from games.models import Game, Move
from games.moderation import services as moderation
from games.play import selectors as play_selectors
from games.play import services, turns
from tests.turns.helpers import (
    acting_seat,
    after_deadline,
    bot_table,
    play_until_idle,
    play_with_bots,
)

pytestmark = pytest.mark.django_db


def assert_log_is_truth(game: Game) -> None:
    game.refresh_from_db()
    assert game.moves.count() == game.version
    assert moderation.check_integrity(game).problem == ""


@pytest.mark.parametrize(
    "bots",
    [
        ["novice"],
        ["scholar"],
        ["abbot"],
        ["scholar", "novice"],
        ["novice", "scholar", "abbot"],
        ["scholar", "scholar", "scholar"],
    ],
    ids="-".join,
)
def test_bots_play_whole_games_against_a_person_without_illegal_moves(people, bots, caplog):
    caplog.set_level(logging.ERROR, logger="games.play.turns")
    game = bot_table(people[0], bots, seed=len(bots) * 11 + len(bots[0]))
    game = play_with_bots(game, random.Random(3))
    assert game.status == Game.Status.FINISHED and game.result["winners"]
    assert_log_is_truth(game)
    bot_seats = set(game.seats.filter(user=None).values_list("position", flat=True))
    assert bot_seats == set(range(1, len(bots) + 1))
    moves = list(game.moves.values_list("seat", "played_by"))
    assert {played_by for seat, played_by in moves if seat in bot_seats} == {Move.PlayedBy.BOT}
    assert {played_by for seat, played_by in moves if seat == 0} == {Move.PlayedBy.PLAYER}
    # A refused bot move would have been logged before a fallback move was played.
    assert not caplog.records
    # The histories name the bots; places were recorded for every seat.
    names = play_selectors.seat_names(game)[1:]
    assert all(re.fullmatch(r"\w+ bot( \d)?", name) for name in names), names
    assert len(set(names)) == len(names), "two bots of one level share a name"
    assert all(seat.place for seat in game.seats.all())


def test_a_person_who_left_at_once_still_gets_a_finished_game(people):
    game = bot_table(people[0], ["abbot", "novice"], seed=5)
    services.leave_game(game.pk, people[0])
    play_until_idle()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert_log_is_truth(game)
    took_over = game.moves.filter(seat=0).values_list("played_by", flat=True)
    assert set(took_over) == {Move.PlayedBy.TAKEOVER}


def test_nothing_is_due_on_a_persons_untimed_turn(people):
    game = bot_table(people[0], ["scholar"], seed=1)
    seat = acting_seat(game)
    if seat.bot_level:  # the deal made the bot start: let it move until it is the person's turn
        while acting_seat(game).bot_level:
            turns.play_due()
    game.refresh_from_db()
    assert game.due_at is None
    version = game.version
    assert turns.play_due() == 0
    game.refresh_from_db()
    assert game.version == version


def test_a_bot_whose_turn_it_was_plays_after_a_restart(people):
    """All the worker needs is in the database: a fresh worker (no cache, no memory) moves."""
    game = bot_table(people[0], ["scholar", "scholar"], seed=2)
    while not acting_seat(game).bot_level:
        seat = acting_seat(game)
        board = play_selectors.board_for(game, Visitor.of(game, seat.user))
        services.submit_action(game.pk, seat.user, board["legal_actions"][0], version=game.version)
    game.refresh_from_db()
    version, due_at = game.version, game.due_at
    assert due_at is not None
    folded._history.games.clear()  # what a restarted process would not have
    assert turns.play_due() == 1
    game.refresh_from_db()
    assert game.version == version + 1
    assert game.moves.get(seq=game.version).played_by == Move.PlayedBy.BOT


def test_the_bots_memory_is_its_own_seats_log(people, monkeypatch):
    """The bot decides from its seat's view and the events its seat was shown, step by step."""
    game = bot_table(people[0], ["scholar"], seed=9)
    for _ in range(12):
        seat = acting_seat(game)
        if seat.bot_level:
            turns.play_due()
        else:
            board = play_selectors.board_for(game, Visitor.of(game, seat.user))
            services.submit_action(
                game.pk, seat.user, board["legal_actions"][-1], version=game.version
            )
    while not acting_seat(game).bot_level:
        seat = acting_seat(game)
        board = play_selectors.board_for(game, Visitor.of(game, seat.user))
        services.submit_action(game.pk, seat.user, board["legal_actions"][0], version=game.version)
    game.refresh_from_db()
    bot = acting_seat(game).position
    seen = {}

    def spy(level, view, memory, rng, budget_s=None):
        seen.update(view=view, memory=memory)
        return view["legal_actions"][0]

    bots = registry.of(game).bots
    monkeypatch.setattr(bots, "choose", spy)
    turns.play_due()
    state = biblios.replay(game.setup, [])
    expected = bots.new_memory(bot, game.num_players)
    bots.observe(expected, {"version": 0, "events": biblios.events_for(state, bot)})
    before = game.moves.filter(seq__lte=game.version).values_list("seat", "action")
    for seq, (seat, action) in enumerate(before, start=1):
        state = biblios.apply_action(state, seat, action)
        bots.observe(expected, {"version": seq, "events": biblios.events_for(state, bot)})
    assert seen["memory"] == expected
    assert seen["view"] == biblios.view(state, bot)
    assert "hands" not in seen["view"] and seen["view"]["seat"] == bot


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("repeat", range(2))
def test_workers_racing_on_one_due_game_apply_exactly_one_move(django_user_model, settings, repeat):
    # The next bot move is due a minute after this one, so a second move would be a double.
    settings.BOT_MOVE_DELAY_S = 60
    host = django_user_model.objects.create_user("racer", password="x")
    game = bot_table(host, ["scholar", "novice"], seed=3)
    services.leave_game(game.pk, host)  # every seat is played by a bot: always something due
    game.refresh_from_db()
    version, now = game.version, after_deadline(game)
    barrier = threading.Barrier(4)
    outcomes = []

    def worker():
        try:
            barrier.wait()
            outcomes.append(turns.play_turn(game.pk, now=now) is not None)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == [False, False, False, True]
    game.refresh_from_db()
    assert game.version == version + 1
    assert list(game.moves.values_list("seq", flat=True)) == list(range(1, version + 2))
    assert moderation.check_integrity(game).problem == ""


def test_a_stale_worker_move_is_refused_and_changes_nothing(people):
    game = bot_table(people[0], ["novice"], seed=4)
    services.leave_game(game.pk, people[0])
    game.refresh_from_db()
    seat = acting_seat(game)
    action = biblios.view(game.engine_state(), seat.position)["legal_actions"][0]
    services.play_due_turn(game.pk, action, version=game.version)
    with pytest.raises(errors.StaleVersion):
        services.play_due_turn(game.pk, action, version=game.version)
    assert Move.objects.filter(game=game).count() == 1


def broken_bot(level, view, memory, rng, budget_s=None):
    raise RuntimeError("a bug in a bot")


def cheating_bot(level, view, memory, rng, budget_s=None):
    return {"type": "bid", "amount": 99}


@pytest.mark.parametrize("bot", [broken_bot, cheating_bot], ids=["raises", "illegal"])
def test_a_failing_bot_is_logged_and_the_table_does_not_stall(people, monkeypatch, caplog, bot):
    game = bot_table(people[0], ["scholar"], seed=2)
    services.leave_game(game.pk, people[0])
    monkeypatch.setattr(registry.of(game).bots, "choose", bot)
    with caplog.at_level(logging.ERROR, logger="games.play.turns"):
        assert turns.play_due() == 1
    assert "bot move" in caplog.records[0].getMessage()
    assert_log_is_truth(game)
