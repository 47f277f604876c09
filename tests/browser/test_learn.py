"""A newcomer learns Biblios in chromium without an account: the guided game played to its end
by clicking, each guided step by the button it names (the coach's `data-expect`), every other
decision by the first button on the board (at auctions the lowest bid the learner can pay
for a category or Church card, else Pass); no console error and no policy violation on the way.
Its first page also fits a 360 px phone with its move in view, and the scoring demo answers
clicks."""

import json

import pytest

from .players import PHONE, REPORT_VIOLATIONS, SETTLED

pytestmark = pytest.mark.slow(seconds=45)

DESKTOP = {"width": 1280, "height": 800}
MAX_CLICKS = 300

# The index of the first move button in #board-actions that makes one of the step's moves (its
# form's fields and its own name and value hold the pattern's values; a button's value may name
# several, comma-separated), or of the first button when the step takes any move.
TAUGHT_BUTTON = """
(patterns) => {
  const buttons = [...document.querySelectorAll("#board-actions form button[type=submit]")];
  const values = (button, name) => [
    ...[...button.form.querySelectorAll(`input[name="${name}"]`)]
      .filter((input) => input.type !== "checkbox" || input.checked).map((input) => input.value),
    ...(button.name === name ? button.value.split(",") : []),
  ];
  const matches = (button, pattern) => Object.entries(pattern).every(([name, value]) =>
    JSON.stringify(values(button, name)) ===
      JSON.stringify(Array.isArray(value) ? value.map(String) : [String(value)]));
  return buttons.findIndex((button) =>
    !patterns.length || patterns.some((pattern) => matches(button, pattern)));
}
"""


def watched_page(browser, viewport):
    context = browser.new_context(viewport=viewport, locale="en-GB")
    context.add_init_script(REPORT_VIOLATIONS)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(f"uncaught {error}"))
    page.on(
        "console",
        lambda message: errors.append(message.text) if message.type == "error" else None,
    )
    return context, page, errors


def click_next_move(page) -> str:
    """Click the move the coach asks for, or the first visible one; returns the step's words."""
    coach = page.locator("#lesson-coach")
    expect = coach.get_attribute("data-expect")
    say = page.locator(".lesson-say").inner_text() if expect else ""
    if expect:
        index = page.evaluate(TAUGHT_BUTTON, json.loads(expect))
        assert index >= 0, f"no button makes the move of step {say!r}"
        button = page.locator("#board-actions form button[type=submit]").nth(index)
    elif page.locator("#board-actions form.action-pass").count():
        # At an auction: the lowest bid on a category or Church card the learner can pay for
        # (the payable bid's box, counted in Gold), or a pass (tests/learn/helpers.py).
        label = page.locator("label[for=bid-amount]")
        payable = label.count() and label.inner_text().endswith("Gold)")
        form = "form.action-bid:has(#bid-amount)" if payable else "form.action-pass"
        button = page.locator(f"#board-actions {form} button")
    else:
        button = page.locator("#board-actions form button[type=submit]:visible").first
    press_and_wait_for_the_board(page, button)
    return say


def press_and_wait_for_the_board(page, button) -> None:
    """Click a move's button, then wait until the next board is drawn and htmx has settled."""
    version = page.locator("#board").get_attribute("data-version")
    button.click()
    page.wait_for_function(
        "(version) => document.querySelector('#board')?.dataset.version !== version",
        arg=version,
    )
    page.wait_for_function(SETTLED)


def test_a_newcomer_plays_the_guided_game_to_the_end(browser, live_site, screenshot):
    context, page, errors = watched_page(browser, DESKTOP)
    page.goto(live_site + "/")
    page.get_by_role("link", name="Learn to play").first.click()
    page.get_by_role("link", name="Start the guided game of Biblios").click()
    assert page.url.endswith("/learn/biblios/")
    assert "Step 1 of" in page.locator("#lesson-coach").inner_text()
    screenshot(page, "learn-biblios-first-step")
    steps_seen = []
    for _ in range(MAX_CLICKS):
        if page.locator("#board").get_attribute("data-status") == "finished":
            break
        heading = page.locator("#coach-heading").inner_text()
        said = click_next_move(page)
        if said:
            steps_seen.append(heading)
        assert not page.locator(".lesson-message").count(), page.locator(
            ".lesson-message"
        ).inner_text()
    else:
        pytest.fail("the lesson did not end")
    coach = page.locator("#lesson-coach").inner_text()
    assert "The score, explained" in coach
    assert "victory points" in coach
    assert steps_seen[0] == "Step 1 of 14" and len(steps_seen) == 14 == len(set(steps_seen))
    assert page.locator("#board-score table.score").is_visible()
    screenshot(page, "learn-biblios-end")
    # From the end to the scoring demo, where a die moves and a category is explained.
    page.get_by_role("link", name="See how scoring works", exact=True).click()
    page.wait_for_url("**/learn/biblios/scoring/")
    monks = page.locator("tr[data-category=monks] .die-value")
    before = int(monks.inner_text())
    page.locator("tr[data-category=monks] a[data-move]").first.click()
    page.wait_for_function(
        "(before) => document.querySelector('tr[data-category=monks] .die-value').textContent"
        ".trim() !== String(before)",
        arg=before,
    )
    page.locator("a[data-explain=pigments]").click()
    page.wait_for_selector(".scoring-explained")
    assert page.locator("#scoring-demo").count() == 1
    screenshot(page, "learn-biblios-scoring")
    assert errors == []
    context.close()


def test_the_first_step_fits_a_phone(browser, live_site, screenshot):
    context, page, errors = watched_page(browser, PHONE)
    page.goto(live_site + "/learn/biblios/")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    assert page.locator(".lesson-say").is_visible()
    button = page.locator("#board-actions form button[type=submit]").first
    box = button.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    screenshot(page, "learn-biblios-phone")
    click_next_move(page)
    assert "Step 2 of" in page.locator("#coach-heading").inner_text()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []
    context.close()
