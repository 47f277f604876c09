"""Standing orders through every door: the turn worker's moves set them off, the JSON API and
the board's form give and cancel them, and nobody but their player ever reads one (an order
tells its player's intent)."""

import random

import pytest
from django.urls import reverse

from accounts.models import ApiToken
from games.access import Visitor
from games.models import Game, Move, StandingOrder
from games.play import rendering, services, turns
from notifications import texts
from notifications.models import Notification
from tests.api.conftest import ApiClient
from tests.orders.helpers import DAY, acting, board, play, to_a_fresh_auction, turn_based_game
from tests.play import make_users, seated_users
from tests.turnbased.helpers import browser
from tests.turns.helpers import bot_table

pytestmark = pytest.mark.django_db

WORDS_3 = "Bid up to 3 for this card, else pass"


def test_pass_this_round_answers_the_turn_workers_bots_until_the_round_ends(django_user_model):
    """R9: at a 24-hour table against a bot, the order passes every time the worker's bot move
    asks its player, and switches off (telling them) when the next round's first card comes."""
    (person,) = make_users(django_user_model, "solo", count=1)
    game = bot_table(person, ["novice"], turn_seconds=DAY, seed=21)
    rng = random.Random(2)
    while (view := board(game, person))["phase"] != "auction":
        if acting(game) == 0:
            play(game, person, rng.choice(view["legal_actions"]))
        else:
            assert turns.play_due() == 1
    order = services.give_order(game.pk, person, "pass_round", {}, version=view["version"])
    for _ in range(200):
        order.refresh_from_db()
        if order.ended_at is not None:
            break
        assert acting(game) == 1, "the order answers for its player"
        assert turns.play_due() == 1
    assert order.end_reason in ("round_over", "auctions_over")
    moves = list(game.moves.filter(played_by=Move.PlayedBy.ORDER).values_list("seat", "action"))
    assert moves and set(map(str, moves)) == {str((0, {"type": "pass"}))}
    assert order.plays == len(moves)
    told = Notification.objects.filter(recipient=person, event="order_stopped").count()
    assert told == (order.end_reason == "round_over")


@pytest.fixture
def auction(django_user_model):
    """A 24-hour table of three at a fresh auction; (game, view, users by seat, holder seat)."""
    users = make_users(django_user_model, "api", count=4)
    game = turn_based_game(users)
    view = to_a_fresh_auction(game, random.Random(3))
    return game, view, seated_users(game), (view["seat"] + 1) % 3, users[3]


def test_the_api_gives_reads_and_cancels_the_callers_own_orders(auction, make_player):
    game, view, users, holder, _ = auction
    _, raw = ApiToken.issue(users[holder], "tests")
    api = ApiClient(raw, users[holder])
    path = f"/api/games/{game.pk}/orders"

    listed = api.get(path)
    assert listed.status_code == 200 and listed.data["offered"] is True
    assert {k["kind"] for k in listed.data["kinds"]} == {"bid_up_to", "pass_round"}
    assert listed.data["orders"] == []

    stale = api.post(path, {"version": view["version"] - 1, "kind": "bid_up_to"})
    assert stale.status_code == 409 and stale.data["version"] == view["version"]
    bad = api.post(path, {"version": view["version"], "kind": "bid_up_to", "params": {"limit": -2}})
    assert bad.status_code == 400
    unknown = api.post(path, {"version": view["version"], "kind": "bid_up_to", "limit": 3})
    assert unknown.status_code == 400
    extra = {"version": view["version"], "kind": "pass_round", "params": {"limit": 3}}
    assert api.post(path, extra).data["error"] == "this order takes no limit"
    assert not StandingOrder.objects.exists()

    given = api.post(
        path, {"version": view["version"], "kind": "bid_up_to", "params": {"limit": 3}}
    )
    assert given.status_code == 201, given.data
    (order,) = given.data["orders"]
    assert (
        order["active"] and order["words"].startswith(WORDS_3) and "more than 3" in order["words"]
    )

    stranger = ApiClient(ApiToken.issue(make_player("nosy").user, "tests")[1])
    assert stranger.get(path).status_code == 403
    assert stranger.call("DELETE", path).status_code == 403

    cancelled = api.call("DELETE", path)
    assert cancelled.status_code == 200 and cancelled.data["orders"][0]["end_reason"] == "cancelled"
    assert api.call("DELETE", path).status_code == 409


def test_the_board_form_gives_an_order_with_htmx_and_plain_post(auction):
    game, view, users, holder, _ = auction
    client = browser(users[holder])
    url = reverse("game_orders", args=[game.pk])
    data = {"version": view["version"], "kind": "bid_up_to", "limit": "3"}
    answer = client.post(url, data, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert "Your standing order is given." in answer.content.decode()
    assert WORDS_3 in answer.content.decode()
    refused = client.post(url, {**data, "limit": "x"}, headers={"HX-Request": "true"})
    assert refused.status_code == 400 and "at least 1" in refused.content.decode()
    plain = client.post(url, {"cancel": "1"})
    assert plain.status_code == 302
    assert StandingOrder.objects.get().end_reason == "cancelled"


def test_nobody_but_its_player_reads_an_order(auction):
    """An order reveals intent: the other players' boards (page, push, API), a spectator's and
    the notification's texts carry none of it, even once it switched off."""
    game, view, users, holder, stranger = auction
    services.give_order(game.pk, users[holder], "bid_up_to", {"limit": 3}, version=view["version"])
    others = [user for seat, user in users.items() if seat != holder]

    def readers_html():
        game.refresh_from_db()
        for user in [*others, stranger]:
            page = browser(user).get(reverse("game", args=[game.pk])).content.decode()
            push = rendering.board_html(game, Visitor.of(game, user), oob=True)
            yield user, page + push

    assert WORDS_3 in browser(users[holder]).get(reverse("game", args=[game.pk])).content.decode()
    for user, html in readers_html():
        assert WORDS_3 not in html and "Your order:" not in html, user
    # Switched off by a bid of 4: still the holder's alone.
    play(game, users[view["seat"]], {"type": "bid", "amount": 1})
    play(game, users[(holder + 1) % 3], {"type": "bid", "amount": 4})
    assert StandingOrder.objects.get().end_reason == "outbid"
    for user, html in readers_html():
        assert "more than 3" not in html and WORDS_3 not in html, user
    notice = Notification.objects.get(event="order_stopped")
    text = texts.render(notice)
    told = (text.title + text.body).replace(str(game.pk), "")  # the game's number may hold a 3
    assert notice.recipient == users[holder] and "3" not in told
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
