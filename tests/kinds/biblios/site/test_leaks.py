"""No page, partial or live fragment shows a seat (or a spectator) a card it may not know.

Random games are played through the service; after every move each seat's and a spectator's
live fragment (every board region) is checked against `Knowledge`, an account of what each
seat has been entitled to see built from the raw engine state, not from `view`. Full pages,
the board partial and the log page are checked every few moves and at the end. The checks
have teeth: every card a seat holds must appear in its board by id.
"""

import contextlib
import random
import re

import pytest
from django.utils.html import escape

from biblios_site import errors
from games.access import Visitor
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import KIND
from games.kinds.biblios.templatetags.biblios_cards import card_name
from games.models import Game, Move
from games.play import orders, rendering
from games.play import services as play_services
from games.tables import services as tables_services
from games.tournaments import services as tournament_services
from tests.play import started_game
from tests.tournaments.helpers import round_games, scheduled, started
from tests.web.helpers import Knowledge, assert_no_leak, card_ids_in

pytestmark = pytest.mark.django_db

PAGE_EVERY = 25
EVERYONE_EVERY = 10
SECRET_EVENTS = {"gave", "penalty_take", "penalty_discard"}


def assert_no_named_leak(html, knowledge, seat, edition, where):
    """Category cards have unique names (value and letter): none of a hidden one may show."""
    hidden = [card for card in knowledge.hidden(seat) if KIND[card] == "category"]
    shown = [card for card in hidden if card_name(card, edition) in html]
    assert not shown, f"{where} names cards seat {seat} may not know: {shown}"


def check(html, knowledge, seat, edition, where):
    assert_no_leak(html, knowledge, seat, where)
    assert_no_named_leak(html, knowledge, seat, edition, where)


def choose(legal, rng):
    """Random play that reaches penalties: refuses often, passes often."""
    kinds = {action["type"] for action in legal}
    if "refuse" in kinds and rng.random() < 0.35:
        return {"type": "refuse"}
    if "pass" in kinds and rng.random() < 0.55:
        return {"type": "pass"}
    return rng.choice(legal)


def looking(state, moves, num_players) -> list:
    """Whose boards to check after this move: everyone when a secret just moved (and every
    few moves); otherwise the seat to act, the spectator and one other seat in turn."""
    if (
        moves % EVERYONE_EVERY == 0
        or state.phase == "over"
        or any(event["type"] in SECRET_EVENTS and "secret" in event for event in state.events)
    ):
        return [*range(num_players), None]
    seats = {*biblios.to_act(state), moves % num_players, None}
    return sorted(seats, key=lambda seat: -1 if seat is None else seat)


@pytest.mark.parametrize(
    ("num_players", "table", "seed"),
    [
        (2, {"options": {"medieval_bluff": True}}, 11),
        (3, {}, 12),
        (4, {"variant": "scripts_and_scribes", "options": {"forbid_uncoverable_bids": True}}, 13),
    ],
    ids=["2p-bluff", "3p", "4p-s&s"],
)
def test_no_page_or_fragment_shows_a_hidden_card(users, clients, num_players, table, seed):
    rng = random.Random(seed)
    game = started_game(users, num_players, **table)
    spectator = users[4]
    by_seat = {seat.position: seat.user for seat in game.seats.all()}
    viewers = {**by_seat, None: spectator}
    browsers = {seat: clients[user.pk] for seat, user in viewers.items()}
    knowledge = Knowledge(num_players)
    events_seen = set()
    moves = 0
    while True:
        game.refresh_from_db()
        state = game.engine_state()
        knowledge.update(state)
        events_seen |= {event["type"] for event in state.events}
        for seat in looking(state, moves, num_players):
            user = viewers[seat]
            html = rendering.board_html(game, Visitor.of(game, user), oob=True)
            check(html, knowledge, seat, game.variant, f"live fragment v{game.version}")
            if seat is not None and state.phase != "over":
                # Teeth: the seat's own cards are on its board, by id.
                assert set(state.hands[seat]) <= card_ids_in(html)
                if state.drawing and state.active == seat:
                    assert f'data-card="{state.drawing}"' in html
            if moves % PAGE_EVERY == 0 or state.phase == "over":
                for url in ("", "log/"):
                    page = browsers[seat].get(f"/games/{game.pk}/{url}").content.decode()
                    check(page, knowledge, seat, game.variant, f"/{url} at v{game.version}")
        if state.phase == "over":
            break
        seat = biblios.to_act(state)[0]
        action = choose(biblios.legal_actions(state, seat), rng)
        play_services.submit_action(game.pk, by_seat[seat], action, version=game.version)
        moves += 1
    assert game.status == Game.Status.FINISHED
    # The games reached the secret-bearing moments the checks are about.
    assert {"placed", "drew", "took_own_card", "refused"} <= events_seen
    assert events_seen & {"penalty_take", "penalty_discard"}


