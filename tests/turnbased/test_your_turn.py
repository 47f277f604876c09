"""Turn-based games played a move a day, and the "Your turn" list and count that tell each
player where they are awaited.

Time is injected (`now=`), so a game of moves days apart runs in a moment; the list is checked
against the engine itself (`waiting_on`) after every move.
"""

import importlib
import random
import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.urls import reverse

from accounts.models import ApiToken
from games.access import Visitor
from games.kinds import registry
from games.models import Game, Move, Seat
from games.moderation import services as moderation
from games.moderation import services as moderation_services
from games.play import selectors, turns
from games.play import services as play_services
from tests.api.conftest import ApiClient
from tests.play import started_game
from tests.turnbased.helpers import assert_lists_follow_the_engine, browser, nav_count, waiting_on
from tests.turns.helpers import acting_seat, after_deadline

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def move(game: Game, rng: random.Random, now) -> None:
    """The player the engine waits on plays a random legal move of their own view at `now`."""
    seat = acting_seat(game)
    board = selectors.board_for(game, Visitor.of(game, seat.user))
    action = rng.choice(board["legal_actions"])
    play_services.submit_action(game.pk, seat.user, action, version=game.version, now=now)


def test_a_24_hour_game_of_moves_days_apart_finishes_with_the_lists_right_throughout(people):
    ada, basil, clio = people[:3]
    game = started_game([ada, basil], 2, seed=19, turn_seconds=86400)
    assert (game.due_at - game.started_at) == DAY
    assert_lists_follow_the_engine(game, others=[clio])
    first = waiting_on(game)
    assert len(first) == 1
    assert [nav_count(ada), nav_count(basil), nav_count(clio)] == [
        int(ada in first),
        int(basil in first),
        0,
    ]
    rng = random.Random(19)
    now = game.started_at
    for step in range(2000):
        if game.status != Game.Status.ACTIVE:
            break
        # Each player takes the better part of a day over each move, never the whole day.
        now += timedelta(hours=rng.randint(2, 23))
        move(game, rng, now)
        game.refresh_from_db()
        assert game.status != Game.Status.ACTIVE or game.due_at == now + DAY
        assert_lists_follow_the_engine(game, others=[clio])
        if step < 4:  # the pages as well as the lists, a few times
            assert [nav_count(ada), nav_count(basil)] == [
                int(ada in waiting_on(game)),
                int(basil in waiting_on(game)),
            ]
    assert game.status == Game.Status.FINISHED and game.result["winners"]
    assert now - game.started_at > 7 * DAY, "the moves were not days apart"
    assert not game.moves.exclude(played_by=Move.PlayedBy.PLAYER).exists()
    assert not Seat.objects.filter(on_turn=True).exists()
    assert [nav_count(ada), nav_count(basil)] == [0, 0]
    assert moderation.check_integrity(game).problem == ""


def test_a_day_out_of_time_gets_the_stand_in_move_and_the_third_hands_the_seat_over(people):
    ada, basil = people[:2]
    game = started_game([ada, basil], 2, seed=7, turn_seconds=86400)
    sleeper = acting_seat(game).user
    rng = random.Random(7)
    now = game.started_at
    timeouts = 0
    while timeouts < play_services.TIMEOUTS_BEFORE_TAKEOVER:
        seat = acting_seat(game)
        if seat.user == sleeper:
            assert turns.play_due(now=after_deadline(game, -1)) == 0, "a day is not over yet"
            now = after_deadline(game)
            assert turns.play_due(now=now) == 1
            timeouts += 1
            last = game.moves.order_by("seq").last()
            assert (last.seat, last.played_by) == (seat.position, Move.PlayedBy.TIMEOUT)
        else:
            now += timedelta(hours=20)
            move(game, rng, now)
        assert_lists_follow_the_engine(game)
    mine = game.seats.get(user=sleeper)
    assert mine.bot_level == "scholar" and mine.taken_over
    # The bot plays the seat: the sleeper is never awaited, even on their seat's turn.
    while acting_seat(game).user != sleeper:
        now += timedelta(hours=20)
        move(game, rng, now)
    assert selectors.your_turn_count(sleeper) == 0 and mine.position in _to_act(game)
    play_services.take_seat_back(game.pk, sleeper, now=now)
    assert [g.pk for g in selectors.your_turn_games(sleeper)] == [game.pk]
    assert_lists_follow_the_engine(game)
    play_services.leave_game(game.pk, sleeper, now=now)
    assert selectors.your_turn_count(sleeper) == 0


def _to_act(game: Game) -> list:
    game.refresh_from_db()
    return registry.of(game).engine.to_act(game.engine_state())


def _waiting_for(user, games: list[Game], rng: random.Random) -> None:
    """Play moves in each of `games` until each one waits on `user`."""
    for game in games:
        while acting_seat(game).user != user:
            move(game, rng, None)


