"""The navigation's counts live in a real browser: a player waiting on another page
sees the start of a game counted in their navigation without reloading it (the `ws/me/`
socket's out-of-band swap); marking the notices read on the notifications page (htmx), or
following the notice to the game, takes the count away; no console error on the way."""

import re

import pytest

from tests.browser.players import MOVE_TIMEOUT_MS, SETTLED, Player, unique_tag, watched

pytestmark = pytest.mark.slow(seconds=10)

COUNT = "(id) => document.getElementById(id).textContent"


def wait_for_count(player: Player, element: str, text: str) -> None:
    player.page.wait_for_function(
        f"() => document.getElementById({element!r}).textContent === {text!r}",
        timeout=MOVE_TIMEOUT_MS,
    )


def wait_until(player: Player, condition) -> None:
    """Let the page run (its socket's events arrive meanwhile) until `condition()` holds."""
    for _ in range(MOVE_TIMEOUT_MS // 100):
        if condition():
            return
        player.page.wait_for_timeout(100)
    raise AssertionError("the socket sent nothing")


def seated_elsewhere(browser, live_site, turn_seconds: int):
    """Ada opens a two-seat table with `turn_seconds` per move, Basil joins through the invite
    and goes to another page, its `ws/me/` socket open; Ada starts the game and Basil's
    navigation counts the notice without a reload. (ada, basil, table URL, console errors)."""
    tag = unique_tag()
    ada = Player(browser, live_site, f"ada{tag}", display_name=f"Ada {tag}")
    basil = Player(browser, live_site, f"basil{tag}", display_name=f"Basil {tag}")
    errors = watched(ada) + watched(basil)
    for player in (ada, basil):
        player.sign_up()

    page = ada.page
    page.goto(f"{live_site}/")
    page.select_option("select[name=num_players]", "2")
    page.select_option("select[name=turn_seconds]", str(turn_seconds))
    page.click("form[action$='/tables/new/'] [type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    table_url = page.url
    invite = page.get_attribute("#board-waiting a[href*='/join/']", "href")
    basil.follow_invite(invite if invite.startswith("http") else live_site + invite, table_url)
    ada.wait_for_seats_taken(2)

    # Basil waits on another page, its socket open (its first frame read).
    frames: list[str] = []

    def listen(socket):
        if socket.url.endswith("/ws/me/"):
            socket.on("framereceived", lambda payload: frames.append(payload))

    basil.page.on("websocket", listen)
    basil.page.goto(f"{live_site}/rules/")
    basil.mark_loaded()
    wait_until(basil, lambda: len(frames) == 1)
    assert basil.page.evaluate(COUNT, "nav-unread") == ""

    ada.start_game()
    wait_for_count(basil, "nav-unread", "1")  # "game started", or "your turn"
    assert basil.still_same_page() and len(frames) >= 2  # pushed, not drawn on a reload
    assert basil.page.evaluate(COUNT, "nav-menu-unread") == "1"
    return ada, basil, table_url, errors


def test_a_turn_based_start_is_counted_live_and_read_away(browser, live_site):
    ada, basil, _, errors = seated_elsewhere(browser, live_site, 86400)

    basil.page.goto(f"{live_site}/notifications/")
    basil.mark_loaded()
    basil.page.click("form[action$='/notifications/read/'] button[name=all]")
    wait_for_count(basil, "nav-unread", "")
    # The socket's new count may come before htmx has swapped in the list its answer brings.
    basil.page.wait_for_function(SETTLED, timeout=MOVE_TIMEOUT_MS)
    assert basil.still_same_page()
    assert basil.page.locator("#notifications li.unread").count() == 0
    assert not errors, errors
    ada.close()
    basil.close()


def test_a_live_start_reaches_a_player_on_another_page_who_follows_it_to_the_board(
    browser, live_site
):
    """A player who joined a live table and switched tabs is told the host started it; the
    notice leads to the board, and the game seen, nothing is left unread."""
    ada, basil, table_url, errors = seated_elsewhere(browser, live_site, 60)

    basil.page.goto(f"{live_site}/notifications/")
    notice = basil.page.locator("#notifications li.unread a").first
    assert "has started" in notice.inner_text()
    notice.click()
    basil.page.wait_for_url(table_url)
    basil.wait_for_board()
    assert basil.page.evaluate(COUNT, "nav-unread") == ""
    assert not errors, errors
    ada.close()
    basil.close()
