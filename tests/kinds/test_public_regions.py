"""A region a kind declares public (`registry.Region.public`) is rendered once per worker and
game version and handed to every socket of the game (`rendering.live_board`), from the
spectator's view: along random games of every kind, variant and player count, it must draw the
same as it does on every seat's own board and the spectator's, else a seat would miss what is
its own (or the region holds something that is not everybody's, and may not be declared so)."""

import random

import pytest
from django.contrib.auth import get_user_model

from games.access import Visitor
from games.kinds import registry
from games.models import Game
from games.play import rendering
from games.tables import services as tables

from .conftest import KINDS, play, table_id
from .conftest import tables as engine_tables

pytestmark = pytest.mark.django_db

STATES = 12  # states checked per game, besides the first and the last


def public_tables():
    return [
        pytest.param(kind, table, id=f"{slug}-{table_id(table)}")
        for slug, kind in KINDS.items()
        if any(region.public for region in kind.regions)
        for table in engine_tables(kind.engine)
    ]


def test_the_installed_kinds_declare_public_regions():
    """The test below checks something: the shared renders are used."""
    assert {slug for slug, kind in KINDS.items() if any(r.public for r in kind.regions)} == {
        "biblios",
        "exlibris",
    }


@pytest.mark.parametrize(("kind", "table"), public_tables())
def test_a_public_region_draws_the_same_from_every_seat(kind, table):
    public = [region.partial for region in kind.regions if region.public]
    for step, game, readers in along_a_random_game(kind, table, STATES):
        assert [reader.seat for reader in readers] == [*range(len(readers) - 1), None]
        shared = rendering.public_context(game, list(game.seats.select_related("user")))
        for reader in readers:
            context = rendering.board_context(game, reader, connected={0})
            for partial in public:
                mine = rendering._render(kind, partial, context, oob=True)
                assert mine == rendering._render(kind, partial, shared, oob=True), (
                    f"{partial} at step {step} differs for seat {reader.seat}"
                )


def along_a_random_game(kind: registry.GameKind, table, count: int, salt: str = ""):
    """A table of `kind` seating a reader at each seat, set in turn to the first state of a
    random game of `table`, `count` of its middle ones and its last: yields (the step, the
    game, its readers: every seat's and a spectator)."""
    players, variant, options = table
    users = [
        get_user_model().objects.create_user(f"reader{i}", password="x", display_name=f"R{i}")
        for i in range(players + 1)
    ]
    game = seated_table(kind, users[:players], variant)
    readers = [Visitor.of(game, user) for user in users]
    engine = kind.engine
    state = engine.new_game(players, seed=players, variant=variant, options=options)
    states, _ = play(engine, state, random.Random(f"{salt}{kind.slug}/{variant}/{players}"))
    rng = random.Random(table_id(table))
    middle = rng.sample(range(1, len(states) - 1), min(count, len(states) - 2))
    for step in [0, *sorted(middle), len(states) - 1]:
        game.state, game.version = engine.dumps(states[step]), states[step].version
        game.status = Game.Status.ACTIVE if engine.to_act(states[step]) else Game.Status.FINISHED
        yield step, game, readers


def seated_table(kind: registry.GameKind, users, variant: str) -> Game:
    """A started table of `kind` seating `users` in order (its state is replaced by the test)."""
    settings = tables.TableSettings(len(users), kind=kind.slug, variant=variant)
    game = tables.create_table(users[0], settings, seed=1)
    for user in users[1:]:
        tables.join_table(game.pk, user, invited=True)
    game.refresh_from_db()
    if game.status == Game.Status.OPEN:
        game = tables.start_game(game.pk, users[0])
    return game
