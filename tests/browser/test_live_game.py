"""Two people (three on the Redis channel layer) play a whole game in their own browsers (the
last on a phone-sized screen), through the real UI, live.

Clicks only: every move is a button on the board, and every other player's move must reach each
browser by the WebSocket push, without reloading. Afterwards the player on the phone
walks through the site's pages, and nothing any page loads may come from outside the site.
"""

from urllib.parse import urldefrag, urlsplit

import pytest

from tests.browser.players import DESKTOP, PHONE, play_moves, seat_a_table, unique_tag
from tests.passes import half_per_pass

pytestmark = pytest.mark.slow(seconds=60)  # a whole game each (tests/conftest.py)

NAMES = ["alice", "bruno", "chiara"]
MAX_MOVES = 600
# Pages no link walk should follow: side effects, other doors, or the admin.
NOT_WALKED = ("/admin/", "/api/", "/accounts/logout/", "/join/", "/static/")
MAX_PAGES = 40
# One whole game in each pass of .ci/run, as the soak chooses its length (test_soak.py): on the
# embedded default's in-memory channel layer, two people, the one on the phone by keyboard alone;
# on Redis (the services pass, the production shape), three, every move pushed to three browsers
# through it. Both games in both passes took three of CI's fifteen minutes.
GAMES = half_per_pass(
    [pytest.param(2, True, id="2p-keyboard-phone"), pytest.param(3, False, id="3p-phone")]
)


@pytest.mark.parametrize("num_players, last_by_keyboard", GAMES)
def test_players_play_a_whole_game_live_in_their_own_browsers(
    live_site, browser, screenshot, num_players, last_by_keyboard
):
    tag = unique_tag()
    # The last player is on a phone: every button must be reachable at 360 px, by mouse or,
    # in the two-player game, by the keyboard alone.
    players = seat_a_table(
        browser,
        live_site,
        [f"{name}{tag}" for name in NAMES[:num_players]],
        viewports=[DESKTOP] * (num_players - 1) + [PHONE],
        # Three browsers animating every push on two cores slow the game by half; the motion
        # has its own test (test_motion.py), this one is about playing live.
        reduced_motion="reduce",
    )
    players[-1].keyboard_only = last_by_keyboard
    screenshot(players[-1].page, f"{num_players}p-start-last-player")

    def take_mid_game_screenshot(move, mover):
        if move == 30:
            screenshot(mover.page, f"{num_players}p-mid-game")

    kinds = play_moves(players, MAX_MOVES, on_move=take_mid_game_screenshot)

    assert all(player.game_over() for player in players), f"not over in {MAX_MOVES} moves"
    screenshot(players[0].page, f"{num_players}p-final-score")
    for player in players:
        assert player.still_same_page(), f"{player.name} reloaded: moves must arrive live"
        winners = player.page.inner_text("#board-score .winner")
        assert any(p.display_name in winners for p in players), winners
        # One score column per player in the breakdown.
        header = player.page.inner_text("#board-score table thead")
        assert all(p.display_name in header for p in players), header
    assert {"bid", "pay"} <= kinds, f"the game never went through an auction purchase: {kinds}"
    # Each mover's board was drawn once, by its socket's push: no move answer carried it too.
    answers = [status for player in players for status in player.move_answers]
    assert answers and set(answers) == {204}, answers
    if last_by_keyboard:
        assert players[-1].tab_presses, "the keyboard player never moved"

    # The player on the phone walks on through the site (the others' walks would load the same
    # pages under another name: a third of this test's time for nothing new).
    walker, game_url = players[-1], players[-1].page.url
    visited = walk_the_site(walker, start=[live_site + "/", game_url])
    paths = {urlsplit(url).path for url in visited}
    game_path = urlsplit(game_url).path
    expected = {
        "/",
        game_path,
        game_path + "replay/",
        game_path + "log/",
        "/history/",
        f"/accounts/u/{walker.name}/",
        "/leaderboard/",
    }
    assert expected <= paths, f"the walk missed {expected - paths}"
    assert any(path.startswith("/rules/") for path in paths), f"no rules page in {paths}"
    for player in players:
        player.close()  # checks what its pages loaded


def walk_the_site(player, start: list[str]) -> list[str]:
    """Visit `start` and every page linked from the pages visited (one visit per path, bounded),
    as this player; returns the URLs visited. Requests are recorded by the player's context."""
    base = player.base
    queue, seen, visited = list(start), set(), []
    while queue and len(visited) < MAX_PAGES:
        url = urldefrag(queue.pop(0)).url
        path = urlsplit(url).path
        if path in seen or not url.startswith(base + "/") or path.startswith(NOT_WALKED):
            continue
        seen.add(path)
        player.page.goto(url, wait_until="load")
        visited.append(url)
        # A download (the game's record) is a file, not a page to walk.
        links = player.page.eval_on_selector_all(
            "a[href]:not([download])", "links => links.map(a => a.href)"
        )
        queue.extend(links)
    return visited
