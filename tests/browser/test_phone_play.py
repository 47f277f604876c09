"""The move's buttons are under the player's eyes on every turn: a person plays a whole game
against a bot on a 360 px phone, and another on a 1280 px desktop, each turn checked in the
light and the dark theme (the page is switched between the two before the click).

The person never scrolls: whatever position the page is in after a move (the site may scroll or
focus something itself, that is its right) is where the next turn is checked, before the click.
On each turn the first move button of `#board-actions` (and the one about to be pressed) must lie
inside the viewport and be the element found at its own centre (nothing sticky or open covers
it); the click is then made with the mouse at that very point. A turn whose button is out of view
is noted and played anyway (the page is put back where it was), so one run lists every turn that
failed, with what was in the way.
"""

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.players import MOVE_TIMEOUT_MS, PHONE, SETTLED, Player, unique_tag

DESKTOP = {"width": 1280, "height": 800}
MAX_TURNS = 200  # a two-player game gives the person about 85
THEMES = ("light", "dark")
MEASURES = 5  # reads of a button that a push keeps redrawing before its last reading stands

# Where a button is and what the page shows at its centre. Runs in the page: a description of
# the element on top, if it is neither the button nor inside it.
WHERE_IS = """
button => {
  const box = button.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const inside = box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0
    && box.right <= innerWidth && box.bottom <= innerHeight;
  const top = inside ? document.elementFromPoint(x, y) : null;
  const describe = (element) => element
    ? element.tagName.toLowerCase() + (element.id ? "#" + element.id : "")
      + [...element.classList].map((name) => "." + name).join("")
    : "nothing";
  return {
    attached: button.isConnected, x, y, inside,
    box: [box.left, box.top, box.right, box.bottom].map(Math.round),
    coveredBy: inside && !(top && (top === button || button.contains(top))) ? describe(top) : null,
    scrollY: Math.round(scrollY),
    label: button.textContent.trim().slice(0, 40),
  };
}
"""
# The person's turn has come (or the game is over), drawn and still: htmx has settled and no
# card is on its way (an endless animation, such as a pulsing turn marker, may run).
MY_TURN_OR_OVER = """() => !document.querySelector('.htmx-added')
  && document.getAnimations().every((animation) => animation.playState !== 'running'
    || animation.effect?.getComputedTiming().iterations === Infinity)
  && (document.querySelector('#board-banner.my-turn')
        && document.querySelector('#board-actions form.action')
      || document.querySelector('#board-score table'))"""


def problem(place: dict, viewport: dict) -> str | None:
    """What keeps a player from seeing and pressing the button at `place`, or None."""
    if not place["inside"]:
        return (
            f"{place['label']!r} at {place['box']} (left, top, right, bottom) is outside the"
            f" {viewport['width']}x{viewport['height']} viewport (page scrolled to"
            f" {place['scrollY']})"
        )
    if place["coveredBy"]:
        return f"{place['label']!r} at {place['box']} is covered by {place['coveredBy']}"
    return None


def where_is(button) -> dict:
    """WHERE_IS of `button` as the page stands. Playwright finds the element, then measures it,
    in two calls: a push that redraws its region between them leaves a detached button with a
    zero box, which no player ever sees. The button is then found and measured again once htmx
    has settled (a button hidden on the page keeps its zero box and is reported)."""
    for _ in range(MEASURES):
        place = button.evaluate(WHERE_IS)
        if place["attached"]:
            return place
        button.page.wait_for_function(SETTLED, timeout=MOVE_TIMEOUT_MS)
    return place


def play_turns(person: Player, viewport: dict, shot_name: str) -> tuple[int, list[str]]:
    """Play the person's turns (the bot plays its own) until the game is over or MAX_TURNS are
    played, checking each turn in both themes; returns how many were played and every failed
    check, by turn. The first turn that fails is saved as
    test-artifacts/browser/<shot_name>-<theme>-turn-<n>.png."""
    page = person.page
    failures = []
    for turn in range(MAX_TURNS):
        page.wait_for_function(MY_TURN_OR_OVER, timeout=MOVE_TIMEOUT_MS)
        if person.game_over():
            return turn, failures
        kind, chosen = person.sensible_move()
        first = page.locator("#board-actions button[type=submit]").first
        for theme in THEMES:
            page.emulate_media(color_scheme=theme)
            place = where_is(chosen)
            # The same button checked twice gives the same words, noted once.
            troubles = dict.fromkeys(
                f"turn {turn + 1} ({kind}, {theme}), {which}: {trouble}"
                for which, where in (("first button", where_is(first)), ("pressed", place))
                if (trouble := problem(where, viewport))
            )
            if troubles and not failures:
                page.screenshot(path=str(ARTIFACTS / f"{shot_name}-{theme}-turn-{turn + 1}.png"))
            failures += troubles
        version = person.version()
        if problem(place, viewport):
            chosen.click()  # scrolls, as the person would have had to
            page.evaluate(f"window.scrollTo(0, {place['scrollY']})")
        else:
            page.mouse.click(place["x"], place["y"])
        person.wait_for_version_above(version)
    return MAX_TURNS, failures


def seat_against_a_bot(browser, base: str, name: str, viewport: dict, color_scheme: str) -> Player:
    # Without motion, each turn is checked once the board is drawn, not after its cards have
    # glided (about 0.8 s a turn, a minute a game): the motion has its own test (test_motion.py)
    # and changes no place where a button comes to rest.
    person = Player(
        browser, base, name, viewport=viewport, color_scheme=color_scheme, reduced_motion="reduce"
    )
    person.sign_up()
    person.create_table(2, bots=["novice"])
    person.wait_for_board()
    person.mark_loaded()
    return person


@pytest.mark.parametrize(
    "viewport",
    [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")],
)
@pytest.mark.slow(seconds=50)
def test_a_whole_game_never_needs_a_scroll_to_find_the_move(live_site, browser, viewport):
    width = viewport["width"]
    person = seat_against_a_bot(browser, live_site, f"phil{width}{unique_tag()}", viewport, "light")
    turns, failures = play_turns(person, viewport, f"play-{width}")
    assert person.game_over(), f"the game is not over after {turns} turns of the person"
    assert person.still_same_page(), "every move must arrive live"
    listing = "\n".join(failures)
    assert not failures, f"{len(failures)} problems in {turns} turns at {width} px:\n{listing}"
    person.close()
