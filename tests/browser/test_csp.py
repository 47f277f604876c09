"""The Content-Security-Policy in a real browser: every page, the live socket and htmx's swaps
work under it without a single violation or console error.

Two people sign up, open a table, wait for each other (live), play a few moves by clicking, chat,
make API tokens; the game is played on to its last move, made through the API, and both boards
follow it live to the end; then they
walk the finished board, the replay, the log, their games, profiles, the leaderboard and the
rules; a visitor sees the login, sign-up and admin login pages. Every document must carry the
policy, and a violation anywhere (the `securitypolicyviolation` event, or chromium's own console
report) fails the test.
"""

import json
import re
import urllib.error
import urllib.request

import pytest

from tests.browser.conftest import manage
from tests.browser.players import (
    MOVE_TIMEOUT_MS,
    REPORT_VIOLATIONS,
    Player,
    play_moves,
    unique_tag,
)

pytestmark = pytest.mark.slow


class Watched:
    """A browser's console errors, uncaught exceptions, and the documents it loaded without
    the policy header."""

    def __init__(self, player: Player):
        self.player = player
        self.errors: list[str] = []
        self.documents: list[str] = []
        self.without_policy: list[str] = []
        player.context.add_init_script(REPORT_VIOLATIONS)
        self._watch(player.page)
        player.context.on("page", self._watch)

    def _watch(self, page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        page.on("response", self._on_response)

    def _on_console(self, message) -> None:
        # Django's admin pages name no icon: chromium's /favicon.ico must be found too.
        if message.type == "error":
            self.errors.append(f"{message.location.get('url') or ''}: {message.text}")

    def _on_response(self, response) -> None:
        if response.request.resource_type != "document":
            return
        self.documents.append(response.url)
        if "default-src 'self'" not in (response.headers.get("content-security-policy") or ""):
            self.without_policy.append(response.url)

    def check(self) -> None:
        assert not self.errors, f"{self.player.name}: {self.errors}"
        assert not self.without_policy, f"pages without the policy: {self.without_policy}"


# What a screenshot tool, an extension or an accessibility aid may do to a page: style its
# elements through CSSOM (the policy allows it), which leaves an empty style attribute behind.
# A swap that copies such an attribute onto the new element writes an inline style, refused.
STYLE_BY_CSSOM = """() => document.querySelectorAll("[id]").forEach((element) => {
  element.style.setProperty("caret-color", "transparent");
  element.style.removeProperty("caret-color");
})"""


def look_at(player: Player) -> None:
    """The player takes a screenshot of the page, and the page's elements get styled by CSSOM."""
    player.page.screenshot()
    player.page.evaluate(STYLE_BY_CSSOM)


def visit(player: Player, path: str) -> None:
    player.page.goto(player.base + path)
    player.page.wait_for_load_state("networkidle")


def create_token(player: Player) -> str:
    """Through the profile page's form; the token page shows it once."""
    visit(player, f"/accounts/u/{player.name}/")
    player.page.fill("form[action$='/accounts/tokens/'] input[name=name]", "finisher")
    player.page.click("form[action$='/accounts/tokens/'] button[type=submit]")
    return player.page.input_value("#raw-token")


def api(base: str, token: str, method: str, path: str, body=None):
    """(status, JSON answer); the test site lifts the API's rate limit (browser/conftest.py)."""
    request = urllib.request.Request(
        base + "/api" + path,
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)


# Run by the site's `manage.py shell`: the game stored up to one move before its end, as tests
# play a game to its end (tests/play.py); prints that last move.
UNTIL_LAST_MOVE = """
import json, random
from games.models import Game
from tests.play import play_until_last_move
user, action, version = play_until_last_move(Game.objects.get(pk={game_id}), random.Random(15))
print(json.dumps(dict(user=user.username, action=action, version=version)))
"""


def finish_by_api(site_env: dict, base: str, game_id: int, tokens: dict[str, str]) -> None:
    """The game played on the site up to its last move, which its player makes through the
    API: the boards open meanwhile follow, and the end reaches them by their socket."""
    last = json.loads(manage(site_env, "shell", "--no-imports", "-c",
                             UNTIL_LAST_MOVE.format(game_id=game_id)))  # fmt: skip
    status, answer = api(base, tokens[last["user"]], "POST", f"/games/{game_id}/actions",
                         {"version": last["version"], "action": last["action"]})  # fmt: skip
    assert status == 200 and answer["status"] == "finished", answer


def test_the_watch_reports_a_violation(live_site, browser):
    """The detector itself: a style attribute set by script is refused and reported."""
    player = Player(browser, live_site, f"watcher{unique_tag()}")
    watched = Watched(player)
    visit(player, "/")
    player.page.evaluate("document.body.setAttribute('style', 'color: red')")
    player.page.wait_for_timeout(200)
    assert any("CSP violation: style-src-attr" in error for error in watched.errors), watched.errors
    player.close()


@pytest.mark.slow(seconds=45)  # its expected length (tests/conftest.py)
def test_every_page_and_the_live_socket_run_under_the_policy(live_site, live_site_env, browser):
    tag = unique_tag()
    players = [Player(browser, live_site, f"{name}{tag}") for name in ("ada", "bede")]
    watched = [Watched(player) for player in players]
    host, guest = players
    for player in players:
        player.sign_up()
    invite = host.create_table(2)
    game_url = host.page.url
    guest.follow_invite(invite, game_url)
    host.wait_for_seats_taken(2)  # through the waiting room's socket
    host.start_game()
    for player in players:
        player.wait_for_board()
        player.mark_loaded()
    game_id = int(re.search(r"/games/(\d+)/", game_url)[1])

    play_moves(players, 6)
    host.page.fill("#chat-text", "good luck")
    host.page.click("form.chat-post [type=submit]")
    guest.page.wait_for_selector("#chat :text('good luck')", timeout=MOVE_TIMEOUT_MS)

    # Tokens from third pages of each player, so the boards stay open and follow the API moves.
    tokens = {}
    for player in players:
        board_page = player.page
        player.page = player.context.new_page()
        tokens[player.name] = create_token(player)
        player.page.close()
        player.page = board_page
    finish_by_api(live_site_env, live_site, game_id, tokens)
    for player in players:
        player.page.wait_for_selector("#board-score table", timeout=MOVE_TIMEOUT_MS)
        assert player.still_same_page(), "the end of the game must arrive live"

    for path in (
        f"/games/{game_id}/",
        f"/games/{game_id}/replay/",
        f"/games/{game_id}/replay/?move=3",
        f"/games/{game_id}/log/",
        "/history/",
        f"/players/{guest.name}/games/",
        f"/accounts/u/{host.name}/",
        "/leaderboard/",
        "/rules/biblios/biblios/",
        "/rules/biblios/scripts_and_scribes/",
        "/accounts/password/",
        "/notifications/",
        "/",
    ):
        visit(host, path)
    visit(host, f"/accounts/u/{host.name}/")
    assert host.page.query_selector("svg.rating-chart") is not None  # sized by site.css
    visit(host, f"/games/{game_id}/replay/?move=0")
    for step in (1, 2, 3):
        look_at(host)  # between steps, as a player studying the game would
        host.page.keyboard.press("ArrowRight")  # replay.js steps through htmx
        host.page.wait_for_url(re.compile(rf"move={step}$"))
    host.page.wait_for_selector("#replay[data-step='3']")

    # The guest reports the host's message from the chat's report dialog, answered by htmx.
    visit(guest, f"/games/{game_id}/")
    report = guest.page.locator("#chat li:has-text('good luck') details.report")
    report.locator("summary").click()
    look_at(guest)
    report.locator("input[name=reason]").fill("rude")
    with guest.page.expect_response(lambda answer: answer.url.endswith("/report/")) as answer:
        report.locator("[type=submit]").click()
    assert answer.value.status == 200
    guest.page.wait_for_selector("#chat .chat-notice")
    guest.wait_until_settled()

    visitor = Player(browser, live_site, f"visitor{tag}")
    watched.append(Watched(visitor))
    for path in (
        "/accounts/login/",
        "/accounts/signup/",
        "/admin/login/",
        "/",
        f"/games/{game_id}/",
    ):
        visit(visitor, path)

    for each in watched:
        each.check()
    assert any("/replay/" in url for url in watched[0].documents)
    for player in [*players, visitor]:
        player.close()
