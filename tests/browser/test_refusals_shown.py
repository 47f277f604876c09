"""The game page shows why the site refused something, in a real browser: a chat message past
the chat limit (429) shows its refusal in the chat panel, and a move made from a board that
another tab had already moved past (409) shows "the board changed" with the board as it is now.
Both answers are swapped in only because the page's one htmx config says so (htmx reads the
first `htmx-config` meta; a second one on the page was ignored and both messages were lost).
No console error on the way (the site's CSP forbids inline scripts and styles) but the one
Chromium writes for a 409 answer."""

import re

import pytest

from tests.browser.players import (
    MOVE_TIMEOUT_MS,
    SETTLED,
    Player,
    seat_a_table,
    unique_tag,
    watched,
    whose_turn,
)

pytestmark = pytest.mark.slow(seconds=20)

STALE_TEXT = "The board changed before your move arrived; here it is now."
# biblios_site/settings.py: RATE_LIMIT_CHAT's default, which the browser tests' site keeps.
CHAT_LIMIT = 5


def board_frames(player: Player) -> int:
    return player.page.evaluate("() => window.__biblios_board_frames || 0")


def test_a_chat_message_past_the_limit_shows_its_refusal(browser, live_site):
    tag = unique_tag()
    players = seat_a_table(browser, live_site, [f"chatty{tag}", f"quiet{tag}"])
    errors = watched(players[0]) + watched(players[1])
    page = players[0].page
    for number in range(CHAT_LIMIT):
        # Each message comes back in the post's answer, then in the socket's push: wait for
        # both, so that no late push redraws the panel over the refusal.
        frames = board_frames(players[0])
        page.fill("#chat-text", f"Message {number} from {tag}")
        with page.expect_response(lambda response: response.url.endswith("/chat/")) as answer:
            page.click("form.chat-post [type=submit]")
        assert answer.value.status == 200
        page.wait_for_function(
            f"() => window.__biblios_board_frames > {frames}", timeout=MOVE_TIMEOUT_MS
        )
        page.wait_for_function(SETTLED)
    assert page.locator("#chat .chat-messages li").count() == CHAT_LIMIT

    page.fill("#chat-text", "One too many")
    with page.expect_response(lambda response: response.url.endswith("/chat/")) as answer:
        page.click("form.chat-post [type=submit]")
    assert answer.value.status == 429
    page.wait_for_function(SETTLED)
    refusal = page.locator("#chat .chat-error")
    assert re.fullmatch(
        rf"At most {CHAT_LIMIT} messages per \d+ seconds; wait a moment\.", refusal.inner_text()
    ), refusal.inner_text()
    assert page.locator("#chat .chat-messages li").count() == CHAT_LIMIT
    assert not errors, errors
    for player in players:
        player.close()


def test_a_move_from_a_stale_board_shows_that_the_board_changed(browser, live_site):
    """The mover's page stops hearing its socket; the same player moves from a second tab; the
    first tab's move, made against the old version, is refused with the board as it is now."""
    tag = unique_tag()
    players = seat_a_table(browser, live_site, [f"ada{tag}", f"basil{tag}"])
    mover = whose_turn(players)
    table_url = mover.page.url

    # The first tab's socket to the game, with the server's frames held back while `gate`
    # is closed (what the page sends still goes through).
    gate = {"open": True}

    def hold_back(socket):
        server = socket.connect_to_server()
        server.on_message(lambda message: socket.send(message) if gate["open"] else None)

    mover.page.route_web_socket(re.compile(r"/ws/games/\d+/$"), hold_back)
    mover.page.reload()
    mover.wait_for_board()
    errors = watched(mover)
    stale_version = mover.version()

    twin = Player(browser, live_site, mover.name, storage_state=mover.context.storage_state())
    twin_errors = watched(twin)
    twin.page.goto(table_url)
    twin.wait_for_board()
    assert twin.version() == stale_version
    gate["open"] = False
    twin.play_one_move()
    twin.wait_for_version_above(stale_version)
    assert mover.version() == stale_version  # the first tab heard nothing

    with mover.page.expect_response(lambda r: r.url.endswith("/act/")) as answer:
        mover.play_one_move()
    assert answer.value.status == 409
    mover.page.wait_for_function(SETTLED)
    assert mover.page.inner_text("#board-message") == STALE_TEXT
    assert mover.version() == twin.version()  # the board as it is now came with the refusal
    # Chromium itself logs every 4xx answer to a request as an error: the one expected here is
    # the refusal's own, and nothing else (no script error, no CSP violation).
    expected = "Failed to load resource: the server responded with a status of 409 (Conflict)"
    assert errors == [expected], errors
    assert not twin_errors, twin_errors
    twin.close()
    for player in players:
        player.close()
