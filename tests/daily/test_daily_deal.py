"""The daily deal: one deal per game and day, played once by each player, alone against the
bots; its standings and its other games show to a player only once their own game of it is
over; starting counts as playing; and its cards reach nobody else before (docs/daily.md)."""

import random
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from games.access import Visitor
from games.daily import services
from games.kinds import registry
from games.models import DailyDeal, Game
from games.play import selectors as play_selectors
from games.play import services as play_services
from games.play.turns import bot_rng
from tests.play import choose_quickly, make_users

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model):
    return make_users(django_user_model, "daily", 3)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def finish(game: Game, rng: random.Random) -> Game:
    """Play the host's moves through the service and the bot's as the turn worker would, each
    a quick random legal move, to the end."""
    engine = registry.of(game).engine
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        seat = engine.to_act(game.engine_state())[0]
        if seat == 0:
            board = play_selectors.board_for(game, Visitor.of(game, game.host))
            action = choose_quickly(board, rng)
            play_services.submit_action(game.pk, game.host, action, version=board["version"])
        else:
            view = engine.view(game.engine_state(), seat)
            play_services.play_due_turn(
                game.pk, choose_quickly(view, rng), version=game.version, now=game.due_at
            )


def test_a_player_plays_the_days_deal_once_against_the_bots(users):
    me = logged_in(users[0])
    stale = me.post(reverse("daily_play", args=["biblios"]), {"day": "2000-01-01"}, follow=True)
    assert (
        "That day&#x27;s deal is over" in stale.content.decode()
        or "That day's deal is over" in stale.content.decode()
    )
    assert not Game.objects.exists()  # a page left open past midnight starts nothing
    answer = me.post(reverse("daily_play", args=["biblios"]), {"day": services.today().isoformat()})
    game = Game.objects.get(host=users[0])
    assert answer.status_code == 302 and answer["Location"] == reverse("game", args=[game.pk])
    deal = DailyDeal.objects.get(kind="biblios", day=services.today())
    assert game.daily_deal == deal and game.seed == deal.seed
    assert game.status == Game.Status.ACTIVE and game.private and not game.spectators_allowed
    assert not game.rated
    assert [seat.bot_level for seat in game.seats.order_by("position")] == ["", deal.bot_level]

    today = {"day": services.today().isoformat()}
    again = me.post(reverse("daily_play", args=["biblios"]), today, follow=True).content.decode()
    assert "you have already played today" in again.lower()
    assert Game.objects.filter(host=users[0]).count() == 1  # a second tab starts nothing
    with pytest.raises(IntegrityError), transaction.atomic():  # nor a door that skips the lock
        Game.objects.create(
            host=users[0], kind="biblios", variant="biblios", num_players=2, daily_deal=deal
        )
    page = me.get(reverse("daily")).content.decode()
    assert reverse("game", args=[game.pk]) in page and "1 player has played this deal." in page


def test_bad_requests_change_nothing(users):
    assert Client().post(reverse("daily_play", args=["biblios"])).status_code == 302
    assert not Game.objects.exists()  # anonymous: sent back with a message
    me = logged_in(users[0])
    today = {"day": services.today().isoformat()}
    page = me.post(reverse("daily_play", args=["chess"]), today, follow=True).content.decode()
    assert "There is no daily deal of that game." in page and not Game.objects.exists()
    assert me.get(reverse("daily_play", args=["biblios"])).status_code == 405


def test_the_days_scores_and_games_show_only_once_ones_own_game_is_over(users):
    first, second = users[0], users[1]
    mine = finish(services.play_daily(first, "biblios"), random.Random(1))
    assert mine.status == Game.Status.FINISHED
    end_board = logged_in(first).get(reverse("game", args=[mine.pk])).content.decode()
    assert f'href="{reverse("daily")}">See how everyone played this deal' in end_board
    reader = logged_in(second)
    replay = reverse("game_replay", args=[mine.pk])
    record = reverse("game_record", args=[mine.pk])

    page = reader.get(reverse("daily")).content.decode()
    assert "1 player has played this deal." in page and replay not in page
    assert first.display_name not in page
    assert reader.get(replay).status_code == 403 and reader.get(record).status_code == 403
    assert reader.get(reverse("game", args=[mine.pk])).status_code == 403

    theirs = services.play_daily(second, "biblios")
    assert theirs.seed == mine.seed  # the same deal
    assert reader.get(replay).status_code == 403  # playing is not enough: it must be over
    finish(theirs, random.Random(2))
    page = reader.get(reverse("daily")).content.decode()
    assert "Today&#x27;s standings" in page or "Today's standings" in page
    assert first.display_name in page and second.display_name in page and replay in page
    assert reader.get(replay).status_code == 200 and reader.get(record).status_code == 200
    # Nobody else reads it, not even with the table's invite link.
    stranger = logged_in(users[2])
    stranger.get(reverse("invite", args=[mine.invite_code]))
    assert stranger.get(replay).status_code == 403


def test_the_standings_rank_by_points_then_place_and_spread_the_scores():
    from games.daily.selectors import spread_of

    assert spread_of([5, 9, 5, 7]) == [(9, 1, 50), (7, 1, 50), (5, 2, 100)]
    assert spread_of([]) == []


def test_a_profile_shows_the_streak_and_hides_todays_deal_from_others(users):
    player = users[0]
    today = services.today()
    for days_ago in (0, 1, 3):
        deal = DailyDeal.objects.create(
            kind="biblios",
            day=today - timedelta(days=days_ago),
            variant="biblios",
            num_players=2,
            bot_level="abbot",
        )
        Game.objects.create(
            host=player, kind="biblios", variant="biblios", num_players=2, daily_deal=deal
        )
    own = logged_in(player).get(reverse("accounts:profile", args=[player.username]))
    assert "Streak: 2 days in a row." in own.content.decode()
    assert own.content.decode().count("daily-history") == 1
    seen = logged_in(users[1]).get(reverse("accounts:profile", args=[player.username]))
    text = seen.content.decode()
    assert "Streak: 2 days in a row." in text
    assert text.count("<tr><td>") == 2  # yesterday's and the day before's, not today's


def test_a_daily_games_bots_draw_from_the_deal(users):
    first = services.play_daily(users[0], "biblios")
    second = services.play_daily(users[1], "biblios")
    draws = [bot_rng(game).random() for game in (first, second)]
    assert draws[0] == draws[1]
    first.daily_deal = None
    assert bot_rng(first).random() != draws[0]
