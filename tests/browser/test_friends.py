"""Friends in two real browsers ("Friends"): a request sent from a profile and
accepted on the friends page, each by htmx without reloading the page; an invitation from the
waiting room that reaches the friend's notifications, whose Join button seats them; no console
error on the way."""

import pytest

from tests.browser.players import Player, unique_tag, watched

pytestmark = pytest.mark.slow(seconds=12)


def test_a_request_accepted_and_an_invitation_followed_by_clicking(browser, live_site):
    tag = unique_tag()
    ada = Player(browser, live_site, f"ada{tag}", display_name=f"Ada {tag}")
    basil = Player(browser, live_site, f"basil{tag}", display_name=f"Basil {tag}")
    errors = watched(ada) + watched(basil)
    for player in (ada, basil):
        player.sign_up()

    page = ada.page
    page.goto(f"{live_site}/accounts/u/{basil.name}/")
    ada.mark_loaded()
    page.click(".friend-actions form[action$='/friends/request/'] button")
    page.wait_for_selector(".friend-actions form[action$='/friends/cancel/']")
    assert ada.still_same_page()  # htmx swapped the buttons in place

    page = basil.page
    page.goto(f"{live_site}/friends/")
    basil.mark_loaded()
    page.click("#friend-lists form[action$='/friends/accept/'] button")
    page.wait_for_selector("#friend-lists form[action$='/friends/remove/']")
    assert basil.still_same_page()
    assert page.locator("#friend-lists .friend-message").inner_text().startswith("You and Ada")

    ada.create_table(2)  # the host lands on the table's waiting room
    page = ada.page
    page.select_option("#invite-friend", label=f"Basil {tag}")
    with page.expect_navigation():  # htmx's client redirect back to the table
        page.click("form.invite-friend button")
    assert f"Basil {tag}" in page.locator(".messages").inner_text()

    page = basil.page
    page.goto(f"{live_site}/notifications/")
    with page.expect_navigation():
        page.click("form[action*='/join/'] button")
    page.wait_for_selector("#board-waiting")
    assert page.locator(f"#board-waiting li:has-text('Basil {tag}')").count() == 1
    assert not errors, errors
    ada.close()
    basil.close()
