"""A move answered 204 waits for its push; if that push is lost, the page asks for the board.

While the page's socket is open a move's answer is empty and the push brings the mover's board
(games/play/views.py `act`). A hint the server could not send is only logged
(games/play/broadcast.py),
so board.js asks its socket for a resync when the board has not moved a few seconds after a
204. Here Playwright's WebSocket routing swallows what the server sends the mover after the
move, until the page asks again.
"""

import re

import pytest

from tests.browser.players import MOVE_TIMEOUT_MS, play_moves, seat_a_table, unique_tag
from tests.browser.test_socket_drop import RECORD_SOCKET_EVENTS

pytestmark = pytest.mark.slow

# board.js's PUSH_WAIT_MS, with the time the resync's board takes to come back.
RESYNC_WITHIN_MS = 3000 + MOVE_TIMEOUT_MS
NO_PUSH_BEFORE_S = 2.5


class LossySocket:
    """Routes a context's game sockets so that what the server sends can be swallowed."""

    def __init__(self, context):
        self.swallowing = False
        self.swallowed = 0
        self.resyncs = 0
        context.route_web_socket(re.compile(r"/ws/games/\d+/"), self._connect)

    def _connect(self, page_side) -> None:
        server_side = page_side.connect_to_server()

        def to_server(message) -> None:
            if '"resync"' in str(message):
                self.resyncs += 1
                self.swallowing = False
            server_side.send(message)

        def to_page(message) -> None:
            if self.swallowing:
                self.swallowed += 1
            else:
                page_side.send(message)

        page_side.on_message(to_server)
        server_side.on_message(to_page)


def test_a_lost_push_after_a_move_is_asked_for_again(live_site, browser):
    tag = unique_tag()
    players = seat_a_table(browser, live_site, [f"fay{tag}", f"gus{tag}"])
    play_moves(players, 4)
    mover = next(player for player in players if player.my_turn())
    lossy = LossySocket(mover.context)
    mover.context.add_init_script(RECORD_SOCKET_EVENTS)
    mover.page.reload()  # the page's socket now goes through the route
    mover.page.wait_for_function("() => window.__socket_events.includes('open')")
    mover.mark_loaded()
    version = mover.version()

    lossy.swallowing = True
    mover.play_one_move()
    mover.page.wait_for_timeout(NO_PUSH_BEFORE_S * 1000)
    assert mover.move_answers[-1] == 204, "the move was answered with the board, not by a push"
    assert mover.version() == version and lossy.swallowed >= 1, "the push was not swallowed"

    mover.wait_for_version_above(version, timeout=RESYNC_WITHIN_MS)
    assert lossy.resyncs == 1
    assert mover.still_same_page(), "the board caught up by reloading, not by the socket"
    for player in players:
        player.close()
