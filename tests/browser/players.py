"""People in browsers: sign up, set a table, play by clicking, and what each browser fetched.

Selectors are ids, form actions and field names rather than visible words, so the tests keep
working whatever language the page is in and however it is styled. Waits are arrow functions
(`"() => …"`), never bare expressions: Playwright polls a bare expression with eval, which the
site's Content-Security-Policy refuses.
"""

import re
import time

PASSWORD = "a-long-pass-phrase-9"
MOVE_TIMEOUT_MS = 10_000
# Set on each page once it is loaded; a reload or a navigation would wipe it, so a move that
# shows up while it is still there arrived live.
NO_RELOAD_MARK = "window.__biblios_no_reload"
LOCAL_SCHEMES = ("data:", "blob:", "about:")
DESKTOP = {"width": 1200, "height": 1000}
PHONE = {"width": 360, "height": 740}
# From the top of a page to any move's button, through the nav and the board, with room.
MAX_TABS = 120
# htmx has nothing in flight or still settling.
SETTLED = "() => !document.querySelector('.htmx-request, .htmx-added, .htmx-settling')"
# An init script (it runs before any script of every document; the page's policy does not apply
# to it) that turns each Content-Security-Policy violation into a console error.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI}`);
});
"""
# An init script that counts, on each document, the frames of the game page's socket. Its first
# frame redraws the whole board the server drew a moment before (a move may have come between),
# so a test that reads the board and clicks waits for it: a button read before it is gone after.
COUNT_BOARD_FRAMES = """
document.addEventListener("htmx:wsAfterMessage", (event) => {
  if (event.target.id === "game-live") {
    window.__biblios_board_frames = (window.__biblios_board_frames || 0) + 1;
  }
});
"""


class Player:
    """One browser context (its own cookies), its page, and every URL it asked for."""

    def __init__(
        self,
        browser,
        base: str,
        name: str,
        display_name="",
        viewport=DESKTOP,
        keyboard_only=False,
        color_scheme="light",
        locale="en-GB",
        storage_state=None,
        reduced_motion="no-preference",
        ignore_https_errors=False,
    ):
        """`storage_state` (from another Player's `context.storage_state()`) starts this browser
        logged in as that player, without signing up or logging in; `ignore_https_errors`
        accepts a site's self-signed certificate (tests/deploy's nginx)."""
        self.base, self.name = base, name
        self.keyboard_only = keyboard_only
        self.tab_presses: list[int] = []  # per move made by keyboard
        self.display_name = display_name or name.title()
        self.ws_base = "ws" + base.removeprefix("http")
        self.context = browser.new_context(
            viewport=viewport,
            locale=locale,
            color_scheme=color_scheme,
            storage_state=storage_state,
            reduced_motion=reduced_motion,
            ignore_https_errors=ignore_https_errors,
        )
        self.context.add_init_script(COUNT_BOARD_FRAMES)
        self.page = self.context.new_page()
        self.requested: list[str] = []
        # Context-wide, so pages opened later are recorded too; sockets are requests as well.
        self.context.on("request", lambda request: self.requested.append(request.url))
        self.context.on("page", self._watch_sockets)
        self._watch_sockets(self.page)
        # The status of every move's answer: 204 while the page's socket is open (its push
        # brings the board), the board itself (200) otherwise.
        self.move_answers: list[int] = []
        self.context.on("response", self._note_move_answer)

    def _note_move_answer(self, response) -> None:
        if response.url.endswith("/act/"):
            self.move_answers.append(response.status)

    def _watch_sockets(self, page) -> None:
        page.on("websocket", lambda socket: self.requested.append(socket.url))

    def foreign_requests(self) -> list[str]:
        """Every URL this browser fetched from anywhere but our own site."""
        return [
            url
            for url in self.requested
            if not url.startswith((self.base + "/", self.ws_base + "/", *LOCAL_SCHEMES))
        ]

    def close(self) -> None:
        """Close the browser, after checking that none of its pages loaded anything from outside
        the site (every test ends with this)."""
        assert not self.foreign_requests(), (
            f"{self.name}'s pages loaded from outside the site: {self.foreign_requests()}"
        )
        self.context.close()

    # ------------------------------------------------------------------ accounts

    def sign_up(self) -> None:
        page = self.page
        page.goto(f"{self.base}/accounts/signup/")
        page.fill("input[name=username]", self.name)
        page.fill("input[name=display_name]", self.display_name)
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        with page.expect_navigation():  # until the next page's "load": its styles apply
            page.click("main form[action$='/accounts/signup/'] [type=submit]")
        # In the page, not necessarily in sight: on a phone the navigation is a closed menu.
        page.wait_for_selector(f"nav a[href$='/u/{self.name}/']", state="attached")

    def log_in(self) -> None:
        """Through the log-in form, as a player signed up with PASSWORD (e.g. one made in the
        site's database by a test)."""
        page = self.page
        page.goto(f"{self.base}/accounts/login/")
        page.fill("input[name=username]", self.name)
        page.fill("input[name=password]", PASSWORD)
        with page.expect_navigation():
            page.click("main form[action$='/accounts/login/'] [type=submit]")
        page.wait_for_selector(f"nav a[href$='/u/{self.name}/']", state="attached")

    def choose_language(self, language: str) -> None:
        """Through the site's language switcher, as a person would; it is kept on the profile."""
        page = self.page
        page.wait_for_load_state()  # the styles say whether the menu is folded
        if not page.is_visible("#site-language"):  # in the navigation's menu, closed on phones
            page.click("details:has(#site-language) > summary")
        page.select_option("#site-language", language)
        with page.expect_navigation():
            page.click("form.language-switcher [type=submit]")
        page.wait_for_selector(f"html[lang='{language}']")

    # -------------------------------------------------------------------- tables

    def create_table(self, num_players: int, bots=()) -> str | None:
        """Open a table for `num_players` from the lobby, with a bot of the level named in
        `bots` (e.g. "novice") in each seat after the host's that it covers; returns its invite
        link, or None when bots took every other seat: that table started at once and the page
        shows its board."""
        page = self.page
        page.goto(self.base + "/")
        page.select_option("select[name=num_players]", str(num_players))
        for number, level in enumerate(bots, start=2):
            page.select_option(f"select[name=seat_{number}]", level)
        page.click("form[action$='/tables/new/'] [type=submit]")
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        if len([level for level in bots if level]) == num_players - 1:
            self.wait_for_board()
            return None
        invite = page.get_attribute("#board-waiting a[href*='/join/']", "href")
        return invite if invite.startswith("http") else self.base + invite

    def follow_invite(self, invite: str, table_url: str) -> None:
        self.page.goto(invite)
        self.page.wait_for_url(table_url)

    def wait_for_seats_taken(self, count: int) -> None:
        self.page.wait_for_function(
            "() => document.querySelectorAll('#board-waiting ol.waiting-seats > li').length"
            f" == {count}",
            timeout=MOVE_TIMEOUT_MS,
        )

    def start_game(self) -> None:
        """Start, and follow the page to the board if the answer sends it elsewhere (htmx's
        HX-Redirect), so that whatever is set on the page afterwards stays on it."""
        page = self.page
        self.wait_until_settled()
        page.evaluate("window.__biblios_waiting_room = true")
        with page.expect_response(lambda response: response.url.endswith("/start/")) as answer:
            page.click("#board-waiting form[action$='/start/'] [type=submit]")
        if answer.value.headers.get("hx-redirect"):
            # Re-evaluated across navigations: true once the waiting room's document is gone.
            page.wait_for_function("() => window.__biblios_waiting_room === undefined")

    def wait_for_board(self) -> None:
        """The board with the player's hand drawn (the hand region is empty on the waiting
        room's skeleton), as the page's socket last sent it."""
        self.page.wait_for_function(
            "() => document.querySelector('#board-hand > *') && window.__biblios_board_frames > 0",
            timeout=MOVE_TIMEOUT_MS,
        )

    # --------------------------------------------------------------------- board

    def mark_loaded(self) -> None:
        self.page.evaluate(f"{NO_RELOAD_MARK} = true")

    def still_same_page(self) -> bool:
        return self.page.evaluate(f"{NO_RELOAD_MARK} === true")

    def version(self) -> int:
        return int(self.page.get_attribute("#board-message", "data-version"))

    def my_turn(self) -> bool:
        return self.page.query_selector("#board-banner.my-turn") is not None

    def game_over(self) -> bool:
        return self.page.query_selector("#board-score table") is not None

    def wait_for_version_above(self, version: int, timeout=MOVE_TIMEOUT_MS) -> None:
        self.page.wait_for_function(
            f"() => +document.querySelector('#board-message')?.dataset.version > {version}",
            timeout=timeout,
        )

    def play_one_move(self) -> str:
        """Choose a sensible button: cheap bids, pay when possible, otherwise the first choice,
        and press it (by mouse, or by keyboard alone if this player uses only the keyboard).

        Returns the kind of the form pressed (the action type it posts). Locators, not element
        handles: a live push may redraw the actions region at any moment.
        """
        self.wait_until_settled()
        kind, button = self.sensible_move()
        if self.keyboard_only:
            self._tab_to(button)
            self.page.keyboard.press("Enter")
        else:
            button.click()
        return kind

    def sensible_move(self):
        """(kind, locator of its button) for the move `play_one_move` would make now."""
        actions = self.page.locator("#board-actions")
        # The first bid box offers what the player can pay (a second one, more).
        bid_amount = actions.locator("form.action-bid input[name=amount]").first
        if bid_amount.count():
            kind = "bid" if int(bid_amount.get_attribute("min")) <= 2 else "pass"
        elif actions.locator("form.action-pay input[name=cards]:checked").count():
            kind = "pay"
        elif actions.locator("form.action-refuse").count():
            kind = "refuse"
        else:
            kind = actions.locator("form.action input[name=type]").first.get_attribute("value")
        return kind, actions.locator(f"form.action-{kind} [type=submit]").first

    def wait_until_settled(self) -> None:
        """htmx wires up swapped-in forms only when the swap settles (20 ms later); a click
        before that would post the plain form and load a new page."""
        self.page.wait_for_function("() => !document.querySelector('.htmx-added')")

    def _tab_to(self, button) -> None:
        """Press Tab from wherever the focus is until `button` has it, as a keyboard user would;
        notes how many presses it took."""
        for presses in range(MAX_TABS + 1):
            if button.evaluate("button => button === document.activeElement"):
                self.tab_presses.append(presses)
                return
            self.page.keyboard.press("Tab")
        raise AssertionError(f"{MAX_TABS} presses of Tab never reached {button}")


def watched(player: Player) -> list[str]:
    """The console errors and uncaught exceptions of `player`'s page, from now on."""
    errors: list[str] = []
    player.page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    player.page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def unique_tag() -> str:
    """Six digits that keep user names apart between runs against the same server."""
    return str(time.time_ns() // 1000)[-6:]


def seat_a_table(
    browser,
    base: str,
    names: list[str],
    display_names=(),
    viewports=(),
    reduced_motion=None,
    ignore_https_errors=False,
) -> list[Player]:
    """Everyone signs up; the first creates a table, the others join through the invite link,
    and the host starts the game once the waiting room shows every seat taken (live).

    Display names must be unique on the site; by default they are the user names. Everyone
    has a desktop-sized window unless `viewports` says otherwise; `reduced_motion="reduce"`
    spares the cards' animations where a test is about something else; `ignore_https_errors`
    accepts a self-signed certificate."""
    count = len(names)
    motion = {"reduced_motion": reduced_motion} if reduced_motion else {}
    players = [
        Player(
            browser,
            base,
            name,
            display_name,
            viewport,
            ignore_https_errors=ignore_https_errors,
            **motion,
        )
        for name, display_name, viewport in zip(
            names, display_names or [""] * count, viewports or [DESKTOP] * count, strict=True
        )
    ]
    for player in players:
        player.sign_up()
    host, guests = players[0], players[1:]
    invite = host.create_table(len(players))
    table_url = host.page.url
    for guest in guests:
        guest.follow_invite(invite, table_url)
    host.wait_for_seats_taken(len(players))  # arrived through the host's socket, no reload
    host.start_game()
    for player in players:
        player.wait_for_board()
        player.mark_loaded()
    return players


def whose_turn(players: list[Player]) -> Player:
    movers = [player for player in players if player.my_turn()]
    assert len(movers) == 1, f"expected one player to move, got {[p.name for p in movers]}"
    return movers[0]


def play_moves(players: list[Player], count: int, on_move=None) -> set[str]:
    """Up to `count` moves (fewer if the game ends); after each, every browser must show the new
    version, the others through their socket. Returns the kinds of move made."""
    kinds = set()
    for move in range(count):
        if players[0].game_over():
            break
        mover = whose_turn(players)
        version = mover.version()
        kinds.add(mover.play_one_move())
        for player in players:
            player.wait_for_version_above(version)
        versions = {player.name: player.version() for player in players}
        assert len(set(versions.values())) == 1, f"boards disagree after move {move}: {versions}"
        if on_move is not None:
            on_move(move, mover)
    return kinds
