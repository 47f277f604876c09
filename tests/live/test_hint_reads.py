"""A move's hint is read once per worker: the first of its sockets on the game to take the hint
reads the game and its seats, the others draw from that read (`consumers.read_for`), and no
socket ever draws from a read older than the one it last drew from."""

import random

import pytest

from games.models import Game
from games.play import consumers

from .helpers import (
    TIMEOUT,
    Sockets,
    board_version,
    card_ids_in,
    next_move,
    play_until_hands,
    run,
    seated_users,
    session_cookie,
    started_game,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fresh_reads(monkeypatch):
    """The game reads `read_for` makes itself (not the ones it hands on), in order."""
    monkeypatch.setattr(consumers, "HINT_READS", consumers.Recent(256))
    made = []
    read = consumers.HintRead

    def counted(*args, **kwargs):
        made.append(read(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(consumers, "HintRead", counted)
    return made


def test_a_moves_hint_is_read_once_for_every_socket_on_the_game(users, fresh_reads):
    """Three seats and a spectator: after a move, each socket gets the new version, its own
    cards only as before, from one read of the game and one of its seats."""
    rng = random.Random(5)
    game, knowledge = play_until_hands(started_game(users, 3), rng)
    mover, action, version = next_move(game, rng)
    cookies = {seat: session_cookie(user) for seat, user in seated_users(game).items()}
    watcher = session_cookie(users[4])
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()
    seat_of_mover = next(s for s, user in seated_users(game).items() if user == mover)
    frames = {}

    async def scenario():
        seats = await sockets.connect_seats([(path, {"cookie": cookies[s]}) for s in (0, 1, 2)])
        spectator, _ = await sockets.connect(path, cookie=watcher)
        before = len(fresh_reads)  # each socket's own reads of its first board
        await seats[seat_of_mover][0].send_json_to({"action": action, "version": version})
        for seat, (socket, _) in enumerate(seats):
            frames[seat] = await socket.receive_from(timeout=TIMEOUT)
        frames["spectator"] = await spectator.receive_from(timeout=TIMEOUT)
        frames["reads"] = fresh_reads[before:]
        await sockets.close_all()

    run(scenario)
    reads = frames.pop("reads")
    assert len(reads) == 1, "each socket read the game again"
    assert reads[0].game.version == version + 1 and reads[0]._seats is not None
    game.refresh_from_db()
    knowledge.see(game.engine_state())
    for reader, frame in frames.items():
        assert board_version(frame) == version + 1
        hidden = knowledge.hidden_from(None if reader == "spectator" else reader)
        assert not card_ids_in(frame) & hidden, f"{reader} was shown a card it may not know"


def test_a_read_older_than_what_a_socket_drew_is_not_handed_to_it(users, fresh_reads):
    """A socket whose last read ended after another socket's read of the hint began (a resync,
    its first board) reads afresh; a later one takes the shared read; no hint, never shared."""
    game = started_game(users, 2)
    first = consumers.read_for(game.pk, "h1", not_before=float("-inf"))
    assert consumers.read_for(game.pk, "h1", not_before=first.began) is first
    Game.objects.filter(pk=game.pk).update(version=7)  # a commit after the first read
    again = consumers.read_for(game.pk, "h1", not_before=first.ended)
    assert again is not first and again.began >= first.ended and again.game.version == 7
    assert consumers.read_for(game.pk, "h1", not_before=first.ended) is again  # kept instead
    assert consumers.read_for(game.pk, "h2", not_before=again.ended) is not again
    alone = [consumers.read_for(game.pk, None, not_before=float("-inf")) for _ in range(2)]
    assert alone[0] is not alone[1]
    assert len(fresh_reads) == 5
