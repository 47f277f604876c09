"""A move made from the game page draws the mover's board once: by the push to the page's own
socket when it is open (the move's answer is then an empty 204), else in the move's answer."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.kinds.biblios import engine as biblios
from games.models import Game
from games.play import rendering
from tests.web.helpers import action_forms

from .helpers import QUIET, TIMEOUT, Sockets, board_version, run, session_cookie, started_game

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HTTP_HX_REQUEST": "true"}
SOCKET_OPEN = {"HTTP_X_BOARD_SOCKET": "open"}  # what board.js adds while the socket is open


@pytest.fixture
def board_renders(monkeypatch):
    """The user id of every board rendered (pages, move answers and pushes alike)."""
    renders = []
    context = rendering._context  # a board's context: read once per board drawn

    def counted(game, visitor, *args, **kwargs):
        renders.append(visitor.user.pk)
        return context(game, visitor, *args, **kwargs)

    monkeypatch.setattr(rendering, "_context", counted)
    return renders


def mover_and_browser(game: Game):
    seat = biblios.to_act(game.engine_state())[0]
    mover = game.seats.get(position=seat).user
    browser = Client()
    browser.force_login(mover)
    return mover, browser


def test_a_move_from_a_page_with_its_socket_open_is_drawn_once_by_the_push(users, board_renders):
    game = started_game(users, 2)
    mover, browser = mover_and_browser(game)
    (form, *_) = action_forms(browser.get(f"/games/{game.pk}/").content.decode())
    cookie = session_cookie(mover)
    sockets = Sockets()

    async def scenario():
        socket, _ = await sockets.connect(f"/ws/games/{game.pk}/", cookie=cookie)
        board_renders.clear()  # the page and the socket's first board
        post = database_sync_to_async(browser.post)
        answer = await post(form.action, form.data(), **HTMX, **SOCKET_OPEN)
        assert answer.status_code == 204 and answer.content == b""
        assert board_version(await socket.receive_from(timeout=TIMEOUT)) == game.version + 1
        assert await socket.receive_nothing(timeout=QUIET)
        await sockets.close_all()

    run(scenario)
    assert board_renders == [mover.pk]
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_without_an_open_socket_the_answer_is_the_board(users, board_renders):
    game = started_game(users, 2)
    mover, browser = mover_and_browser(game)
    (form, *_) = action_forms(browser.get(f"/games/{game.pk}/").content.decode())
    board_renders.clear()
    answer = browser.post(form.action, form.data(), **HTMX)
    assert answer.status_code == 200
    assert board_version(answer.content.decode()) == game.version + 1
    assert board_renders == [mover.pk]


def test_a_refused_move_still_answers_the_board_with_why(users):
    game = started_game(users, 2)
    _mover, browser = mover_and_browser(game)
    (form, *_) = action_forms(browser.get(f"/games/{game.pk}/").content.decode())
    stale = form.data(version=game.version + 5)
    answer = browser.post(form.action, stale, **HTMX, **SOCKET_OPEN)
    assert answer.status_code == 409
    assert "The board changed" in answer.content.decode()
    assert Game.objects.get(pk=game.pk).version == game.version
