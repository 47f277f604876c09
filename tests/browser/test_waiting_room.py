"""The waiting room as a person sees it, on a phone and a desktop: each seat on a line of its own,
a chat message of one long word (a link, a row of letters) kept inside the chat's panel, and a
refused message's reason shown in the panel."""

import pytest

from tests.browser.players import DESKTOP, MOVE_TIMEOUT_MS, PHONE, Player, unique_tag, watched

pytestmark = pytest.mark.slow

LONG_WORD = "https://example.org/" + "a" * 280
# Each seat's top is below the previous seat's bottom: one seat a line.
SEAT_ROWS = """() => [...document.querySelectorAll('#board-waiting ol.waiting-seats > li')].map(
  (seat) => { const box = seat.getBoundingClientRect(); return [box.top, box.bottom]; })"""
# Wider than its box: the chat message line, the chat, the side panel, the page.
OVERFLOWS = """() => {
  const wider = (element) => element.scrollWidth > element.clientWidth + 1;
  const line = [...document.querySelectorAll('#chat li[data-message]')].pop();
  return {
    line: wider(line),
    chat: wider(document.getElementById('chat')),
    side: wider(document.querySelector('.game-side')),
    page: document.documentElement.scrollWidth > window.innerWidth,
  };
}"""


def test_seats_stand_one_a_line_and_a_long_chat_word_stays_in_its_panel(live_site, browser):
    host = Player(browser, live_site, f"wren{unique_tag()}", viewport=DESKTOP)
    host.sign_up()
    host.create_table(4, bots=("novice", "scholar"))
    table_url = host.page.url
    host.page.fill("#chat-text", LONG_WORD)
    host.page.click("form.chat-post [type=submit]")
    host.page.wait_for_selector("#chat li[data-message]", timeout=MOVE_TIMEOUT_MS)
    # Said twice: refused (400), and the game page swaps the refusal in (its htmx-config).
    refused = watched(host)
    host.wait_until_settled()
    host.page.fill("#chat-text", LONG_WORD)
    host.page.click("form.chat-post [type=submit]")
    host.page.wait_for_selector("#chat .chat-error", timeout=MOVE_TIMEOUT_MS)
    # Chromium itself notes the 400 ("Failed to load resource"); htmx must not add an error.
    assert not [error for error in refused if "Failed to load resource" not in error], refused

    phone = Player(
        browser, live_site, host.name, viewport=PHONE, storage_state=host.context.storage_state()
    )
    for player in (host, phone):
        errors = watched(player)  # from here on, none
        player.page.goto(table_url)
        player.page.wait_for_load_state("networkidle")
        rows = player.page.evaluate(SEAT_ROWS)
        assert len(rows) == 3, rows  # the host and the two bots; the fourth seat is free
        for (_, above_bottom), (top, _) in zip(rows, rows[1:], strict=False):
            assert top >= above_bottom - 1, f"seats share a line at {player.page.viewport_size}"
        overflows = player.page.evaluate(OVERFLOWS)
        assert not any(overflows.values()), f"{overflows} at {player.page.viewport_size}"
        assert not errors
    host.close()
    phone.close()
