"""The regions a worker renders once and hands to several sockets (`rendering.live_board`):
every reader still receives exactly the board rendered for them alone, the public regions are
rendered once for every seat and spectator, a spectator's others once for all spectators, and
a seat's own regions are never handed to anyone else."""

import random
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from biblios_site.recent import Recent
from games.access import Visitor
from games.kinds import registry
from games.models import TURN_BASED_SECONDS, Game, StandingOrder
from games.play import live_regions, rendering, services
from tests.kinds.exlibris.site.helpers import open_table
from tests.play import seated_users

from .helpers import started_game

pytestmark = pytest.mark.django_db

CONNECTED = {0, 1, 2, 3}


@pytest.fixture
def readers(users, django_user_model):
    """Four players, then two spectators."""
    watcher = django_user_model.objects.create_user("watcher", password="x", display_name="W")
    return [*users[:4], users[4], watcher]


@pytest.fixture
def renders(monkeypatch):
    """Which partials `live_board` renders, counted; the shared renders start empty."""
    monkeypatch.setattr(live_regions, "RENDERS", Recent(100))
    counted = Counter()
    render = rendering._render

    def counting(kind, partial, context, **extra):
        counted[partial] += 1
        return render(kind, partial, context, **extra)

    monkeypatch.setattr(rendering, "_render", counting)
    return counted


def boards(game: Game, readers) -> list[str]:
    return [
        "".join(rendering.live_board(game, Visitor.of(game, user), connected=CONNECTED))
        for user in readers
    ]


@pytest.mark.parametrize("kind", ["biblios", "exlibris"])
def test_every_reader_receives_the_board_rendered_for_them_alone(kind, readers, renders):
    """Spectators first, then the seats, then the spectators again, at several versions: each
    board equals the one rendered with nothing shared (no seat's region reaches a spectator or
    another seat, no stale render outlives its version)."""
    game = table(kind, readers[:4])
    order = [readers[4], *readers[:4], readers[5], readers[4]]
    for _ in range(6):
        game.refresh_from_db()
        shared = boards(game, order)
        live_regions.RENDERS.clear()
        alone = []
        for user in order:
            alone += boards(game, [user])
            live_regions.RENDERS.clear()
        assert shared == alone
        play_moves(game, 3)


def test_a_public_region_is_rendered_once_and_a_seats_own_never_shared(readers, renders):
    """At one version, four seats and two spectators: the dice (public) once, a spectator's
    hand and players regions once for both, each seat's its own; nothing of a seat is kept."""
    game = table("biblios", readers[:4])
    play_moves(game, 10)
    game.refresh_from_db()
    boards(game, readers)
    assert renders["dice"] == 1
    assert renders["hand"] == 4 + 1
    assert renders["players"] == 4 + 1, "the spectators read the same seats connected"
    assert renders["banner"] == 6, "the socket's own, a spectator's too"
    kept = dict(live_regions.RENDERS.items())  # (the game's inputs, whom for, what)
    assert {key[1][0] for key in kept} == {"public", "spectators"}
    assert not any(key[2:] == ("banner",) for key in kept), "the socket's own"
    hands = {key[1]: html for key, html in kept.items() if key[2:] == ("hand",)}
    assert [whom[0] for whom in hands] == ["spectators"], "a seat's hand is never kept"
    assert "You are watching" in next(iter(hands.values()))
    watcher = Visitor.of(game, readers[5])  # who read another seat connected: their own
    fewer = "".join(rendering.live_board(game, watcher, connected={0}))
    live_regions.RENDERS.clear()
    assert fewer == "".join(rendering.live_board(game, watcher, connected={0}))


def table(kind: str, users) -> Game:
    if kind == "exlibris":
        return open_table(users, 4, seed=4)
    return started_game(users, 4)


def play_moves(game: Game, moves: int) -> None:
    """Random legal moves by whoever is to act, whatever the kind."""
    rng = random.Random(game.pk)
    engine = registry.of(game).engine
    by_seat = seated_users(game)
    for _ in range(moves):
        game.refresh_from_db()
        state = game.engine_state()
        if not engine.to_act(state):
            return
        seat = engine.to_act(state)[0]
        action = rng.choice(engine.legal_actions(state, seat))
        services.submit_action(game.pk, by_seat[seat], action, version=state.version)


def test_a_live_tables_push_never_asks_for_standing_orders(readers):
    """Orders are given at turn-based tables only (`orders.offered`), so a live table's push
    spends no query on them; a turn-based table's board still reads its seat's."""
    game = table("biblios", readers[:4])
    play_moves(game, 4)
    for turn_seconds, asked in ((60, False), (min(TURN_BASED_SECONDS), True)):
        Game.objects.filter(pk=game.pk).update(turn_seconds=turn_seconds)
        game.refresh_from_db()
        with CaptureQueriesContext(connection) as queries:
            rendering.live_board(game, Visitor.of(game, readers[0]), connected=CONNECTED)
        tables = " ".join(query["sql"] for query in queries.captured_queries)
        assert (StandingOrder._meta.db_table in tables) is asked
