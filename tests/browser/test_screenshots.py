"""The game page in each language at phone and desktop width, in the light and the dark colour
scheme, as PNGs of the viewport (game-<language>-<device>-<scheme>.png).

Always written to test-artifacts/browser/screenshots/; with UPDATE_SCREENSHOTS=1 also to
docs/screenshots/, the committed pictures the README shows:

    UPDATE_SCREENSHOTS=1 .venv/bin/pytest tests/browser/test_screenshots.py
"""

import contextlib
import os
import shutil
import struct

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import ARTIFACTS, ROOT
from tests.browser.players import play_moves, seat_a_table, unique_tag

LANGUAGES = ["en", "fr", "es"]
VIEWPORTS = {"phone": {"width": 360, "height": 740}, "desktop": {"width": 1280, "height": 800}}
SCHEMES = ["light", "dark"]
# Far enough into the deal that hands, the public space and the log have something in them.
MOVES_BEFORE = 12
SHOTS = ARTIFACTS / "screenshots"
COMMITTED = ROOT / "docs" / "screenshots"
# The elements reaching past the window's right edge, innermost last: what to fix when the
# page is too wide.
STICKING_OUT = """() => [...document.querySelectorAll("body *")]
  .filter((element) => element.getBoundingClientRect().right > innerWidth + 1)
  .slice(-8)
  .map((element) => `${element.tagName.toLowerCase()}.${element.className} ` +
    `(${Math.round(element.getBoundingClientRect().right)} px)`)"""


def png_size(path) -> tuple[int, int]:
    """(width, height) from a PNG's header."""
    with open(path, "rb") as png:
        header = png.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


@pytest.mark.slow(seconds=20)
def test_game_page_in_each_language_at_phone_and_desktop_width_light_and_dark(live_site, browser):
    tag = unique_tag()
    # Plain display names read better in the pictures (no other test uses them).
    players = seat_a_table(
        browser, live_site, [f"ines{tag}", f"jules{tag}"], display_names=["Ines", "Jules"]
    )
    play_moves(players, MOVES_BEFORE)
    # The player who is to move: the picture shows the turn banner and the move's choices.
    shown = next(player for player in players if player.my_turn())
    page = shown.page
    SHOTS.mkdir(parents=True, exist_ok=True)
    update = os.environ.get("UPDATE_SCREENSHOTS") == "1"
    if update:
        COMMITTED.mkdir(parents=True, exist_ok=True)

    for language in LANGUAGES:
        shown.choose_language(language)
        for device, viewport in VIEWPORTS.items():
            page.set_viewport_size(viewport)
            page.wait_for_selector("#board-actions form.action")
            page.wait_for_function("() => document.getAnimations().length === 0")  # cards at rest
            # Nothing sticks out sideways: the page reads without side-scrolling. A phone never
            # shrinks from 1280 px, so the layout gets a moment to settle after the resize.
            with contextlib.suppress(PlaywrightTimeout):  # measured and explained below
                page.wait_for_function(
                    "() => document.documentElement.scrollWidth <= innerWidth", timeout=2_000
                )
            overflow = page.evaluate("document.documentElement.scrollWidth")
            assert overflow <= viewport["width"], (
                f"{language} {device}: the page is {overflow} px wide in a {viewport['width']} px"
                f" viewport; what sticks out: {page.evaluate(STICKING_OUT)}"
            )
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)  # the site's theme is "auto"
                path = SHOTS / f"game-{language}-{device}-{scheme}.png"
                page.screenshot(path=str(path), animations="disabled", caret="hide")
                assert png_size(path) == (viewport["width"], viewport["height"])
                if update:
                    shutil.copyfile(path, COMMITTED / path.name)
    for player in players:
        player.close()
