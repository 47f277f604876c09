"""The bid box (biblios/bid_form.html): it offers what the bidder can pay, and bids above that,
where the table allows them, only apart and under a warning; each works as a plain POST."""

import random

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from games.access import Visitor
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import KIND, VALUE
from games.play import rendering, services
from tests.play import seated_users, started_game
from tests.web.helpers import action_forms

pytestmark = pytest.mark.django_db


def gold_value(state, seat) -> int:
    return sum(VALUE[card] for card in state.hands[seat] if KIND[card] == "gold")


def play_until_a_gold_bid(game, *, rng: random.Random):
    """Random legal moves (passing every auction) until someone holding Gold must bid Gold;
    their seat."""
    by_seat = seated_users(game)
    while True:
        game.refresh_from_db()
        state = game.engine_state()
        seat = biblios.to_act(state)[0]
        bidding_gold = state.step == "bid" and KIND[state.auction_card] != "gold"
        if bidding_gold and gold_value(state, seat):
            return seat
        legal = biblios.legal_actions(state, seat)
        passing = [action for action in legal if action["type"] == "pass"]
        action = passing[0] if passing else rng.choice(legal)
        services.submit_action(game.pk, by_seat[seat], action, version=game.version)


def bid_box(game, user) -> str:
    context = rendering.board_context(game, Visitor.of(game, user))
    return render_to_string("biblios/bid_form.html", context)


def test_the_bid_box_offers_what_you_can_pay_and_the_rest_apart_with_a_warning(users):
    game = started_game(users, 2, seed=5)
    seat = play_until_a_gold_bid(game, rng=random.Random(5))
    state = game.engine_state()
    user = seated_users(game)[seat]
    holding = gold_value(state, seat)
    amounts = [a["amount"] for a in biblios.legal_actions(state, seat) if a["type"] == "bid"]
    assert max(amounts) == 3 * len(state.hands[seat]) > holding  # the table-wide cap

    with translation.override("en"):
        html = bid_box(game, user)
    payable, uncoverable = action_forms(html)
    assert payable.numbers == [("amount", "1", 1, holding)]
    assert uncoverable.numbers == [("amount", str(holding + 1), holding + 1, max(amounts))]
    assert f"Your bid (1–{holding} Gold)" in html
    assert f"You hold {holding} Gold to pay with." in html
    assert f"a bid above {holding} cannot be paid" in html
    assert "each other player takes a random card from your hand" in html
    assert html.index("Warning:") < html.index('id="bid-amount-uncoverable"')
    for language in ("fr", "es"):
        with translation.override(language):
            translated = bid_box(game, user)
        assert "You hold" not in translated and "cannot be paid" not in translated

    # An uncoverable bid still goes through as a plain POST from its own form.
    browser = Client()
    browser.force_login(user)
    response = browser.post(uncoverable.action, uncoverable.data(amount=holding + 1))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.engine_state().high_bid == holding + 1


def test_medieval_bluff_tables_warn_of_their_own_penalty(users):
    game = started_game(users, 2, seed=5, options={"medieval_bluff": True})
    seat = play_until_a_gold_bid(game, rng=random.Random(5))
    with translation.override("en"):
        html = bid_box(game, seated_users(game)[seat])
    assert "the player on your left draws a random card from your hand" in html


def test_a_table_forbidding_uncoverable_bids_offers_one_box_and_no_warning(users):
    game = started_game(users, 2, seed=5, options={"forbid_uncoverable_bids": True})
    seat = play_until_a_gold_bid(game, rng=random.Random(5))
    state = game.engine_state()
    holding = gold_value(state, seat)
    with translation.override("en"):
        html = bid_box(game, seated_users(game)[seat])
    (payable,) = action_forms(html)
    assert payable.numbers == [("amount", "1", 1, holding)]
    assert "cannot be paid" not in html and "bid-uncoverable" not in html


def test_when_even_the_lowest_bid_is_beyond_you_only_the_warned_box_is_offered_open(users):
    game = started_game(users, 2, seed=5)
    seat = play_until_a_gold_bid(game, rng=random.Random(5))
    state = game.engine_state()
    top = max(a["amount"] for a in biblios.legal_actions(state, seat) if a["type"] == "bid")
    by_seat = seated_users(game)
    services.submit_action(
        game.pk, by_seat[seat], {"type": "bid", "amount": top}, version=game.version
    )
    game.refresh_from_db()
    state = game.engine_state()
    other = biblios.to_act(state)[0]
    assert other != seat and gold_value(state, other) <= top
    with translation.override("en"):
        html = bid_box(game, by_seat[other])
    (uncoverable,) = action_forms(html)
    assert uncoverable.numbers[0][1:3] == (str(top + 1), top + 1)
    assert '<details class="bid-uncoverable" open>' in html
