"""A region that declares what it `reads` (`registry.Region.reads`) is rendered and sent on a
push only when one of those paths changed since the socket's last push
(`live_regions.region_inputs`): so for a reader with no move to make it must draw exactly the
same from its declared paths alone as from the whole board, along random games of every kind,
variant and player count, from every seat and the spectator's. A path it reads but does not
declare would be missing here, and a board would keep showing it stale.

The board's version is left out on purpose (a wrong one stands in): a region shows it in its
`data-version`, which a push that skips the region may leave behind, and nowhere else, since a
move form (which carries it) is only drawn for a reader with a move to make."""

import re

import pytest

from games.play import live_regions, rendering

from .conftest import KINDS, table_id
from .conftest import tables as engine_tables
from .test_public_regions import along_a_random_game

pytestmark = pytest.mark.django_db

STATES = 24  # states checked per game, besides the first and the last
DATA_VERSION = re.compile(r' data-version="[^"]*"')
WRONG_VERSION = -1


def reading_tables():
    """Of each kind whose regions declare reads: every player count in its first variant,
    every variant at its most players, without options, and every option together at that
    table (what a region draws from differs with the players and the variant; an option
    changes the moves, which random games vary anyway)."""
    found = []
    for slug, kind in KINDS.items():
        if not any(region.reads for region in kind.regions):
            continue
        every = engine_tables(kind.engine)
        most = max(players for players, _, _ in every)
        widest = max(every, key=lambda table: (table[0], len(table[2])))
        for players, variant, options in every:
            table = (players, variant, options)
            first = variant == kind.engine.VARIANTS[0]
            if (not options and (first or players == most)) or table == widest:
                found.append(pytest.param(kind, table, id=f"{slug}-{table_id(table)}"))
    return found


def test_the_installed_kinds_declare_what_regions_read():
    """The test below checks something: regions are skipped on a push."""
    assert {slug for slug, kind in KINDS.items() if any(r.reads for r in kind.regions)} == {
        "biblios",
        "exlibris",
    }


def declared_only(context: dict, reads: tuple[str, ...]) -> dict:
    """The context a region would see if it read nothing but its declared paths (and the game,
    whose number and status its forms and links name)."""
    only = {"game": context["game"], "view": {"version": WRONG_VERSION}}
    for path in reads:
        *parents, name = path.split(".")
        source, target = context, only
        for parent in parents:
            source = source.get(parent) if isinstance(source, dict) else None
            target = target.setdefault(parent, {})
        if isinstance(source, dict) and name in source:
            target[name] = source[name]
    return only


@pytest.mark.parametrize(("kind", "table"), reading_tables())
def test_a_region_draws_from_what_it_declares_it_reads(kind, table):
    reading = [region for region in kind.regions if region.reads]
    compared = 0
    for step, game, readers in along_a_random_game(kind, table, STATES, salt="reads/"):
        for reader in readers:
            context = rendering.board_context(game, reader, connected={0})
            for region in reading:
                if live_regions.region_inputs(region, context) is None:
                    continue  # a reader with a move to make: the region is always drawn
                whole = rendering._render(kind, region.partial, context, oob=True)
                alone = rendering._render(
                    kind, region.partial, declared_only(context, region.reads), oob=True
                )
                assert DATA_VERSION.sub("", alone) == DATA_VERSION.sub("", whole), (
                    f"{region.partial} at step {step} for seat {reader.seat} reads more than "
                    f"{region.reads}"
                )
                compared += 1
    assert compared > len(reading) * STATES, "most readers have no move to make most of the time"
