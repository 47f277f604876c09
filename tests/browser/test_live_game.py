"""Two people play a whole game in two browsers, through the real UI, live (issue 3's promise).

Clicks only: every move is a button on the board, every other player's move must arrive by the
WebSocket push, without reloading.
"""

import re
import time

import pytest

pytestmark = pytest.mark.slow

PASSWORD = "a-long-pass-phrase-9"
MOVE_TIMEOUT_MS = 10_000


class Player:
    """One browser context: its page, and what it asked of anyone but our own server."""

    def __init__(self, browser, base: str, name: str):
        self.base, self.name = base, name
        self.context = browser.new_context(viewport={"width": 1200, "height": 1000})
        self.page = self.context.new_page()
        self.foreign_requests = []
        self.page.on(
            "request",
            lambda request: (
                request.url.startswith(base) or self.foreign_requests.append(request.url)
            ),
        )

    def sign_up(self) -> None:
        page = self.page
        page.goto(f"{self.base}/accounts/signup/")
        page.fill("#id_username", self.name)
        page.fill("#id_display_name", self.name.title())
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("button:has-text('Create account')")
        page.wait_for_selector(f"nav >> text={self.name.title()}")

    def version(self) -> int:
        return int(self.page.get_attribute("#board", "data-version"))

    def my_turn(self) -> bool:
        return self.page.query_selector("#board-banner.my-turn") is not None

    def wait_for_version_above(self, version: int) -> None:
        self.page.wait_for_function(
            f"+document.querySelector('#board')?.dataset.version > {version}",
            timeout=MOVE_TIMEOUT_MS,
        )

    def play_one_move(self) -> str:
        """Click a sensible button: cheap bids, pay when possible, otherwise the first choice."""
        page = self.page
        amount = page.query_selector("#board-actions input[name=amount]")
        if amount is not None:
            if int(amount.get_attribute("min")) <= 2:
                page.click("#board-actions button:has-text('Bid')")
                return "bid"
            page.click("#board-actions button:has-text('Pass')")
            return "pass"
        if page.query_selector("#board-actions button:has-text('Pay')"):
            if page.query_selector("#board-actions input[name=cards]:checked"):
                page.click("#board-actions button:has-text('Pay')")
                return "pay"
            page.click("#board-actions button:has-text('Refuse')")
            return "refuse"
        page.click("#board-actions button >> nth=0")
        return "other"


def test_two_players_play_a_whole_game_live_in_two_browsers(live_site, browser, screenshot):
    tag = str(int(time.time() * 1000))[-6:]
    alice, bruno = (
        Player(browser, live_site, f"alice{tag}"),
        Player(browser, live_site, f"bruno{tag}"),
    )
    alice.sign_up()
    bruno.sign_up()

    alice.page.goto(live_site + "/")
    alice.page.select_option("#id_num_players", "2")
    alice.page.click("button:has-text('Create the table')")
    alice.page.wait_for_url(re.compile(r"/games/\d+/$"))
    invite = alice.page.get_attribute("a[href*='/join/']", "href")

    bruno.page.goto(invite if invite.startswith("http") else live_site + invite)
    bruno.page.wait_for_url(alice.page.url)
    alice.page.wait_for_selector("text=0 free seats", timeout=MOVE_TIMEOUT_MS)  # live, no reload

    alice.page.click("button:has-text('Start the game')")
    bruno.page.wait_for_selector("#board-hand", timeout=MOVE_TIMEOUT_MS)  # waiting room → board
    screenshot(bruno.page, "start-second-player")

    kinds = set()
    for move in range(600):
        if alice.page.query_selector("#board-score table"):
            break
        mover, other = (alice, bruno) if alice.my_turn() else (bruno, alice)
        assert mover.my_turn(), f"nobody's turn before move {move}"
        version = mover.version()
        kinds.add(mover.play_one_move())
        other.wait_for_version_above(version)  # the other browser got the push
        mover.wait_for_version_above(version)
        assert other.version() == mover.version()
        if move == 30:
            screenshot(mover.page, "mid-game")
    else:
        pytest.fail("the game did not end within 600 moves")

    bruno.page.wait_for_selector("#board-score table", timeout=MOVE_TIMEOUT_MS)
    screenshot(alice.page, "final-score")
    for player in (alice, bruno):
        assert "wins" in player.page.inner_text(
            "#board-score"
        ) or "share" in player.page.inner_text("#board-score")
        assert not player.foreign_requests, f"{player.name} loaded {player.foreign_requests}"
    assert {"bid", "pay"} <= kinds, f"the game never went through an auction purchase: {kinds}"
