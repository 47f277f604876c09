"""A game the platform has never heard of, on the site: High card (tests/kinds/toy/), installed
for these tests only, is opened through the API, played to the end through the API and through
its board page, stored with its result, rated, and replayed, with nothing of it in the
platform's code. That proves the next game is a new folder.

Every page and every API answer on the way is checked against what its reader may know: a
seat its own hand and face-down card, everyone the tricks turned up, nobody the stock.
"""

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games import access
from games.models import Game
from games.play import rendering, turns
from ratings.models import Rating
from tests.web.helpers import action_forms

from .conftest import TOY

pytestmark = pytest.mark.django_db

CARD = re.compile(r"\bc[1-9]\b")  # a High card card id, anywhere in a page


class Visitor:
    """One user with a browser (logged in) and an API token."""

    def __init__(self, user):
        self.user = user
        self.browser = Client()
        self.browser.force_login(user)
        _, token = ApiToken.issue(user, "tests")
        self.api = Client(headers={"Authorization": f"Bearer {token}"})

    def get(self, path: str) -> dict:
        response = self.api.get(path)
        assert response.status_code == 200, response.content[:300]
        return response.json()

    def post(self, path: str, body=None, status: int = 200) -> dict:
        data = "" if body is None else json.dumps(body)
        response = self.api.post(path, data, content_type="application/json")
        assert response.status_code == status, response.content[:300]
        return response.json()

    def page(self, path: str) -> str:
        response = self.browser.get(path)
        assert response.status_code == 200, (path, response.status_code)
        return response.content.decode()


@pytest.fixture
def visitors(django_user_model, toy_on_the_site):
    """Two players and a spectator, the toy installed."""
    return [
        Visitor(django_user_model.objects.create_user(f"toy{i}", display_name=f"Toy {i}"))
        for i in range(3)
    ]


def started(host: Visitor, guest: Visitor, **table) -> Game:
    """A two-seat Low card table opened by `host` through the API, joined and started."""
    settings = {"kind": "toy", "variant": "low", "num_players": 2, **table}
    opened = host.post("/api/tables", settings, status=201)
    assert (opened["kind"], opened["variant"]) == ("toy", "low")
    assert f"/games/{opened['id']}/" in guest.page("/"), "the lobby lists the table"
    guest.post(f"/api/tables/{opened['id']}/join")
    host.post(f"/api/tables/{opened['id']}/start")
    return Game.objects.get(pk=opened["id"])


def play_by_api(game: Game, players: list[Visitor]) -> None:
    """Each seat to act plays its first legal card through the API, to the end."""
    by_seat = {player.get(f"/api/games/{game.pk}")["seat"]: player for player in players}
    while game.status == Game.Status.ACTIVE:
        player = by_seat[TOY.engine.to_act(game.engine_state())[0]]
        view = player.get(f"/api/games/{game.pk}")["view"]
        move = {"version": view["version"], "action": view["legal_actions"][0]}
        assert player.post(f"/api/games/{game.pk}/actions", move)["version"] == move["version"] + 1
        game.refresh_from_db()


def may_know(state, seat) -> set[str]:
    """The cards `seat` (None: a spectator) may know, from the raw state, independently of
    `view`: the tricks turned up, and a seat's own hand and face-down card."""
    known = {card for trick in state.tricks for _, card in trick["cards"]}
    if seat is not None:
        known |= set(state.hands[seat])
        known |= {card for player, card in state.trick if player == seat}
    return known


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


def assert_nothing_hidden_shown(game, seat, text: str, where: str) -> None:
    shown = cards_in(text) - may_know(game.engine_state(), seat)
    assert not shown, f"{where} shows {sorted(shown)}, hidden from seat {seat}"


