"""A move the stand-in bot made because a player's time ran out reads as such in the game log,
to that player and to everyone else, in every language; a move the player chose still reads as
theirs."""

import pytest
from django.template import Context
from django.utils import translation

from games.access import Visitor
from games.history import replay
from games.history import selectors as history_selectors
from games.kinds.biblios.templatetags.biblios_board import log_line
from games.play import rendering, services, turns
from games.play import selectors as play_selectors
from tests.play import started_game
from tests.turns.helpers import acting_seat, after_deadline, before_deadline
from tests.web.helpers import Knowledge, assert_no_leak

pytestmark = pytest.mark.django_db

TIME_RAN_OUT = {"en": "Time ran out", "fr": "Temps écoulé", "es": "Se acabó el tiempo"}


@pytest.fixture
def timed_game(people):
    """Two people at a 30-second table."""
    return started_game(people, 2, seed=12, turn_seconds=30)


def newest_line(game, user) -> str:
    """The log line of the newest placement on `user`'s board (a draw may follow it)."""
    context = rendering.board_context(game, Visitor.of(game, user))
    placed = next(event for event in context["log"] if event["type"] == "placed")
    return log_line(Context(context), placed)


def test_a_timed_out_move_says_the_bot_chose_it_to_the_player_and_to_the_others(timed_game):
    game = timed_game
    sleeper = acting_seat(game)
    other = game.seats.select_related("user").exclude(pk=sleeper.pk).get()
    assert turns.play_due(now=after_deadline(game)) == 1
    game.refresh_from_db()
    with translation.override("en"):
        mine = newest_line(game, sleeper.user)
        theirs = newest_line(game, other.user)
        whole_log = rendering.log_context(game, Visitor.of(game, sleeper.user))["log"]
    assert mine.startswith("Time ran out: the bot placed ") and mine.endswith(" for you"), mine
    assert theirs.startswith(f"Time ran out for {sleeper.user.display_name}: the bot placed ")
    assert theirs.endswith(" for them"), theirs
    assert any(event.get("timed_out") for event in whole_log)
    for language, words in TIME_RAN_OUT.items():
        with translation.override(language):
            assert newest_line(game, sleeper.user).startswith(words)
            assert newest_line(game, other.user).startswith(words)


def test_the_timeout_mark_shows_nothing_a_seat_may_not_know(timed_game):
    game = timed_game
    sleeper = acting_seat(game)
    assert turns.play_due(now=after_deadline(game)) == 1
    game.refresh_from_db()
    state = game.engine_state()
    knowledge = Knowledge(game.num_players)
    knowledge.update(state)
    for seat in game.seats.select_related("user"):
        html = rendering.board_html(game, Visitor.of(game, seat.user), oob=False)
        assert_no_leak(html, knowledge, seat.position, f"seat {seat.position} after a timeout")
    marked = [
        e for e in history_selectors.game_log(game, 1 - sleeper.position) if e.get("timed_out")
    ]
    assert marked and all("secret" not in event and "secret_to" not in event for event in marked)


def test_a_move_the_player_chose_in_time_still_reads_as_theirs(timed_game):
    game = timed_game
    seat = acting_seat(game)
    action = {"type": "place", "to": "auction"}
    assert action in play_selectors.board_for(game, Visitor.of(game, seat.user))["legal_actions"]
    services.submit_action(game.pk, seat.user, action, version=0, now=before_deadline(game))
    game.refresh_from_db()
    with translation.override("en"):
        assert newest_line(game, seat.user).startswith("You placed ")


CHOICES = [
    {"type": "placed", "seat": 0, "to": "self", "card": "monks-A"},
    {"type": "placed", "seat": 0, "to": "auction"},
    {"type": "placed", "seat": 0, "to": "public", "card": "monks-A"},
    {"type": "picked", "seat": 0, "card": "monks-A"},
    {"type": "church_used", "seat": 0, "card": "church-up1-1", "dice": ["monks"], "delta": 1},
    {"type": "church_unused", "seat": 0, "card": "church-up1-1"},
    {"type": "bid", "seat": 0, "amount": 3},
    {"type": "passed", "seat": 0},
    {"type": "paid", "seat": 0, "cards": ["gold-3-01"], "amount": 3},
    {"type": "gave", "seat": 0},
    {"type": "refused", "seat": 0, "amount": 3},
]


@pytest.mark.parametrize("language", sorted(TIME_RAN_OUT))
@pytest.mark.parametrize("event", CHOICES, ids=lambda event: f"{event['type']}-{event.get('to')}")
def test_every_kind_of_move_has_its_timed_out_words(event, language, timed_game):
    context = Context({"names": ["Ada", "Basil"], "game": timed_game})
    with translation.override(language):
        for me, who in ((0, ""), (1, "Ada")):
            context["me"] = me
            chosen = str(log_line(context, event))
            timed_out = str(log_line(context, {**event, "timed_out": True}))
            assert not chosen.startswith(TIME_RAN_OUT[language])
            assert timed_out.startswith(TIME_RAN_OUT[language]), timed_out
            assert who in timed_out


def test_the_replay_log_marks_the_timed_out_move_too(timed_game, django_user_model):
    """The replay viewer folds the move log itself (games/replay.py): the same mark. Staff may
    replay a game in progress, from the sleeper's seat."""
    game = timed_game
    sleeper = acting_seat(game)
    assert turns.play_due(now=after_deadline(game)) == 1
    game.refresh_from_db()
    staff = django_user_model.objects.create_user("moderator", is_staff=True)
    perspective, choices = replay.choose(game, Visitor.of(game, staff), f"seat-{sleeper.position}")
    steps = replay.replay_context(game, game.version, perspective, choices)["steps"]
    assert [step["step"] for step in steps if any(e.get("timed_out") for e in step["events"])] == [
        game.version
    ]
