"""A newcomer learns Ex Libris in chromium without an account: the guided game played to its end
by clicking, each guided step by a button whose move the coach's `data-expect` names, every
other decision as a visitor would (the library's home actions, shelving when offered, Done);
no console error and no policy violation on the way. The first page fits a 360 px phone, and
the scoring demo answers clicks with the engine's totals (tests/kinds/exlibris/site/test_lesson.py
checks the figures)."""

import json

import pytest

from .players import PHONE, SETTLED
from .test_learn import DESKTOP, press_and_wait_for_the_board, watched_page

pytestmark = pytest.mark.slow(seconds=60)

MAX_CLICKS = 200
STEPS = 18

# Every move button of the board (Ex Libris posts one action as JSON per button, on the
# locations, in the move region and in the bookshelf's cells): its index and action.
BUTTONS = """
() => [...document.querySelectorAll("#board button[name=action]")]
  .map((button, index) => [index, JSON.parse(button.value)])
"""


def matches(action: dict, pattern: dict) -> bool:
    return all(action.get(key) == value for key, value in pattern.items())


def visitor(actions: list[dict]) -> dict:
    """The visitor's move where no step guides (as tests/kinds/exlibris/site/test_lesson.py's)."""
    for pattern in (
        {"type": "place", "target": "library"},
        {"type": "shelve"},
        {"type": "draw"},
        {"type": "cell"},
        {"type": "stop"},
        {"type": "done"},
    ):
        found = next((action for action in actions if matches(action, pattern)), None)
        if found:
            return found
    return actions[0]


def click_next_move(page) -> str:
    """Click the move the coach asks for, or the visitor's; returns the step's words."""
    expect = page.locator("#lesson-coach").get_attribute("data-expect")
    say = page.locator(".lesson-say").inner_text() if expect else ""
    offered = page.evaluate(BUTTONS)
    assert offered, "the lesson waits for the learner but shows no move"
    actions = [action for _index, action in offered]
    if expect:
        patterns = json.loads(expect)
        chosen = next(
            (a for a in actions if not patterns or any(matches(a, p) for p in patterns)), None
        )
        assert chosen is not None, f"no button makes the move of step {say!r}"
    else:
        chosen = visitor(actions)
    index = next(index for index, action in offered if action == chosen)
    press_and_wait_for_the_board(page, page.locator("#board button[name=action]").nth(index))
    return say


def test_a_newcomer_plays_the_ex_libris_lesson_to_the_end(browser, live_site, screenshot):
    context, page, errors = watched_page(browser, DESKTOP)
    page.goto(live_site + "/learn/")
    page.locator('a[href="/learn/exlibris/"]').first.click()
    page.wait_for_url("**/learn/exlibris/")
    assert "Step 1 of" in page.locator("#lesson-coach").inner_text()
    steps_seen = []
    for _ in range(MAX_CLICKS):
        if page.locator("#board").get_attribute("data-status") == "finished":
            break
        heading = page.locator("#coach-heading").inner_text()
        if click_next_move(page):
            steps_seen.append(heading)
        assert not page.locator(".lesson-message").count(), page.locator(
            ".lesson-message"
        ).inner_text()
    else:
        pytest.fail("the lesson did not end")
    coach = page.locator("#lesson-coach").inner_text()
    assert "The score, explained" in coach and "B1 stability" in coach
    assert steps_seen == [f"Step {n} of {STEPS}" for n in range(1, STEPS + 1)]
    assert page.locator("#board-score table.xl-form").is_visible()
    screenshot(page, "learn-exlibris-end")
    # From the end to the scoring demo: a card turned down, other categories chosen.
    page.get_by_role("link", name="See how scoring works").click()
    page.wait_for_url("**/learn/exlibris/scoring/")
    total = page.locator("[data-total]").first.get_attribute("data-total")
    page.locator("a[data-toggle]").first.click()
    page.wait_for_function(
        "(total) => document.querySelector('[data-total]').dataset.total !== total"
        " || document.querySelector('[data-reset]')",
        arg=total,
    )
    assert page.locator("[data-reset]").count() == 1
    page.locator("tr[data-category] a.button").first.click()
    page.wait_for_function(SETTLED)
    assert page.locator("#scoring-demo").count() == 1
    screenshot(page, "learn-exlibris-scoring")
    assert errors == []
    context.close()


def test_the_first_step_fits_a_phone(browser, live_site, screenshot):
    context, page, errors = watched_page(browser, PHONE)
    page.goto(live_site + "/learn/exlibris/")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator(".lesson-say").is_visible()
    screenshot(page, "learn-exlibris-phone")
    click_next_move(page)
    assert "Step 2 of" in page.locator("#coach-heading").inner_text()
    click_next_move(page)
    click_next_move(page)  # placed on the Bookshop: its cards are the moves now
    assert "Step 4 of" in page.locator("#coach-heading").inner_text()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert errors == []
    context.close()