def test_the_list_puts_the_least_time_left_first_and_untimed_games_last(people):
    ada, basil, clio, dora = people
    rng = random.Random(3)
    untimed = started_game([ada, basil], 2, seed=1)
    three_days = started_game([ada, clio], 2, seed=2, turn_seconds=259200)
    half_day = started_game([dora, ada], 2, seed=3, turn_seconds=43200)
    _waiting_for(ada, [untimed, three_days, half_day], rng)
    listed = [game.pk for game in selectors.your_turn_games(ada)]
    assert listed == [half_day.pk, three_days.pk, untimed.pk]
    assert selectors.your_turn_count(ada) == nav_count(ada) == 3

    page = browser(ada).get(reverse("your_turn"))
    assert page.status_code == 200
    html = page.content.decode()
    rows = re.findall(r'<li data-game="(\d+)">(.*?)</li>', html, re.S)
    assert [int(pk) for pk, _ in rows] == listed
    texts = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", text)).strip() for _, text in rows]
    assert re.fullmatch(
        r"Game \d+ · Biblios · against Reader 3 · (11 h 59|12 h 0) min left", texts[0]
    )
    assert "against Reader 2" in texts[1] and re.search(r"· (71 h 59|72 h 0) min left$", texts[1])
    assert texts[2].endswith("against Reader 1 · No timer")
    next_link = re.search(
        r'<p class="your-turn-next"><a href="([^"]+)">Next game waiting for me', html
    )
    assert next_link and next_link.group(1) == reverse("game", args=[half_day.pk])

    answer = ApiClient(ApiToken.issue(ada, "tests")[1]).get("/api/games/your-turn").data
    assert answer["count"] == 3 and [game["id"] for game in answer["games"]] == listed
    first = answer["games"][0]
    assert (first["kind"], first["seat"], first["opponents"]) == ("biblios", 1, ["Reader 3"])
    assert (
        first["turn_seconds"] == 43200
        and first["version"] == Game.objects.get(pk=half_day.pk).version
    )
    assert first["turn_deadline"] == Game.objects.get(pk=half_day.pk).due_at.isoformat()
    assert answer["games"][2]["turn_deadline"] is None


def test_the_list_is_empty_for_a_stranger_and_closed_to_visitors(people, client):
    started_game(people[:2], 2, seed=4, turn_seconds=86400)
    page = browser(people[3]).get(reverse("your_turn")).content.decode()
    assert "No game is waiting for your move." in page and "Next game waiting" not in page
    answer = client.get(reverse("your_turn"))
    assert answer.status_code == 302 and reverse("accounts:login") in answer["Location"]
    assert 'class="your-turn-link"' not in client.get(reverse("rules")).content.decode()


def test_a_game_page_leads_to_the_next_game_waiting_when_it_is_not_your_turn_there(people):
    ada, basil, clio = people[:3]
    rng = random.Random(5)
    here = started_game([ada, basil], 2, seed=5, turn_seconds=86400)
    elsewhere = started_game([clio, ada], 2, seed=6, turn_seconds=43200)
    _waiting_for(ada, [elsewhere], rng)
    _waiting_for(basil, [here], rng)
    link = re.compile(
        r'<p class="next-waiting"><a href="([^"]+)">Next game waiting for you \((\d+)\)'
    )
    page = browser(ada).get(reverse("game", args=[here.pk])).content.decode()
    assert link.search(page).groups() == (reverse("game", args=[elsewhere.pk]), "1")
    # On the game that waits on her, and for the one whose turn it is here: nothing to lead to.
    assert not link.search(browser(ada).get(reverse("game", args=[elsewhere.pk])).content.decode())
    assert not link.search(browser(basil).get(reverse("game", args=[here.pk])).content.decode())
    # Once she has played her turn there, no game waits on her: no link.
    while ada in waiting_on(elsewhere):
        move(elsewhere, rng, None)
    assert not link.search(browser(ada).get(reverse("game", args=[here.pk])).content.decode())


def test_a_live_game_does_not_lead_its_players_away(people):
    """Between two moves of a live game (a minute a move), its players get no link to the
    turn-based games waiting on them; the same wait in a turn-based game shows it."""
    ada, basil, clio = people[:3]
    rng = random.Random(7)
    live = started_game([ada, basil], 2, seed=12, turn_seconds=60)
    slow = started_game([ada, basil], 2, seed=14, turn_seconds=86400)
    elsewhere = started_game([clio, ada], 2, seed=13, turn_seconds=86400)
    _waiting_for(ada, [elsewhere], rng)
    _waiting_for(basil, [live, slow], rng)
    assert "Next game waiting for you" not in page_of(ada, live)
    assert "Next game waiting for you (1)" in page_of(ada, slow)


def page_of(user, game: Game) -> str:
    return browser(user).get(reverse("game", args=[game.pk])).content.decode()


def test_an_aborted_game_leaves_every_list(people, admin_user):
    game = started_game(people[:2], 2, seed=8, turn_seconds=86400)
    assert sum(selectors.your_turn_count(user) for user in people[:2]) == 1
    moderation_services.abort_game(game.pk, admin_user, "test")
    assert sum(selectors.your_turn_count(user) for user in people[:2]) == 0
    assert not Seat.objects.filter(on_turn=True).exists()


def test_the_migration_marks_the_seats_of_games_already_in_progress(people, admin_user):
    """Games started before `Seat.on_turn` existed are marked from their stored state."""
    timed = started_game(people[:2], 2, seed=9, turn_seconds=86400)
    untimed = started_game(people[2:], 2, seed=10)
    aborted = started_game(people[:2], 2, seed=11)
    moderation_services.abort_game(aborted.pk, admin_user, "test")
    marked = set(Seat.objects.filter(on_turn=True).values_list("pk", flat=True))
    assert len(marked) == 2
    Seat.objects.update(on_turn=False)
    migration = importlib.import_module("games.migrations.0008_seat_on_turn")
    migration.mark_seats_on_turn(apps, None)
    assert set(Seat.objects.filter(on_turn=True).values_list("pk", flat=True)) == marked
    assert_lists_follow_the_engine(timed)
    assert_lists_follow_the_engine(untimed)