def test_standing_orders_show_no_hidden_card_and_only_to_their_player(users, clients):
    """At a turn-based table where every player keeps a standing order (R9), the orders' moves
    and regions leak no card, and each order's words reach its own player's board only."""
    rng = random.Random(14)
    game = started_game(users, 3, seed=14, turn_seconds=24 * 3600)
    by_seat = {seat.position: seat.user for seat in game.seats.all()}
    viewers = {**by_seat, None: users[4]}
    knowledge = Knowledge(3)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        holding = set(game.standing_orders.filter(ended_at=None).values_list("seat", flat=True))
        for seat in set(by_seat) - holding:
            kind, params = rng.choice(
                [("bid_up_to", {"limit": rng.randint(1, 4)}), ("pass_round", {})]
            )
            with contextlib.suppress(errors.Conflict):  # not now: the kind says why
                play_services.give_order(game.pk, by_seat[seat], kind, params, version=game.version)
            game.refresh_from_db()  # an order given on its seat's turn plays at once
        log = list(game.moves.order_by("seq").values_list("seat", "action"))
        for step in biblios.steps(game.setup, log):  # every step the orders played, seen
            knowledge.update(step)
        for seat, user in viewers.items():
            html = rendering.board_html(game, Visitor.of(game, user), oob=True)
            check(html, knowledge, seat, game.variant, f"orders, live fragment v{game.version}")
            own = orders.seat_orders(game, seat) if seat is not None else []
            shown = re.findall(r"<strong>Your order:</strong> (.*?)</p>", html)
            assert shown == [escape(o["words"]) for o in own if o["active"]], (seat, shown)
            if game.version % PAGE_EVERY == 0:
                page = clients[user.pk].get(f"/games/{game.pk}/").content.decode()
                check(page, knowledge, seat, game.variant, f"orders, page v{game.version}")
        state = game.engine_state()
        if state.phase == "over":
            continue
        seat = biblios.to_act(state)[0]
        action = choose(biblios.legal_actions(state, seat), rng)
        play_services.submit_action(game.pk, by_seat[seat], action, version=game.version)
    played = game.moves.filter(played_by=Move.PlayedBy.ORDER)
    assert {m.action["type"] for m in played} == {"bid", "pass"}
    assert set(game.standing_orders.values_list("kind", flat=True)) == {"bid_up_to", "pass_round"}


def test_pages_without_a_board_show_no_cards(users, clients):
    game = tables_services.create_table(users[0], tables_services.TableSettings(2))
    tables_services.join_table(game.pk, users[1])
    started_game(users[2:], 2)
    tournament = running_tournament(users[:4])
    doors = [f"/tournaments/{tournament.pk}/", f"/tournaments/{tournament.pk}/live/"]
    for browser in (clients[users[0].pk], clients[users[4].pk], clients[None]):
        for url in ("/", f"/games/{game.pk}/", "/tournaments/", *doors):
            assert not card_ids_in(browser.get(url).content.decode())
    assert not card_ids_in(rendering.lobby_html(users[0]))


def running_tournament(players):
    """A Swiss tournament of `players` at tables of 2, its first round a few moves in."""
    staff = type(players[0]).objects.create_user("arbiter", password="x", is_staff=True)
    tournament = scheduled(staff, table_size=2, rounds=2)
    for player in players:
        tournament_services.register(tournament.pk, player)
    started(tournament)
    rng = random.Random(9)
    for table in round_games(tournament, 1):
        by_seat = {seat.position: seat.user for seat in table.seats.all()}
        for _ in range(6):
            table.refresh_from_db()
            seat = biblios.to_act(table.engine_state())[0]
            action = choose(biblios.legal_actions(table.engine_state(), seat), rng)
            play_services.submit_action(table.pk, by_seat[seat], action, version=table.version)
    return tournament
