"""A push carries only the regions of the board that changed (games/live_regions.py), and the page
that swaps them in holds exactly the board a fresh render draws: nothing is lost on the way."""

import random
import re

import pytest
from channels.db import database_sync_to_async

from games.access import Visitor
from games.kinds.biblios import engine as biblios
from games.models import Game
from games.play import consumers, rendering, services
from games.play.live_regions import SentRegions

from .helpers import (
    QUIET,
    TIMEOUT,
    HeldBoard,
    Sockets,
    board_version,
    next_move,
    run,
    seated_users,
    session_cookie,
    started_game,
)

pytestmark = pytest.mark.django_db(transaction=True)

VERSIONS = re.compile(r' data-version="\d+"')
REGION_IDS = re.compile(r'\bid="(board[-\w]*)"[^>]*?\bhx-swap-oob="true"')


def play_move(game: Game, user, action: dict, version: int) -> None:
    services.submit_action(game.pk, user, action, version=version)


def region_ids(frame: str) -> list[str]:
    return REGION_IDS.findall(frame)


def without_versions(html: str) -> str:
    return VERSIONS.sub("", html)


def test_after_a_move_a_push_carries_the_changed_regions_and_the_page_holds_the_whole_board(
    users,
):
    """Twenty moves of a 2-player game on both seats' sockets: after the first push (the whole
    board, its frame included), each push leaves out the regions that did not change, always
    carries the message region with the new version, and the board each page holds then is the
    board a fresh render draws for its reader, region by region."""
    rng = random.Random(11)
    game = started_game(users, 2)
    by_seat = seated_users(game)
    cookies = {seat: session_cookie(user) for seat, user in by_seat.items()}
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()
    left_out = 0

    async def scenario():
        nonlocal left_out
        seats = await sockets.connect_seats([(path, {"cookie": cookies[s]}) for s in (0, 1)])
        everything = region_ids(sockets.boards[seats[0][0]].html)
        assert 'id="board"' in sockets.boards[seats[0][0]].frame, "the first push is whole"
        for _ in range(20):
            mover, action, version = await database_sync_to_async(next_move)(game, rng)
            seat = next(s for s, user in by_seat.items() if user == mover)
            await seats[seat][0].send_json_to({"action": action, "version": version})
            for position, (socket, _) in enumerate(seats):
                frame = await socket.receive_from(timeout=TIMEOUT)
                assert board_version(frame) == version + 1
                assert 'id="board"' not in frame, "no frame: it would blank the unsent regions"
                assert region_ids(frame)[0] == "board-message"
                left_out += len(everything) - len(region_ids(frame))
                sockets.boards[socket].apply(frame)
                held = regions_of(sockets.boards[socket])
                fresh = await database_sync_to_async(whole_board)(game.pk, by_seat[position])
                assert held == regions_of(fresh), f"seat {position}'s page after v{version + 1}"
        await sockets.close_all()

    run(scenario)
    assert left_out > 20, "pushes leave unchanged regions out"


def whole_board(game_id: int, user) -> HeldBoard:
    """The live board of a game for `user` as a fresh socket's first push draws it (both seats
    connected)."""
    held = HeldBoard()
    game = Game.objects.get(pk=game_id)
    held.apply(rendering.board_html(game, Visitor.of(game, user), oob=True, connected={0, 1}))
    return held


def regions_of(board: HeldBoard) -> dict[str, str]:
    """Each region of a board by id, its version left out (a region not pushed keeps the one it
    was drawn at), and the white space after it (which depends on what followed it)."""
    return {region_id: without_versions(html).rstrip() for region_id, html in board.regions.items()}


