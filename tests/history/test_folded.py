"""The live board's log read from the newest steps kept per game (`folded.newest_steps`) is the
log a replay from the deal gives: for every registered kind, over random games, for every seat
and the spectator, step after step, when several moves land between two reads, when the cache
lost the game midway, and when a read is older than the one before; and the cache stays within
its bounds."""

import random

import pytest

from games.history import folded
from games.history import selectors as history_selectors
from games.kinds import registry
from games.models import Game, Move
from games.play import rendering
from tests.kinds.conftest import table_id
from tests.kinds.conftest import tables as engine_tables
from tests.passes import half_per_pass

pytestmark = pytest.mark.django_db

KINDS = registry.kinds(include_alpha=True)
LIMITS = (1, 12, folded.TAIL_EVENTS)


@pytest.fixture
def host(django_user_model):
    return django_user_model.objects.create_user("folder")


@pytest.fixture(autouse=True)
def fresh_caches(monkeypatch):
    """Each test with caches of its own, so no other test's games count against a bound."""
    monkeypatch.setattr(folded, "_history", folded._History())
    monkeypatch.setattr(folded, "_tails", folded._Tails())


class Table:
    """A game of `kind` written move by move as the services would, with its own states (folded
    by `apply_action`, not by the cache) to compare with."""

    def __init__(self, kind, host, setup: tuple, seed: int, pk=None):
        self.engine = kind.engine
        players, variant, options = setup
        state = self.engine.new_game(players, seed=seed, variant=variant, options=options)
        self.game = Game.objects.create(
            pk=pk,
            host=host,
            kind=kind.slug,
            variant=variant,
            num_players=players,
            options=options,
            seed=seed,
            status=Game.Status.ACTIVE,
            setup=self.engine.setup_of(state),
            state=self.engine.dumps(state),
        )
        self.states, self.timed_out = [state], set()
        self.readers = [*range(players), None]
        self.shown = {reader: [self.engine.events_for(state, reader)] for reader in self.readers}
        self.rng = random.Random(seed)

    @property
    def over(self) -> bool:
        return not self.engine.to_act(self.states[-1])

    def move(self, count: int = 1) -> Game:
        """`count` random legal moves (fewer at the end), one in four decided by the clock; the
        game as a reader would read it afresh."""
        for _ in range(count):
            state = self.states[-1]
            if self.over:
                break
            seat = self.rng.choice(self.engine.to_act(state))
            action = self.rng.choice(self.engine.legal_actions(state, seat))
            self.states.append(self.engine.apply_action(state, seat, action))
            for reader in self.readers:
                self.shown[reader].append(self.engine.events_for(self.states[-1], reader))
            seq = len(self.states) - 1
            by = Move.PlayedBy.PLAYER
            if self.rng.random() < 0.25:
                by = Move.PlayedBy.TIMEOUT
                self.timed_out.add(seq)
            Move.objects.create(game=self.game, seq=seq, seat=seat, action=action, played_by=by)
        Game.objects.filter(pk=self.game.pk).update(version=len(self.states) - 1)
        return Game.objects.get(pk=self.game.pk)

    def log(self, reader, version: int | None = None) -> list[dict]:
        """The whole log of `reader` at `version` (the last), newest first, from this table's
        own states."""
        shown = self.shown[reader][: None if version is None else version + 1]
        return [
            event
            for step, events in enumerate(shown)
            for event in history_selectors.with_timeouts_marked(events, step in self.timed_out)
        ][::-1]

    def assert_logs(self, game: Game) -> None:
        """Every reader's board log (each limit) and its newest steps as a replay gives them."""
        for reader in self.readers:
            expected = self.log(reader, game.version)
            for limit in LIMITS:
                assert history_selectors.game_log(game, reader, limit=limit) == expected[:limit]
            steps = folded.newest_steps(game, reader, folded.TAIL_EVENTS)
            first = steps[0][0]
            assert [step for step, _ in steps] == list(range(first, game.version + 1))
            wanted = self.shown[reader][first : game.version + 1]
            assert [shown for _, shown in steps] == wanted


def setups(kind, few: bool) -> list[tuple]:
    """(players, variant, options) of the kind's tables `new_game` accepts: the first of the
    smallest and of the largest, or the first of the largest only (`few`)."""
    found = engine_tables(kind.engine)
    counts = sorted({players for players, _, _ in found})
    wanted = counts[-1:] if few else sorted({counts[0], counts[-1]})
    return [next(setup for setup in found if setup[0] == players) for players in wanted]


def tables(few: bool) -> list:
    return [
        pytest.param(kind, setup, id=f"{kind.slug}-{table_id(setup)}")
        for kind in KINDS
        for setup in setups(kind, few)
    ]


# Whole games, one a table: the two passes of CI share them (tests/passes.py).
@pytest.mark.parametrize("kind,setup", half_per_pass(tables(few=False)))
def test_the_newest_steps_are_the_replays_at_every_move(kind, host, setup):
    table = Table(kind, host, setup, seed=setup[0])
    game = table.move(0)
    while True:
        table.assert_logs(game)
        if table.over:
            break
        game = table.move()
    assert game.version > folded.TAIL_STEPS // 4, "too short a game to leave the deal behind"
    assert history_selectors.game_log(game, 0) == table.log(0)


