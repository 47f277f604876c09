"""Standing orders at a turn-based Biblios table: they fire when their seat is asked, through the
service layer like any move, and switch themselves off on what their player did not foresee
(R9: bidding round the table, a pass final for the card; R10: whole-number bids)."""

import random
from datetime import timedelta

import pytest

from biblios_site import errors
from games.models import Move, StandingOrder
from games.play import services
from notifications.models import Notification
from tests.orders.helpers import acting, board, play, to_a_fresh_auction, turn_based_game
from tests.play import make_users, seated_users, started_game
from tests.turnbased.helpers import browser

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return make_users(django_user_model, "bidder", count=3)


def auction_seats(game, rng):
    """Fresh auction of a card that is not Gold: the first bidder, the order's holder (who bids
    second) and the auctioneer (who bids last), as (seat, user) pairs (R9)."""
    view = to_a_fresh_auction(game, rng)
    users = seated_users(game)
    first = view["seat"]
    holder, auctioneer = (first + 1) % 3, (first + 2) % 3
    assert view["auction"]["auctioneer"] == auctioneer
    return view, (first, users[first]), (holder, users[holder]), (auctioneer, users[auctioneer])


def page(game, user) -> str:
    return browser(user).get(f"/games/{game.pk}/").content.decode()


def log_page(game, user) -> str:
    return browser(user).get(f"/games/{game.pk}/log/").content.decode()


def give(game, user, kind: str, params: dict, version: int) -> StandingOrder:
    return services.give_order(game.pk, user, kind, params, version=version)


def order_moves(game):
    return list(game.moves.filter(played_by=Move.PlayedBy.ORDER).values_list("seat", "action"))


def test_bid_up_to_3_bids_for_its_player_and_switches_off_on_a_bid_of_4(people):
    """R9, R10: the issue's own case. The order raises by one when its seat is asked; another
    player's bid above 3 switches it off, and its player is told."""
    game = turn_based_game(people)
    view, (first, first_user), (holder, holder_user), (_, auctioneer_user) = auction_seats(
        game, random.Random(3)
    )
    order = give(game, holder_user, "bid_up_to", {"limit": "3"}, view["version"])
    assert order.ended_at is None and order.anchor == {"card": view["auction"]["card"]}

    play(game, first_user, {"type": "bid", "amount": 1})
    assert order_moves(game) == [(holder, {"type": "bid", "amount": 2})]
    assert acting(game) != holder  # the order answered at once: the auctioneer is asked

    play(game, auctioneer_user, {"type": "bid", "amount": 4})
    order.refresh_from_db()
    assert (order.end_reason, order.plays) == ("outbid", 1)
    assert len(order_moves(game)) == 1
    notice = Notification.objects.get(recipient=holder_user, event="order_stopped")
    assert notice.game_id == game.pk
    # Its first bidder passes; now it is the holder's own call, the order said why it stopped.
    play(game, first_user, {"type": "pass"})
    assert acting(game) == holder
    assert "someone bid more than 3" in page(game, holder_user)
    # Their own log says so too, and only theirs.
    told = "Your standing order ended: someone bid more than 3."
    assert told in log_page(game, holder_user)
    assert all(told not in log_page(game, other) for other in (first_user, auctioneer_user))
    assert not Notification.objects.filter(event="order_stopped").exclude(recipient=holder_user)


def test_bid_up_to_passes_once_the_bid_reaches_its_limit_and_tells_nobody(people):
    """R9: "else pass": at a bid of exactly its limit the order passes, final for the card."""
    game = turn_based_game(people)
    view, (_, first_user), (holder, holder_user), _ = auction_seats(game, random.Random(5))
    order = give(game, holder_user, "bid_up_to", {"limit": 3}, view["version"])
    play(game, first_user, {"type": "bid", "amount": 3})
    order.refresh_from_db()
    assert order_moves(game) == [(holder, {"type": "pass"})]
    assert (order.end_reason, order.plays) == ("done", 1)
    assert holder in board(game, holder_user)["auction"]["passed"]
    assert not Notification.objects.filter(event="order_stopped").exists()


def test_an_order_that_cannot_be_given_now_is_refused_and_changes_nothing(people):
    """The kind's own checks (R9): a bid already above the limit, a stale board, a live table."""
    game = turn_based_game(people)
    view, (_, first_user), (_, holder_user), _ = auction_seats(game, random.Random(7))
    play(game, first_user, {"type": "bid", "amount": 5})
    with pytest.raises(errors.Conflict, match="already 5, above 3"):
        give(game, holder_user, "bid_up_to", {"limit": 3}, view["version"] + 1)
    with pytest.raises(errors.StaleVersion):
        give(game, holder_user, "bid_up_to", {"limit": 9}, view["version"])
    with pytest.raises(errors.BadRequest, match="at least 1"):
        give(game, holder_user, "bid_up_to", {"limit": 0}, view["version"] + 1)
    with pytest.raises(errors.BadRequest):
        give(game, holder_user, "buy_everything", {}, view["version"] + 1)
    assert not StandingOrder.objects.exists()

    live = started_game(people, 3, seed=4)
    assert not live.turn_based
    with pytest.raises(errors.Conflict, match="turn-based"):
        services.give_order(live.pk, people[1], "pass_round", {}, version=live.version)


def test_a_new_order_replaces_the_old_and_a_cancelled_order_never_fires(people):
    game = turn_based_game(people)
    view, (_, first_user), (holder, holder_user), _ = auction_seats(game, random.Random(9))
    first = give(game, holder_user, "bid_up_to", {"limit": 2}, view["version"])
    second = give(game, holder_user, "bid_up_to", {"limit": 6}, view["version"])
    first.refresh_from_db()
    assert (first.end_reason, second.ended_at) == ("replaced", None)
    services.cancel_order(game.pk, holder_user)
    second.refresh_from_db()
    assert second.end_reason == "cancelled"
    with pytest.raises(errors.Conflict, match="no standing order"):
        services.cancel_order(game.pk, holder_user)
    play(game, first_user, {"type": "bid", "amount": 1})
    assert order_moves(game) == [] and acting(game) == holder


def test_leaving_the_game_ends_the_order_at_once_and_the_bot_plays_its_own_way(people):
    """A player who leaves hands their seat to the stand-in bot: their order ends then, not at
    the next move, and no move of theirs is played by it afterwards."""
    game = turn_based_game(people)
    view, (_, first_user), (holder, holder_user), _ = auction_seats(game, random.Random(9))
    order = give(game, holder_user, "bid_up_to", {"limit": 6}, view["version"])
    services.leave_game(game.pk, holder_user)
    order.refresh_from_db()
    assert order.end_reason == "left" and order.ended_version == view["version"]
    play(game, first_user, {"type": "bid", "amount": 1})
    assert order_moves(game) == []
    assert not Notification.objects.filter(event="order_stopped").exists()  # their own choice


def test_an_order_given_once_the_players_time_ran_out_is_refused(people):
    """The turn worker moves for a player whose time ran out; an order may not move first."""
    game = turn_based_game(people)
    view, (first, first_user), _, _ = auction_seats(game, random.Random(11))
    game.refresh_from_db()
    late = game.due_at + timedelta(seconds=1)
    with pytest.raises(errors.TimeUp):
        services.give_order(
            game.pk, first_user, "pass_round", {}, version=view["version"], now=late
        )
    assert not StandingOrder.objects.exists() and acting(game) == first