def test_a_toy_game_is_opened_played_stored_and_replayed(visitors):
    """The host plays through the API, the guest through the board page's plain forms, a
    spectator watches; at every step each of them sees the toy's board (page, live update and
    API) and no card hidden from them. The finished game's result is the engine's; its record
    and every step of its replay, from each perspective, render."""
    host, guest, spectator = visitors
    game = started(host, guest, options={"last_trick_double": True})
    assert (game.kind, game.variant, game.options) == ("toy", "low", {"last_trick_double": True})
    seat_of = {v.user.pk: v.get(f"/api/games/{game.pk}")["seat"] for v in (host, guest)}
    page = f"/games/{game.pk}/"

    while game.status == Game.Status.ACTIVE:
        state = game.engine_state()
        for viewer in visitors:
            seat = seat_of.get(viewer.user.pk)
            html = viewer.page(page)
            assert 'class="board toy-board"' in html
            assert_nothing_hidden_shown(game, seat, html, f"seat {seat}'s page")
            seen_by = access.Visitor.of(game, viewer.user)
            pushed = rendering.board_html(game, seen_by, oob=True)  # a socket's update
            assert "hx-swap-oob" in pushed and 'class="board toy-board"' in pushed
            assert_nothing_hidden_shown(game, seat, pushed, f"seat {seat}'s live update")
            board = viewer.get(f"/api/games/{game.pk}")
            assert_nothing_hidden_shown(game, seat, json.dumps(board), f"seat {seat}'s API board")
            if seat is not None:
                assert set(board["view"]["hand"]) == set(state.hands[seat])
                assert cards_in(html) >= set(state.hands[seat])
        seat = TOY.engine.to_act(state)[0]
        if seat == seat_of[host.user.pk]:
            view = host.get(f"/api/games/{game.pk}")["view"]
            played = host.post(
                f"/api/games/{game.pk}/actions",
                {"version": view["version"], "action": view["legal_actions"][0]},
            )
            assert played["version"] == view["version"] + 1
        else:
            forms = action_forms(guest.page(page))
            assert [form.data()["card"] for form in forms] == [
                [action["card"]] for action in TOY.engine.legal_actions(state, seat)
            ]
            response = guest.browser.post(forms[-1].action, forms[-1].data(), follow=True)
            assert response.status_code == 200
            assert 'role="alert"' not in response.content.decode()
        game.refresh_from_db()

    final = game.engine_state()
    assert game.status == Game.Status.FINISHED
    assert game.result == TOY.engine.result(final)
    assert spectator.get(f"/api/games/{game.pk}")["view"]["result"] == game.result

    moves = list(game.moves.order_by("seq").values_list("seat", "action"))
    assert len(moves) == 6
    record = spectator.get(f"/api/games/{game.pk}/record")
    assert record["setup"] == TOY.engine.public_setup(game.setup)
    assert [[move["seat"], move["action"]] for move in record["moves"]] == [
        [seat, action] for seat, action in moves
    ]
    assert record["result"] == game.result

    replay = f"/games/{game.pk}/replay/"
    for step in range(len(moves) + 1):
        for viewer, perspective in ((spectator, "open"), (host, "mine"), (guest, "mine")):
            html = viewer.page(f"{replay}?as={perspective}&move={step}")
            assert f'data-step="{step}"' in html and "toy-trick" in html
            assert not cards_in(html) & set(final.stock), "the stock is never shown"


def test_a_toy_table_is_opened_from_the_lobby_form(visitors):
    """The lobby's form offers the toy and draws its options form; what it posts opens a toy
    table with those options, as the API does."""
    host = visitors[0]
    assert 'data-kind="toy"' in host.page("/")
    posted = {
        "kind": "toy",
        "variant": "high",
        "num_players": "2",
        "spectators_allowed": "on",
        "toy-last_trick_double": "on",
    }
    response = host.browser.post(reverse("table_create"), posted)
    assert response.status_code == 302, response.content.decode()[-2000:]
    game = Game.objects.get(host=host.user)
    assert (game.kind, game.variant, game.options) == ("toy", "high", {"last_trick_double": True})


