"""No page, partial or live fragment shows a seat (or a spectator) a card it may not know.

Random games are played through the service; after every move each seat's and a spectator's
live fragment (every board region) is checked against `Knowledge`, an account of what each
seat has been entitled to see built from the raw engine state, not from `view`. Full pages,
the board partial and the log page are checked every few moves and at the end. The checks
have teeth: every card a seat holds must appear in its board by id.
"""

import random

import pytest

from games.access import Visitor
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import KIND
from games.kinds.biblios.templatetags.biblios_cards import card_name
from games.models import Game
from games.play import rendering
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