@pytest.mark.parametrize("kind,setup", tables(few=True))
def test_several_moves_at_once_evictions_and_older_reads(kind, host, setup):
    """Between two reads come one to six moves; now and then the cache loses the game (or
    only its states), and now and then a reader reads the game as it was a few moves ago."""
    table = Table(kind, host, setup, seed=11)
    rng = random.Random(setup[0])
    game = table.move(0)
    while not table.over:
        older = game
        game = table.move(rng.randint(1, 6))
        roll = rng.random()
        if roll < 0.15:
            folded._tails.games.clear()
        elif roll < 0.3:
            folded._history.games.clear()
        table.assert_logs(game)
        if rng.random() < 0.3:  # a read older than the last: the log as it stood then
            table.assert_logs(older)


def test_a_game_with_a_reused_id_and_seed_never_reads_the_old_ones(host):
    """A rolled-back test database hands out a game's id again, with the same fixed seed: the
    new game, played otherwise, never picks up the old one's log."""
    kind = KINDS[0]
    (setup,) = setups(kind, few=True)
    first = Table(kind, host, setup, seed=3)
    game = first.move(20)
    first.assert_logs(game)
    number = game.pk
    game.delete()
    second = Table(kind, host, setup, seed=3, pk=number)
    second.rng = random.Random("another game")
    game = second.move(20)
    assert game.pk == number and second.log(0) != first.log(0)
    second.assert_logs(game)


@pytest.mark.parametrize("kind", KINDS, ids=[kind.slug for kind in KINDS])
def test_the_cache_keeps_within_its_bounds(kind, host, monkeypatch):
    """At most `size` games (and game versions of timed-out moves), each reader's steps at
    most `TAIL_STEPS` and no more than the newest holding `TAIL_EVENTS` events; the least
    recently read game goes first."""
    monkeypatch.setattr(folded, "_tails", folded._Tails(size=3))
    monkeypatch.setattr(folded, "_timed_out", folded._TimedOut(size=3))
    (setup,) = setups(kind, few=True)
    played = [Table(kind, host, setup, seed=seed) for seed in range(5)]
    games = {}
    for _ in range(60):
        for table in played:
            games[table] = table.move()
            for reader in table.readers:
                history_selectors.game_log(games[table], reader, limit=12)
    assert len(folded._tails.games) == 3
    assert set(folded._tails.games) == {folded._key(games[table]) for table in played[-3:]}
    newest = {(folded._key(games[table]), games[table].version) for table in played[-3:]}
    assert {key for key, _ in folded._timed_out.kept.items()} == newest
    for tail in folded._tails.games.values():
        for steps in tail.seats.values():
            assert len(steps) <= folded.TAIL_STEPS
            newer = sum(len(shown) for _, shown in steps[1:])
            assert newer < folded.TAIL_EVENTS or len(steps) == folded.TAIL_STEPS


def test_trimming_keeps_the_fewest_newest_steps_holding_enough_events():
    steps = tuple((step, [{}] * (step % 3)) for step in range(200))
    kept = folded._trimmed(steps)
    assert kept == steps[-len(kept) :]
    assert sum(len(shown) for _, shown in kept) >= folded.TAIL_EVENTS
    assert sum(len(shown) for _, shown in kept[1:]) < folded.TAIL_EVENTS
    quiet = tuple((step, []) for step in range(500))
    assert folded._trimmed(quiet) == quiet[-folded.TAIL_STEPS :]
    assert not folded._covers(folded._trimmed(quiet), 1)
    assert folded._covers(folded._trimmed(quiet[:10]), 1)  # back to the deal: the whole log


def test_a_thread_that_folded_less_far_never_takes_back_anothers_newer_version():
    """Renders run in threads: each keeps what it folded unless a newer version is kept, and at
    the same version both threads' readers stay."""
    tails = folded._Tails()
    key = ("game", 1, "created")
    seat_0 = ((5, [{"seat": 0}]),)
    tails._keep(key, folded._Tail(5, "state 5", {0: seat_0}))
    tails._keep(key, folded._Tail(4, "state 4", {1: ((4, []),)}))
    assert tails.games[key].version == 5 and set(tails.games[key].seats) == {0}
    tails._keep(key, folded._Tail(5, "state 5", {None: ((5, []),)}))
    assert set(tails.games[key].seats) == {0, None} and tails.games[key].seats[0] == seat_0
    tails._keep(key, folded._Tail(6, "state 6", {1: ((6, []),)}))
    assert tails.games[key].version == 6 and set(tails.games[key].seats) == {1}


def test_the_board_log_is_read_from_the_newest_steps_kept():
    """Were the board to show more than each reader's newest steps hold, every push would fold
    its game from the deal again (`newest_steps` falls back to the whole log)."""
    assert rendering.LOG_LENGTH <= folded.TAIL_EVENTS