def test_a_finished_toy_game_is_wherever_a_game_is(visitors, django_user_model):
    """Rated in its own (kind, variant), on the leaderboard and the players' histories, with
    its log and rules pages, and in the staff's inspector with every card."""
    host, guest, spectator = visitors
    game = started(host, guest)
    play_by_api(game, [host, guest])
    assert game.rated
    rated = Rating.objects.filter(kind="toy", variant="low")
    assert set(rated.values_list("user", flat=True)) == {host.user.pk, guest.user.pk}

    board = spectator.page(f"{reverse('ratings:leaderboard')}?kind=toy&variant=low")
    assert "Toy 0" in board and "Toy 1" in board
    assert f"/games/{game.pk}/" in host.page(reverse("my_games"))
    assert f"/games/{game.pk}/" in spectator.page(reverse("player_games", args=["toy1"]))
    assert "Game over" in spectator.page(reverse("game_log", args=[game.pk]))
    assert "Rules of Low card" in spectator.page(reverse("rules", args=["toy", "low"]))

    staff = django_user_model.objects.create_user("warden", is_staff=True, is_superuser=True)
    inspector = Client()
    inspector.force_login(staff)
    for step in range(game.moves.count() + 1):
        response = inspector.get(f"/admin/games/game/{game.pk}/inspect/?move={step}")
        assert response.status_code == 200
        assert "Stock:" in response.content.decode()


def test_the_toys_bot_plays_a_seat_of_a_rated_table(visitors):
    """The turn worker plays the toy's bot seat; the finished table is rated, the bot a
    yardstick as on every rated table with a bot."""
    host = visitors[0]
    table = {"kind": "toy", "variant": "high", "num_players": 2, "bots": ["random"], "rated": True}
    opened = host.post("/api/tables", table, status=201)
    assert opened["status"] == Game.Status.ACTIVE, "its other seat a bot's: started at once"
    game = Game.objects.get(pk=opened["id"])
    while game.status == Game.Status.ACTIVE:
        if TOY.engine.to_act(game.engine_state()) == [0]:
            view = host.get(f"/api/games/{game.pk}")["view"]
            move = {"version": view["version"], "action": view["legal_actions"][0]}
            host.post(f"/api/games/{game.pk}/actions", move)
        else:
            assert turns.play_turn(game.pk, now=game.due_at + timedelta(seconds=1))
        game.refresh_from_db()
    assert Rating.objects.filter(user=host.user, kind="toy", variant="high").exists()


def test_the_stand_in_plays_a_timed_out_toy_seat(visitors):
    """A seat whose time ran out is played by the kind's stand-in, through the turn worker."""
    host, guest, _ = visitors
    game = started(host, guest, turn_seconds=30)
    for version in range(1, 7):
        game.refresh_from_db()
        played = turns.play_turn(game.pk, now=game.due_at + timedelta(seconds=1))
        assert played is not None and played.version == version
    assert played.status == Game.Status.FINISHED


def test_the_game_page_links_only_to_regions_the_toys_board_has(visitors):
    """The page's own links into the board (the skip link to one's move) lead somewhere on a
    toy board too: the registry names the partials a board has, not Biblios' region ids."""
    host, guest, _ = visitors
    game = started(host, guest)
    html = host.page(f"/games/{game.pk}/")
    targets = set(re.findall(r'href="#([\w-]+)"', html))
    assert targets <= set(re.findall(r'id="([\w-]+)"', html)), "a link to a region not there"


def test_a_player_who_leaves_a_toy_game_is_told_of_the_toys_stand_in(visitors):
    """Who plays a seat its player left is the kind's stand-in (the toy's Random bot), and
    every message about it names that bot, not Biblios' Scholar."""
    host, guest, _ = visitors
    game = started(host, guest)
    left = host.browser.post(reverse("game_leave_game", args=[game.pk]), follow=True)
    html = left.content.decode()
    assert left.status_code == 200 and "Random bot" in html
    assert "Scholar" not in html