def test_the_push_that_ends_the_game_brings_the_frame_and_its_status(users):
    """The board's frame carries the game's status ("Leave game" is shown only while it is
    active), so the push that ends the game is whole."""
    rng = random.Random(3)
    game = started_game(users, 2)
    while True:  # up to the last move
        mover, action, version = next_move(game, rng)
        state = game.engine_state()
        if not biblios.to_act(biblios.apply_action(state, biblios.to_act(state)[0], action)):
            break
        play_move(game, mover, action, version)
    by_seat = seated_users(game)
    cookies = {seat: session_cookie(user) for seat, user in by_seat.items()}
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()

    async def scenario():
        seats = await sockets.connect_seats([(path, {"cookie": cookies[s]}) for s in (0, 1)])
        seat = next(s for s, user in by_seat.items() if user == mover)
        await seats[seat][0].send_json_to({"action": action, "version": version})
        for socket, _ in seats:
            frame = await socket.receive_from(timeout=TIMEOUT)
            assert 'id="board"' in frame and 'data-status="finished"' in frame
        await sockets.close_all()

    run(scenario)


def test_sent_regions_keeps_what_it_sent():
    """The unit: a whole board first, then only what changed (the version alone is no change),
    the message region always; a region sent apart (presence) is remembered too."""

    def board(version: int, hand: str, players: str, frame: bool = True) -> str:
        regions = (
            f'<div id="board-message" data-version="{version}" hx-swap-oob="true"></div>'
            f'<section id="board-hand" data-version="{version}" hx-swap-oob="true">{hand}</section>'
            f'<section id="board-players" data-version="{version}" hx-swap-oob="true">'
            f"{players}</section>"
        )
        return (f'<div id="board" data-version="{version}"></div>' if frame else "") + regions

    sent = SentRegions()
    first = board(1, "A", "Ann")
    assert sent.news(first, whole=True) == first
    second = sent.news(board(2, "A", "Ann"), whole=False)
    assert region_ids(second) == ["board-message"]
    third = sent.news(board(3, "AB", "Ann"), whole=False)
    assert region_ids(third) == ["board-message", "board-hand"] and "AB" in third
    sent.remember('<section id="board-players" data-version="3" hx-swap-oob="true">Bob</section>')
    fourth = sent.news(board(4, "AB", "Bob"), whole=False)
    assert region_ids(fourth) == ["board-message"], "presence sent Bob already"
    waiting = '<div id="board-waiting">a table</div>'
    assert sent.news(waiting, whole=False) == waiting
    assert sent.news(board(5, "AB", "Bob"), whole=False).count("hx-swap-oob") == 3


def test_a_region_is_no_news_for_the_white_space_after_it():
    """What follows a region in a push (the next region's indentation, or the push's end) is
    no part of it: the players region last in one push and followed by a line break in the
    next, or sent alone by presence, is the same region."""
    players = '<section id="board-players" data-version="{}" hx-swap-oob="true">Ann</section>'
    message = '<div id="board-message" data-version="{}" hx-swap-oob="true"></div>'
    sent = SentRegions()
    sent.news(message.format(1) + "\n  " + players.format(1), whole=True)
    later = sent.news(players.format(2) + "\n  " + message.format(2) + "\n", whole=False)
    assert region_ids(later) == ["board-message"]
    sent.remember(players.format(2) + "\n\n")
    assert region_ids(sent.news(players.format(3) + message.format(3), whole=False)) == [
        "board-message"
    ]


def test_a_socket_that_fell_behind_gets_one_whole_board(users):
    """Moves made while a socket cannot read its hints (the worker's database thread is busy
    with them): the first hint it reads brings the newest board, whole, and the older hints
    nothing. One move behind, a push is the regions that changed."""
    rng = random.Random(5)
    game = started_game(users, 2)
    cookie = session_cookie(seated_users(game)[0])
    path = f"/ws/games/{game.pk}/"
    sockets = Sockets()

    def moves(count: int) -> int:
        for _ in range(count):
            play_move(game, *next_move(game, rng))
        game.refresh_from_db()
        return game.version

    async def scenario():
        socket, _ = await sockets.connect(path, cookie=cookie)
        version = await database_sync_to_async(moves)(consumers.BEHIND + 1)
        frame = await socket.receive_from(timeout=TIMEOUT)
        assert 'id="board"' in frame and board_version(frame) == version
        assert await socket.receive_nothing(timeout=QUIET)
        version = await database_sync_to_async(moves)(1)
        frame = await socket.receive_from(timeout=TIMEOUT)
        assert 'id="board"' not in frame and board_version(frame) == version
        await sockets.close_all()

    run(scenario)
