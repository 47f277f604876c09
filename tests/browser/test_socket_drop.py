"""A player's socket drops mid-game; a move is made meanwhile; their board must catch up.

The htmx ws extension reconnects after an abnormal closure (code 1006, what a lost network
gives), and the consumer sends the current board to every socket that connects, so the dropped
browser resyncs without a reload and plays on.

The drop goes through Playwright's WebSocket routing: the page's socket still talks to the real
server, and dropping it closes the server's end (the consumer sees a disconnect) and hands the
page an abnormal closure. (Taking the context offline leaves open sockets alone in Chromium.)
"""

import re

import pytest

from tests.browser.players import MOVE_TIMEOUT_MS, play_moves, seat_a_table, unique_tag

pytestmark = pytest.mark.slow

ABNORMAL_CLOSURE = 1006
# Long enough for the other player's move to land while the socket is down, so the board can
# only catch up through the resync on reconnect.
RECONNECT_DELAY_MS = 3000
# Installed before the page's scripts run, so the first connection is seen too; the game's
# socket only (every page of a logged-in player also has its navigation's, ws/me/).
RECORD_SOCKET_EVENTS = """
    window.__socket_events = [];
    for (const name of ["htmx:wsOpen", "htmx:wsClose"]) {
        document.addEventListener(name, (event) => {
            const url = event.target.getAttribute ? event.target.getAttribute("ws-connect") : "";
            if (!(url || "").includes("/ws/games/")) return;
            window.__socket_events.push(
                name === "htmx:wsOpen" ? "open" : "close:" + event.detail.event.code);
        });
    }
"""


class DroppableSocket:
    """Routes a context's game sockets through Playwright so one can be dropped on demand."""

    def __init__(self, context):
        self.routes = []  # (page side, server side) of each game socket opened
        context.route_web_socket(re.compile(r"/ws/games/\d+/"), self._connect)

    def _connect(self, page_side) -> None:
        server_side = page_side.connect_to_server()
        # Closing one side no longer closes the other by itself: drop() closes both its way.
        page_side.on_close(lambda code, reason: server_side.close())
        server_side.on_close(lambda code, reason: None)
        self.routes.append((page_side, server_side))

    def drop(self) -> None:
        page_side, server_side = self.routes[-1]
        server_side.close()
        page_side.close(code=ABNORMAL_CLOSURE, reason="network lost")


def socket_events(player) -> list[str]:
    return player.page.evaluate("window.__socket_events")


def test_a_dropped_socket_reconnects_and_the_board_catches_up(live_site, browser, screenshot):
    tag = unique_tag()
    players = seat_a_table(browser, live_site, [f"dora{tag}", f"emil{tag}"])
    play_moves(players, 6)
    assert not players[0].game_over()

    # The dropped player is one who waits, so the other can move while they are away.
    dropped = next(player for player in players if not player.my_turn())
    mover = next(player for player in players if player is not dropped)
    socket = DroppableSocket(dropped.context)
    dropped.context.add_init_script(RECORD_SOCKET_EVENTS)
    dropped.page.reload()  # the page's socket now goes through the route
    dropped.page.wait_for_function("() => window.__socket_events.includes('open')")
    dropped.mark_loaded()
    dropped.page.evaluate(f"htmx.config.wsReconnectDelay = () => {RECONNECT_DELAY_MS}")
    seat = dropped.page.get_attribute("#board-players li.me", "data-seat")
    mover.page.wait_for_selector(f"#board-players li[data-seat='{seat}'] .presence.online")
    version = dropped.version()

    socket.drop()
    dropped.page.wait_for_function("() => window.__socket_events.length > 1")
    assert socket_events(dropped) == ["open", f"close:{ABNORMAL_CLOSURE}"]
    # The server saw the socket go: the other player is told, live.
    mover.page.wait_for_selector(
        f"#board-players li[data-seat='{seat}'] .presence.offline", timeout=MOVE_TIMEOUT_MS
    )

    mover.play_one_move()
    mover.wait_for_version_above(version)
    assert dropped.version() == version, "the move reached a socket that was down"
    screenshot(dropped.page, "socket-dropped-behind")

    dropped.wait_for_version_above(version, timeout=RECONNECT_DELAY_MS + MOVE_TIMEOUT_MS)
    assert dropped.version() == mover.version()
    assert socket_events(dropped) == ["open", f"close:{ABNORMAL_CLOSURE}", "open"]
    assert len(socket.routes) == 2, "the page did not open a new socket"
    assert dropped.still_same_page(), "the board caught up by reloading, not by the socket"
    mover.page.wait_for_selector(
        f"#board-players li[data-seat='{seat}'] .presence.online", timeout=MOVE_TIMEOUT_MS
    )
    screenshot(dropped.page, "socket-resynced")

    # Both play on, live, the dropped player included.
    movers = []
    play_moves(players, 10, on_move=lambda move, player: movers.append(player))
    assert dropped in movers, "the dropped player never moved after reconnecting"
    assert all(player.still_same_page() for player in players)
    for player in players:
        player.close()
