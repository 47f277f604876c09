"""A Redis restart or outage costs no move and no push.

A move is committed before its hint is sent, so a failing broadcast must not fail the move's
answer, and a rate-limit counter that cannot be reached must not refuse the move (both checked
in this process against a Redis port where nothing listens). And the workers' channel layer
reconnects by itself after a restart: each of those tests runs a private redis-server on a free
port (not the suite's Redis, which other runs share) and real daphne workers pointed at it, so
it runs on both CI passes: on the SQLite pass the workers share the test database file and
still use this Redis. The workers serve sockets and moves before the restart, so their
connection pools hold connections that the restart closes; the sockets are closed first (a
socket open across a restart is closed, and its client reconnects and gets the board).
"""

import asyncio
import logging
import socket
import subprocess
import time

import pytest
from django.test import Client, override_settings

from benchmarks.site import Workers, free_port, site_env
from games.kinds.biblios import engine as biblios
from games.models import Game
from tests.api.conftest import ApiClient
from tests.play import seated_users, started_game
from tests.reliability.conftest import TIMEOUT, Board, database_url, post_action, token
from tests.turns.helpers import bot_table
from tests.web.helpers import action_forms


def unreachable_redis_url() -> str:
    """A Redis URL where nothing listens: every command fails at once (connection refused)."""
    return f"redis://127.0.0.1:{free_port()}/0"


def two_player_game(users) -> tuple[Game, dict]:
    game = started_game(users, 2, seed=1)
    return game, {seat: token(user) for seat, user in seated_users(game).items()}


def api_move(game: Game, tokens: dict):
    """The acting seat's first legal move through the board API (the client checks < 500)."""
    game.refresh_from_db()
    seat = biblios.to_act(game.engine_state())[0]
    action = biblios.view(game.engine_state(), seat)["legal_actions"][0]
    body = {"version": game.version, "action": action}
    return ApiClient(tokens[seat]).post(f"/api/games/{game.pk}/actions", body)


def test_a_move_is_answered_as_usual_when_its_broadcast_fails(transactional_db, users, caplog):
    """Through the API and through the page's form (without JavaScript: a redirect)."""
    game, tokens = two_player_game(users)
    unreachable = {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [unreachable_redis_url()]},
    }
    with (
        override_settings(CHANNEL_LAYERS={"default": unreachable}),
        caplog.at_level(logging.WARNING, logger="biblios_site.push"),
    ):
        assert api_move(game, tokens).status_code == 200
        game.refresh_from_db()
        actor = seated_users(game)[biblios.to_act(game.engine_state())[0]]
        browser = Client()
        browser.force_login(actor)
        form = action_forms(browser.get(f"/games/{game.pk}/").content.decode())[0]
        response = browser.post(f"/games/{game.pk}/act/", form.data())

    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    game.refresh_from_db()
    assert game.version == 2
    assert list(game.moves.values_list("seq", flat=True)) == [1, 2]
    assert f"game-{game.pk} failed" in caplog.text


def test_a_move_is_answered_as_usual_when_the_rate_limit_counters_are_unreachable(
    transactional_db, users, caplog
):
    game, tokens = two_player_game(users)
    unreachable = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": unreachable_redis_url(),
    }
    with (
        override_settings(CACHES={"default": unreachable}),
        caplog.at_level(logging.WARNING, logger="biblios_site.ratelimit"),
    ):
        assert api_move(game, tokens).status_code == 200

    game.refresh_from_db()
    assert list(game.moves.values_list("seq", flat=True)) == [1]
    assert "rate limit action not counted" in caplog.text


# ----------------------------------------------------------------- restarts, with real workers


class RedisServer:
    """A throwaway redis-server keeping nothing on disk: a restart loses every key, the worst
    case for the layer (group memberships and queued messages are gone too)."""

    def __init__(self, log_dir):
        self.port = free_port()
        self.log_dir = log_dir
        self.process = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        with open(self.log_dir / f"redis-{self.port}.log", "ab") as log:
            self.process = subprocess.Popen(
                [*command, "--save", "", "--appendonly", "no"],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"redis-server exited; see {self.log_dir}"
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16) == b"+PONG\r\n":
                        return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"redis-server did not start within {TIMEOUT} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=TIMEOUT)

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def redis_server(tmp_path):
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def workers(transactional_db, tmp_path, redis_server):
    """`workers(**env)`: one daphne worker on the test database and the private Redis. No
    worker may log an error: a move answered 500 or a failed bot move is one."""
    started = []

    def start(**env) -> str:
        env = site_env(
            database_url(),
            redis_server.url,
            RATE_LIMIT_ACTIONS="100000/1",
            RATE_LIMIT_API="100000/1",
            **env,
        )
        worker = Workers(1, env, tmp_path)
        started.append(worker)
        worker.start()
        return worker.urls[0]

    yield start
    for worker in started:
        worker.stop()
    for worker in started:
        assert not worker.log_errors(), worker.log_errors()


async def open_board(url: str, game_id: int, raw_token: str) -> Board:
    """A JSON socket with its first board; fails at once if the worker closes it instead."""
    board = Board(url, game_id, raw_token)
    await board.socket.connect(TIMEOUT)
    first_board = asyncio.ensure_future(board.until(lambda frame: "view" in frame))
    await asyncio.wait([first_board, board.socket.closed], return_when=asyncio.FIRST_COMPLETED)
    if not first_board.done():
        first_board.cancel()
        raise AssertionError(f"the socket closed with {board.socket.close_code} before its board")
    return board


