"""A newcomer follows a private table's invite link in a real browser: the page says whose table
it is, its sign-up link leads back to the link, and the new account lands seated at the table
(which the lobby would not have listed). Their navigation counts nothing unread until the host
starts the game while they look at another page, then one notice: the site has no "someone
joined your table" notice, the start is what it tells the players who are not watching."""

import re

import pytest

from tests.browser.players import (
    MOVE_TIMEOUT_MS,
    PASSWORD,
    Player,
    unique_tag,
    watched,
)

pytestmark = pytest.mark.slow(seconds=10)


def unread(player: Player) -> str:
    return player.page.evaluate("() => document.getElementById('nav-unread').textContent")


def test_a_newcomer_signs_up_from_the_invite_link_and_lands_seated(browser, live_site):
    tag = unique_tag()
    alice = Player(browser, live_site, f"alice{tag}", display_name=f"Alice {tag}")
    newcomer = Player(browser, live_site, f"newbie{tag}", display_name=f"Newbie {tag}")
    errors = watched(alice) + watched(newcomer)
    alice.sign_up()

    page = alice.page
    page.goto(f"{live_site}/")
    page.select_option("select[name=num_players]", "2")
    page.check("input[name=private]")
    page.click("form[action$='/tables/new/'] [type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    table_url = page.url
    invite = page.get_attribute("#board-waiting a[href*='/join/']", "href")

    # Logged out, the link says whose table it is and which game.
    visit = newcomer.page
    visit.goto(invite)
    heading = visit.inner_text("main h1")
    assert heading == f"Sign up to join Alice {tag}'s table", heading
    assert "Biblios" in visit.inner_text("main .invite-game")
    assert visit.locator("main a[href*='/accounts/login/?next=%2Fjoin%2F']").count() == 1

    with visit.expect_navigation():
        visit.click("#invite-signup")
    visit.fill("input[name=username]", newcomer.name)
    visit.fill("input[name=display_name]", newcomer.display_name)
    visit.fill("input[name=password1]", PASSWORD)
    visit.fill("input[name=password2]", PASSWORD)
    visit.click("main form[action$='/accounts/signup/'] [type=submit]")
    visit.wait_for_url(table_url)

    # Seated: both browsers show the newcomer in a seat, the host's through its socket.
    seats = visit.locator("#board-waiting ol.waiting-seats > li")
    assert seats.count() == 2
    assert newcomer.display_name in seats.nth(1).inner_text()
    alice.wait_for_seats_taken(2)
    assert unread(newcomer) == ""

    # The newcomer looks elsewhere; the start reaches their navigation live.
    visit.goto(f"{live_site}/rules/")
    newcomer.mark_loaded()
    alice.start_game()
    visit.wait_for_function(
        "() => document.getElementById('nav-unread').textContent === '1'",
        timeout=MOVE_TIMEOUT_MS,
    )
    assert newcomer.still_same_page()
    assert unread(alice) == ""  # the host started it: nothing to tell her
    assert not errors, errors
    alice.close()
    newcomer.close()
