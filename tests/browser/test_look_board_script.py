"""The board script in a real browser (static/js/board.js): the tab title says whose turn it is,
the polite live region reads out the other player's move, focus stays on the board after my
own move, and the sound switch is off by default and remembered across reloads.
"""

import pytest

from tests.browser.players import MOVE_TIMEOUT_MS, seat_a_table, unique_tag, whose_turn

pytestmark = pytest.mark.slow

TURN_TITLE = "Your turn"


def test_turn_title_live_announcements_focus_and_the_remembered_sound_switch(live_site, browser):
    tag = unique_tag()
    players = seat_a_table(browser, live_site, [f"fern{tag}", f"gus{tag}"])
    try:
        mover = whose_turn(players)
        watcher = next(player for player in players if player is not mover)
        assert mover.page.title().startswith("▶ " + TURN_TITLE)
        assert TURN_TITLE not in watcher.page.title()

        # The sound is off until switched on, and the choice survives a reload.
        switch = watcher.page.locator("#turn-sound")
        assert switch.is_visible() and switch.get_attribute("aria-pressed") == "false"
        switch.click()
        assert switch.get_attribute("aria-pressed") == "true"
        watcher.page.reload()
        watcher.wait_for_board()
        assert watcher.page.get_attribute("#turn-sound", "aria-pressed") == "true"
        watcher.mark_loaded()

        # My move by keyboard: focus a move's button, press Enter; focus stays on the board.
        version = mover.version()
        # Emptied first: the page was served with the newest line, and the next may read alike.
        watcher.page.evaluate("document.getElementById('move-announcer').textContent = ''")
        mover.wait_until_settled()
        mover.page.locator("#board-actions form.action button").first.focus()
        mover.page.keyboard.press("Enter")
        mover.wait_for_version_above(version)
        watcher.wait_for_version_above(version)
        mover.page.wait_for_function(
            "() => document.activeElement && document.activeElement.closest('#board') !== null",
            timeout=MOVE_TIMEOUT_MS,
        )

        # The watcher's live region now carries the newest line of their own log.
        # As the script reads it: the text with its whitespace collapsed (cards carry some).
        newest = " ".join(watcher.page.text_content("#board-log [data-announce]").split())
        watcher.page.wait_for_function(
            "() => document.getElementById('move-announcer').textContent.trim() !== ''",
            timeout=MOVE_TIMEOUT_MS,
        )
        announced = " ".join(watcher.page.text_content("#move-announcer").split())
        assert newest in announced, (newest, announced)
        assert watcher.still_same_page()  # arrived live, no reload

        # The title follows the turn wherever it goes next.
        for player in players:
            mine = player.my_turn()
            player.page.wait_for_function(
                f"() => document.title.startsWith('▶ {TURN_TITLE}') === {str(mine).lower()}",
                timeout=MOVE_TIMEOUT_MS,
            )
    finally:
        for player in players:
            player.close()
