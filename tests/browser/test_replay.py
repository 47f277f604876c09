"""The replay viewer in chromium: it opens at the deal, the arrow keys (and Home/End) step
through the moves with the site's own script under its strict policy, and a die's label never
breaks a word, at a phone's width and a desktop's, in each language; and at a phone's width the
last step's final score (four players, the longest headings) stays inside the screen."""

import json
import re

import pytest

from tests.browser.conftest import ARTIFACTS, manage
from tests.browser.players import DESKTOP, PASSWORD, PHONE, Player, unique_tag, watched

# Run by the site's `manage.py shell`: a player and a finished game of each edition (the
# longest printed category names: "Manuscripts", "Iluminadores", "Grimoires Interdits").
SEED = """
import json, random
from accounts.models import User
from tests.play import play_to_end, started_game
host, guest, third, fourth = (
    User.objects.create_user(name + "{tag}", password="{password}",
                             display_name=name.title() + " {tag}")
    for name in ("rhea", "remy", "bartholomew", "maximiliana")
)
games = [
    play_to_end(started_game([host, guest], 2, seed=seed, variant=variant), random.Random(seed)).pk
    for seed, variant in ((17, None), (5, "scripts_and_scribes"))
]
# The widest score table: four players with long names.
crowded = play_to_end(
    started_game([host, guest, third, fourth], 4, seed=9, variant="scripts_and_scribes"),
    random.Random(9),
).pk
print(json.dumps(dict(host=host.username, games=games, crowded=crowded)))
"""

# Each word of each die's label: on one line (a word broken across lines has two boxes) and
# within the label's box.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const name of document.querySelectorAll('.die-name')) {
    const label = name.closest('.die-label').getBoundingClientRect();
    const text = name.firstChild;
    let at = 0;
    for (const word of text.textContent.split(' ')) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const box = range.getBoundingClientRect();
      if (range.getClientRects().length !== 1 || box.right > label.right + 0.5
          || box.left < label.left - 0.5) broken.push(word);
      at += word.length + 1;
    }
  }
  return broken;
}"""


@pytest.fixture(scope="module")
def seeded(live_site_env):
    return json.loads(
        manage(live_site_env, "shell", "--no-imports", "-c",
               SEED.format(tag=unique_tag(), password=PASSWORD))
    )  # fmt: skip


def current_move(player: Player) -> int:
    return int(player.page.get_attribute("#replay", "data-step"))


def press(player: Player, key: str, move: int) -> None:
    player.page.keyboard.press(key)
    player.page.wait_for_selector(f"#replay[data-step='{move}']")
    player.page.wait_for_selector(f"#move-{move}.current")


def test_the_replay_opens_at_the_deal_and_the_arrow_keys_step(live_site, browser, seeded):
    player = Player(browser, live_site, seeded["host"])
    errors = watched(player)
    player.log_in()
    game = seeded["games"][0]
    player.page.goto(f"{live_site}/games/{game}/replay/")
    assert current_move(player) == 0
    last = int(player.page.get_attribute("#replay-move", "max"))
    press(player, "ArrowRight", 1)
    assert re.search(r"[?&]move=1\b", player.page.url)  # the address follows: shareable
    press(player, "ArrowRight", 2)
    press(player, "ArrowLeft", 1)
    press(player, "ArrowLeft", 0)
    press(player, "End", last)
    press(player, "Home", 0)
    assert not errors, errors
    player.close()


@pytest.mark.parametrize("language", ["en", "fr", "es"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_die_labels_never_break_a_word(live_site, browser, seeded, language, viewport):
    player = Player(browser, live_site, seeded["host"], viewport=viewport, locale=language)
    errors = watched(player)
    player.log_in()
    for game in seeded["games"]:
        for path in (f"/games/{game}/replay/?as=open", f"/games/{game}/"):
            player.page.goto(live_site + path)
            player.page.wait_for_selector(".die-name")
            assert player.page.evaluate(BROKEN_WORDS) == [], (language, path)
    assert not errors, errors
    player.close()


# Every box of the final score (its table, chart, tie-breaks and ranking), beyond the window or
# sticking out of the box that holds it, and every box whose content is wider than itself (a
# table scrolling in its own box hides its right-hand columns on a phone as surely as a page
# cut off): each as "what: how far".
SCORE_OVERFLOWS = """() => {
  const found = [];
  const name = (element) => element.tagName.toLowerCase()
    + [...element.classList].slice(0, 2).map((c) => "." + c).join("")
    + (element.textContent.trim() ? ` "${element.textContent.trim().slice(0, 30)}"` : "");
  const score = document.querySelector("#board-score");
  const page = document.documentElement.scrollWidth - innerWidth;
  if (page > 0) found.push(`the page: ${page} px wider than the window`);
  // Visually hidden, for screen readers only: clipped to nothing (a phone's column headings).
  const unseen = (element) => {
    for (let up = element; up; up = up.parentElement) {
      if (!["auto", ""].includes(getComputedStyle(up).clip)) return true;
    }
    return false;
  };
  for (const element of [score, ...score.querySelectorAll("*")]) {
    if (element.closest("svg") && element.tagName.toLowerCase() !== "svg") continue;
    const box = element.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1 || unseen(element)) continue;
    if (box.right > innerWidth + 0.5) {
      found.push(`${name(element)}: ${box.right - innerWidth} px past the window`);
    }
    if (box.left < -0.5) found.push(`${name(element)}: ${-box.left} px left of the window`);
    const holder = element.parentElement.getBoundingClientRect();
    if (element !== score && box.right > holder.right + 0.5) {
      found.push(`${name(element)}: ${box.right - holder.right} px out of its box`);
    }
    const hidden = element.scrollWidth - element.clientWidth;
    if (element.clientWidth && hidden > 1) {
      found.push(`${name(element)}: ${hidden} px scrolled out`);
    }
  }
  return found;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_the_last_steps_score_fits_a_phone(live_site, browser, seeded, language, scheme):
    """The replay's last step ends on the final score; at 360 px its table wraps its cells
    instead of running off the screen or into a box that scrolls them out of sight, in the
    languages with the longest headings and for four players."""
    player = Player(browser, live_site, seeded["host"], viewport=PHONE, locale=language,
                    color_scheme=scheme)  # fmt: skip
    errors = watched(player)
    player.log_in()
    for game in (seeded["crowded"], *seeded["games"]):
        player.page.goto(f"{live_site}/games/{game}/replay/")
        last = player.page.get_attribute("#replay-move", "max")
        player.page.goto(f"{live_site}/games/{game}/replay/?move={last}")
        player.page.wait_for_selector("#board-score table.score")
        assert player.page.get_attribute("html", "lang") == language
        overflows = player.page.evaluate(SCORE_OVERFLOWS)
        if game == seeded["crowded"]:
            player.page.locator("#board-score").screenshot(
                path=ARTIFACTS / f"replay-score-phone-{language}-{scheme}.png"
            )
        assert overflows == [], (language, game, overflows)
    player.page.set_viewport_size(DESKTOP)  # where the score stays one table, as it was
    assert player.page.evaluate(SCORE_OVERFLOWS) == []
    shown = "() => getComputedStyle(document.querySelector('#board-score thead')).display"
    assert player.page.evaluate(shown) == "table-header-group"
    assert not errors, errors
    player.close()
