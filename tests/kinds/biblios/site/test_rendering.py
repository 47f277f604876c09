"""The board's regions, the live fragments built for WebSocket pushes, and the action forms."""

import random

import pytest
from django.http import QueryDict

from games.access import Visitor
from games.kinds.biblios import engine as biblios
from games.kinds.biblios import presenter
from games.kinds.biblios.forms import parse_action
from games.models import Game
from games.play import rendering
from games.play import services as play_services
from games.tables import services as tables_services
from tests.play import started_game
from tests.web.helpers import action_forms, by_id, parse_tree

pytestmark = pytest.mark.django_db

# The board's regions, in the order a live message swaps them (biblios/board.html's `live` partial).
REGION_IDS = [
    "board-message",
    "board-banner",
    "board-dice",
    "board-players",
    "board-auction",
    "board-public",
    "board-hand",
    "board-my-auction-cards",
    "board-actions",
    "board-orders",
    "board-score",
    "board-log",
]


def test_live_fragment_swaps_every_region_by_id_and_can_replace_a_waiting_room(users):
    game = started_game(users, 3)
    html = rendering.board_html(game, Visitor.of(game, users[0]), oob=True)
    top = parse_tree(html).children
    assert top[0].attrs["id"] == "board"
    assert top[0].attrs["hx-swap-oob"] == "outerHTML:#board-waiting, #board"
    regions = top[1:]
    assert [node.attrs["id"] for node in regions] == REGION_IDS
    for node in regions:
        assert node.attrs["hx-swap-oob"] == "true"
        assert node.attrs["data-version"] == str(game.version)
    # The takeover #board holds every region, empty, for the swaps that follow to fill.
    inside = [node.attrs.get("id") for node in top[0].walk()]
    assert set(REGION_IDS) <= set(inside)
    assert "ws-connect" not in html


def test_page_board_keeps_the_socket_outside_every_swapped_region(users, clients):
    game = started_game(users, 2)
    html = clients[users[0].pk].get(f"/games/{game.pk}/").content.decode()
    root = parse_tree(html)
    sockets = [node for node in root.walk() if "ws-connect" in node.attrs]
    # The game's socket, beside the navigation's counts (`ws/me/`).
    (socket,) = [node for node in sockets if node.attrs["ws-connect"].startswith("/ws/games/")]
    assert {node.attrs["ws-connect"] for node in sockets} == {socket.attrs["ws-connect"], "/ws/me/"}
    assert socket.attrs["ws-connect"] == f"/ws/games/{game.pk}/"
    assert socket.attrs["hx-ext"] == "ws"
    swapped = {"board", "board-waiting", *REGION_IDS}
    assert not [node for node in socket.ancestors() if node.attrs.get("id") in swapped]
    (board,) = by_id(root, "board")
    assert socket in board.ancestors()
    assert board.attrs["data-version"] == str(game.version)
    assert "hx-swap-oob" not in html
    for region in REGION_IDS:
        assert len(by_id(root, region)) == 1


def test_waiting_room_is_pushed_as_its_own_region(users):
    game = tables_services.create_table(users[0], tables_services.TableSettings(2))
    html = rendering.board_html(game, Visitor.of(game, users[1]), oob=True)
    top = parse_tree(html).children
    assert [node.attrs["id"] for node in top] == ["board-waiting"]
    assert top[0].attrs["hx-swap-oob"] == "true"
    assert "Join this table" in html


def test_players_region_shows_presence_only_when_known(users):
    game = started_game(users, 3)
    html = rendering.players_html(game, Visitor.of(game, users[1]), connected={0, 1})
    root = parse_tree(html)
    (region,) = root.children
    assert region.attrs["id"] == "board-players"
    assert region.attrs["hx-swap-oob"] == "true"
    assert html.count(">connected<") == 2
    assert html.count(">not connected<") == 1
    assert "connected" not in rendering.board_html(game, Visitor.of(game, users[1]), oob=False)


def test_lobby_fragment_is_an_oob_swap_of_the_tables(users):
    game = tables_services.create_table(users[0], tables_services.TableSettings(2))
    html = rendering.lobby_html(users[1])
    (root,) = parse_tree(html).children
    assert root.attrs["id"] == "lobby-tables"
    assert root.attrs["hx-swap-oob"] == "true"
    assert f'action="/games/{game.pk}/join/"' in html


def test_spectator_board_has_no_hand_and_no_moves(users):
    game = started_game(users, 2)
    html = rendering.board_html(game, Visitor.of(game, users[4]), oob=False)
    assert "You are watching" in html
    assert not action_forms(html)
    assert "Waiting for" in html


def test_least_overpay_prefers_the_lowest_total_then_fewest_cards():
    assert presenter.least_overpay([["gold-1-01", "gold-2-01"], ["gold-3-01"]]) == ["gold-3-01"]
    assert presenter.least_overpay([["gold-2-01", "gold-2-02"], ["gold-3-01"]]) == ["gold-3-01"]
    assert presenter.least_overpay([["gold-3-01"], ["gold-1-01", "gold-1-02"]]) == [
        "gold-1-01",
        "gold-1-02",
    ]


def _submitted(form, **overrides) -> dict:
    query = QueryDict(mutable=True)
    for name, values in form.data(**overrides).items():
        query.setlist(name, values)
    return parse_action(query)


def _key(action: dict) -> str:
    return repr(sorted(action.items()))


def test_forms_offer_exactly_the_legal_actions_at_every_step(users):
    """A whole game: the actor's forms are the legal actions, bids as ranges (together every
    legal bid, once), pay pre-selected."""
    rng = random.Random(7)
    game = started_game(users, 3, options={"medieval_bluff": False})
    by_seat = {seat.position: seat.user for seat in game.seats.all()}
    steps_seen = set()
    while game.status == Game.Status.ACTIVE:
        state = game.engine_state()
        seat = biblios.to_act(state)[0]
        legal = biblios.legal_actions(state, seat)
        forms = action_forms(rendering.board_html(game, Visitor.of(game, by_seat[seat]), oob=False))
        offered = []
        for form in forms:
            assert form.fields[0] == ("version", str(game.version))
            if form.kind == "bid":  # one box, or the payable bids and the uncoverable ones
                (_name, value, low, high) = form.numbers[0]
                assert int(value) == low
                offered += [_submitted(form, amount=n) for n in range(low, high + 1)]
            elif form.kind == "pay":
                payments = [a["cards"] for a in legal if a["type"] == "pay"]
                gold = [c for c in state.hands[seat] if c.startswith("gold-")]
                assert sorted(value for _n, value, _c in form.checkboxes) == sorted(gold)
                chosen = _submitted(form)
                assert chosen["cards"] == presenter.least_overpay(payments)
                offered += [{"type": "pay", "cards": cards} for cards in payments]
            else:
                offered.append(_submitted(form))
        assert sorted(map(_key, offered)) == sorted(map(_key, legal)), state.step
        steps_seen.add(state.step)
        for other, user in by_seat.items():
            if other != seat and rng.random() < 0.2:
                assert not action_forms(
                    rendering.board_html(game, Visitor.of(game, user), oob=False)
                )
        action = rng.choice(legal)
        if action["type"] == "bid" and rng.random() < 0.6 and {"type": "pass"} in legal:
            action = {"type": "pass"}
        play_services.submit_action(game.pk, by_seat[seat], action, version=game.version)
        game.refresh_from_db()
    assert {"place", "pick", "church", "bid", "pay", "give"} <= steps_seen
