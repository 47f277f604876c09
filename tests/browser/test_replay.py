"""The replay viewer in chromium: it opens at the deal, the arrow keys (and Home/End) step
through the moves with the site's own script under its strict policy, and a die's label never
breaks a word, at a phone's width and a desktop's, in each language."""

import json
import re

import pytest

from tests.browser.conftest import manage
from tests.browser.players import DESKTOP, PASSWORD, PHONE, Player, unique_tag, watched

# Run by the site's `manage.py shell`: a player and a finished game of each edition (the
# longest printed category names: "Manuscripts", "Iluminadores", "Grimoires Interdits").
SEED = """
import json, random
from accounts.models import User
from tests.play import play_to_end, started_game
host, guest = (
    User.objects.create_user(name + "{tag}", password="{password}",
                             display_name=name.title() + " {tag}")
    for name in ("rhea", "remy")
)
games = [
    play_to_end(started_game([host, guest], 2, seed=seed, variant=variant), random.Random(seed)).pk
    for seed, variant in ((17, None), (5, "scripts_and_scribes"))
]
print(json.dumps(dict(host=host.username, games=games)))
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