async def play(url: str, game_id: int, raw_token: str, view: dict) -> dict:
    """The first legal move in `view` (a seat's board), through the API; its answer."""
    status, answer = await post_action(
        url, game_id, raw_token, view["version"], view["legal_actions"][0]
    )
    assert status == 200, (status, answer)
    return answer


async def play_next(url: str, game_id: int, tokens: dict, boards: dict) -> dict:
    """The acting seat's move, from the board its socket shows; the answer once every board has
    the new version."""
    actor = boards[0].latest["view"]["to_act"][0]
    answer = await play(url, game_id, tokens[actor], boards[actor].latest["view"])
    for board in boards.values():
        await board.until(lambda frame: frame.get("version") == answer["version"])
    return answer


async def open_boards(url: str, game_id: int, tokens: dict) -> dict:
    return {seat: await open_board(url, game_id, raw_token) for seat, raw_token in tokens.items()}


def play_unwatched(url: str, game: Game, tokens: dict) -> dict:
    """The acting seat's move, read from the database (no socket is open)."""
    game.refresh_from_db()
    seat = biblios.to_act(game.engine_state())[0]
    view = biblios.view(game.engine_state(), seat)
    return asyncio.run(play(url, game.pk, tokens[seat], view))


def warm_up(url: str, game: Game, tokens: dict) -> None:
    """Sockets and moves through the worker, so that its pool holds Redis connections. The
    last move is made with no socket open, so the connection the worker used last is an
    ordinary one (a socket's goodbye may leave one closed on purpose, which reconnects anyway)."""

    async def watched():
        boards = await open_boards(url, game.pk, tokens)
        await play_next(url, game.pk, tokens, boards)
        await asyncio.gather(*(board.close() for board in boards.values()))

    asyncio.run(watched())
    play_unwatched(url, game, tokens)


@pytest.mark.slow
def test_a_move_after_a_redis_restart_is_answered_200_and_applied_once(
    workers, redis_server, users
):
    """The worker has broadcast a move before the restart (no socket open, see warm_up)."""
    game, tokens = two_player_game(users)
    url = workers()
    play_unwatched(url, game, tokens)
    redis_server.restart()

    answer = play_unwatched(url, game, tokens)

    game.refresh_from_db()
    assert answer["version"] == game.version == 2
    assert list(game.moves.values_list("seq", flat=True)) == [1, 2]


@pytest.mark.slow
def test_a_socket_opened_after_a_redis_restart_gets_its_board_and_the_next_pushes(
    workers, redis_server, users
):
    game, tokens = two_player_game(users)
    url = workers()
    warm_up(url, game, tokens)
    redis_server.restart()

    async def after_restart():
        boards = await open_boards(url, game.pk, tokens)
        assert [board.latest["version"] for board in boards.values()] == [2, 2]
        for _ in range(2):
            await play_next(url, game.pk, tokens, boards)
        await asyncio.gather(*(board.close() for board in boards.values()))

    asyncio.run(after_restart())


@pytest.mark.slow
def test_a_bot_move_after_a_redis_restart_is_pushed(workers, redis_server, django_user_model):
    """Worker A plays the bot and has served sockets before the restart; the person watches
    and moves on worker B (no turn worker), so only A's broadcast can bring the bot's move."""
    person = django_user_model.objects.create_user("alone", password="x")
    game = bot_table(person, ["novice"], seed=4)
    tokens = {0: token(person)}
    bot_worker = workers(BOT_MOVE_DELAY_S="1", TURN_WORKER_POLL_S="0.05")
    person_worker = workers(TURN_WORKER="0")

    def to_act(frame: dict):
        return frame.get("view", {}).get("to_act")

    async def until_the_bots_turn(url: str, board: Board) -> int:
        """The person's moves until the bot is to act; the version at which it is."""
        while True:
            frame = await board.until(
                lambda frame: to_act(frame) is not None, len(board.frames) - 1
            )
            if to_act(frame) == [1]:
                return frame["version"]
            answer = await play(url, game.pk, tokens[0], frame["view"])
            await board.until(lambda frame, v=answer["version"]: frame.get("version") == v)

    async def before_restart() -> int:
        board = await open_board(bot_worker, game.pk, tokens[0])
        version = await until_the_bots_turn(bot_worker, board)
        await board.close()  # before the bot moves (after a second): its pushes reach no one
        return version

    def person_to_act_after(version: int) -> bool:
        game.refresh_from_db()
        return game.version > version and biblios.to_act(game.engine_state()) == [0]

    async def after_restart():
        board = await open_board(person_worker, game.pk, tokens[0])
        version = await until_the_bots_turn(person_worker, board)
        first_push = await board.until(lambda frame: frame.get("version", -1) > version)
        await board.close()
        return version, first_push

    version = asyncio.run(before_restart())
    deadline = time.monotonic() + TIMEOUT
    while not person_to_act_after(version):  # the bot's turn played (it may take several moves)
        assert time.monotonic() < deadline, "the bot did not play"
        time.sleep(0.1)
    redis_server.restart()
    version, first_push = asyncio.run(after_restart())

    # Bots move a second apart, so the push of the bot's first move shows that move.
    assert first_push["version"] == version + 1
    game.refresh_from_db()
    assert game.moves.filter(seq=version + 1, seat=1, played_by="bot").exists()
    assert list(game.moves.values_list("seq", flat=True)) == list(range(1, game.version + 1))
