"""Ex Libris in a real browser: a person plays a whole three-player game against the
greedy and the random bot by clicking, while a spectator's browser follows it live; and the
board's pictures in each language at phone and desktop width, light and dark.

The person first sits down alone at a solo table from the lobby's menu. The three-player game
is then made in the live site's database through the services (the site's `manage.py shell`, as
tests/browser/test_pages.py seeds its games) so that its deal is always the same, and the
browsers drive its board. The lobby's form for every mode is tested in
tests/exlibris_site/test_tables.py.

The person's choices: shelving first (a card from hand, then a highlighted cell of the
bookshelf), then "done" or "pass" to end optional steps, otherwise any button at random (a fixed
seed). That ends a game in about 80 of the person's moves, with every kind of button pressed.

Pictures: always in test-artifacts/browser/screenshots/ (exlibris-<language>-<device>-<scheme>.png
of the viewport, and -full.png of the whole page to look over); with UPDATE_SCREENSHOTS=1 the
viewport ones are also copied to docs/screenshots/:

    UPDATE_SCREENSHOTS=1 .venv/bin/pytest -p no:randomly tests/browser/test_exlibris.py
"""

import json
import os
import random
import re
import shutil

import pytest

from tests.browser.conftest import ARTIFACTS, ROOT, manage
from tests.browser.players import DESKTOP, MOVE_TIMEOUT_MS, PASSWORD, PHONE, Player, unique_tag
from tests.kinds.exlibris.site.helpers import LOG_PARTS, cards_in

# Run by the site's `manage.py shell`: the person and the spectator, and a started three-player
# table of the person (seat 0), the greedy bot and the random bot, spectators welcome. Prints
# the names and the game's id as JSON.
SEED = """
import json
from accounts.models import User
from tests.kinds.exlibris.site.helpers import open_table

person, spectator = (
    User.objects.create_user(name + "{tag}", password="{password}", display_name=shown)
    for name, shown in (("livia", "Livia {tag}"), ("sven", "Sven {tag}"))
)
game = open_table([person], 3, bots=("greedy", "random"), seed={seed})
print(json.dumps(dict(person=person.username, spectator=spectator.username, game=game.pk)))
"""
GAME_SEED = 2026
PHONE_MOVES = 25  # about the first two rounds; the rest of the game is played at desktop width
MAX_MOVES = 250  # the person's; a game takes about 80
SCREENSHOT_MOVE = 30  # mid-game: locations, bookshelves and the log have something in them
LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "es": "es-ES"}
SCREEN_SIZES = {"phone": PHONE, "desktop": {"width": 1280, "height": 800}}
SCHEMES = ("light", "dark")
SHOTS = ARTIFACTS / "screenshots"
COMMITTED = ROOT / "docs" / "screenshots"

# The person may act (a move button is drawn and htmx has settled), or the game is over.
MY_TURN_OR_OVER = """() => !document.querySelector('.htmx-added')
  && (document.querySelector('#board-banner.my-turn')
        && document.querySelector('#board button[name=action]')
      || document.querySelector('#board-score table'))"""
# Every move button of the board: the region it is in, and its action.
MOVE_BUTTONS = """() => [...document.querySelectorAll('#board button[name=action]')].map(
  (button) => ({region: button.closest('.region').id, action: button.value}))"""
# A board's version and the cards of the reader's hand.
HAND = """() => ({
  version: +document.querySelector('#board-message').dataset.version,
  hand: [...document.querySelectorAll('#board-mine .xl-hand [data-card]')]
    .map((card) => card.dataset.card)})"""
# A board's version and the whole page, read at once.
PAGE = """() => ({
  version: +document.querySelector('#board-message').dataset.version,
  html: document.documentElement.outerHTML})"""
SAME_VERSION_TRIES = 20
# The move bar's height as a share of the window's: on a phone it stays under MAX_BAR_SHARE
# (a long list of moves scrolls inside the bar), so the board is still in sight above it.
BAR_SHARE = """() => document.querySelector('#board-actions').getBoundingClientRect().height
  / window.innerHeight"""
MAX_BAR_SHARE = 0.4
# The move buttons that something else covers at their centre once scrolled into view, their
# bottom edge on the window's (as Tab or a link brings them): on desktop the move bar, stuck to
# the bottom of the window, must cover none, the locations' placement buttons included.
COVERED_BUTTONS = """() => [...document.querySelectorAll('#board button[name=action]')]
  .filter((button) => button.checkVisibility())
  .map((button) => {
    button.scrollIntoView({block: 'end'});
    const box = button.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return button.contains(hit) ? null : `${button.closest('.region').id} "${
      button.textContent.trim() || button.ariaLabel}" under ${hit?.closest('[id]')?.id}`;
  })
  .filter(Boolean)"""
REGION_OF_BUTTONS = {"board-shelves": "cell", "board-tiles": "tile", "board-actions": "move area"}


class Watched(Player):
    """A Player whose console errors and uncaught exceptions are noted, on every page it opens."""

    def __init__(self, *arguments, **settings):
        super().__init__(*arguments, **settings)
        self.errors: list[str] = []
        self._note_errors(self.page)
        self.context.on("page", self._note_errors)

    def _note_errors(self, page) -> None:
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: uncaught {error}"))
        page.on(
            "console",
            lambda message: (
                message.type == "error" and self.errors.append(f"{page.url}: {message.text}")
            ),
        )

    def open_board(self, url: str) -> None:
        """The game page, its board drawn (the regions are empty on the waiting room's
        skeleton)."""
        self.page.goto(url)
        self.page.wait_for_selector("#board-players li", timeout=MOVE_TIMEOUT_MS)
        self.mark_loaded()


def person_choice(buttons: list[dict], rng: random.Random) -> int:
    """The index of the button the person presses: a shelving (the card, then its cell) when
    there is one, else the end of an optional step, else any."""
    for wanted in (("shelve",), ("cell",), ("done", "pass")):
        found = [i for i, button in enumerate(buttons) if button["action"]["type"] in wanted]
        if found:
            return rng.choice(found)
    return rng.randrange(len(buttons))


def assert_spectator_sees_no_hand_card(person: Player, spectator: Player, revealed: set) -> None:
    """At the person's turn, once both boards show the same version (the bots wait for the
    person, but in the pre-scoring flips everyone decides at once): the spectator's board shows
    none of the person's hand cards (X77) but those shown at the Yard Sale (X51). The log is
    left out: it rightly names a card that was face up when it went to the person's hand (a
    Community Center gift); tests/exlibris_site checks every log line and frame against what
    its reader was shown."""
    for _ in range(SAME_VERSION_TRIES):
        mine = person.page.evaluate(HAND)
        spectator.wait_for_version_above(mine["version"] - 1)
        watched = spectator.page.evaluate(PAGE)
        if watched["version"] == mine["version"]:
            break
        person.wait_for_version_above(watched["version"] - 1)
    else:
        raise AssertionError(f"the spectator's board never showed the person's version {mine}")
    leaked = (cards_in(LOG_PARTS.sub("", watched["html"])) & set(mine["hand"])) - revealed
    assert not leaked, (
        f"the spectator's board shows {sorted(leaked)} of the hand at version {mine['version']}"
    )


def sit_down_alone_from_the_lobby(person: Player) -> None:
    """A person alone sits down at Ex Libris from the lobby's game menu: the solo table
    starts at once and asks the game's first decision."""
    page = person.page
    page.goto(person.base + "/")
    page.select_option("select[name=variant]", "exlibris/standard")
    page.select_option("select[name=num_players]", "1")
    page.click("form[action$='/tables/new/'] [type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector("#board-banner.my-turn", timeout=MOVE_TIMEOUT_MS)
    assert "Ex Libris" in page.inner_text("h1"), "the board names its game"
    assert page.query_selector("#board button[name=action]"), "the solo game asks something"


def seed_game(live_site_env) -> dict:
    """The person's and the spectator's user names and the started game's id."""
    code = SEED.format(tag=unique_tag(), password=PASSWORD, seed=GAME_SEED)
    return json.loads(manage(live_site_env, "shell", "--no-imports", "-c", code))


def take_screenshots(browser, base: str, person: Player, game_url: str) -> list[str]:
    """The board as the person sees it, in a fresh browser per language (its Accept-Language;
    the person's profile names none), at each width and scheme. Returns what sticks out of the
    window's right edge, per picture."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    update = os.environ.get("UPDATE_SCREENSHOTS") == "1"
    if update:
        COMMITTED.mkdir(parents=True, exist_ok=True)
    logged_in = person.context.storage_state()
    too_wide = []
    for language, locale in LANGUAGES.items():
        # Opened at phone width and measured there first: a layout shrunk from 1280 px to 360 px
        # may take a moment to settle (tests/browser/test_screenshots.py).
        viewer = Watched(
            browser, base, person.name, viewport=PHONE, locale=locale, storage_state=logged_in
        )
        viewer.open_board(game_url)
        viewer.page.wait_for_selector(f"html[lang='{language}']", state="attached")
        for device, viewport in SCREEN_SIZES.items():
            viewer.page.set_viewport_size(viewport)
            width = viewer.page.evaluate("() => document.documentElement.scrollWidth")
            if width > viewport["width"]:
                too_wide.append(f"{language} {device}: {width} px in {viewport['width']} px")
            for scheme in SCHEMES:
                viewer.page.emulate_media(color_scheme=scheme)
                name = f"exlibris-{language}-{device}-{scheme}"
                shot = dict(animations="disabled", caret="hide")
                viewer.page.screenshot(path=str(SHOTS / f"{name}.png"), **shot)
                viewer.page.screenshot(path=str(SHOTS / f"{name}-full.png"), full_page=True, **shot)
                if update:
                    shutil.copyfile(SHOTS / f"{name}.png", COMMITTED / f"{name}.png")
        assert not viewer.errors, f"console errors in {language}: {viewer.errors}"
        viewer.close()
    return too_wide


@pytest.mark.slow(seconds=55)
def test_a_person_plays_a_whole_game_against_two_bots_and_a_spectator_follows(
    live_site, live_site_env, browser
):
    """X86: every move is a button of the board (cells of the bookshelf, placements on the
    locations, the rest in the move area); X77: the spectator never sees the person's hand;
    X67–X76: both boards end on the inspection. At each of the person's moves, the layout: on
    the phone the move bar leaves most of the screen to the board, on desktop it hides no move
    button."""
    made = seed_game(live_site_env)
    game_url = f"{live_site}/games/{made['game']}/"
    # The spectator's board plays every move's motion; the person's spares it (a little faster).
    person = Watched(browser, live_site, made["person"], viewport=PHONE, reduced_motion="reduce")
    spectator = Watched(browser, live_site, made["spectator"], viewport=DESKTOP)
    for player in (person, spectator):
        player.log_in()
    sit_down_alone_from_the_lobby(person)
    for player in (person, spectator):
        player.open_board(game_url)
    assert person.page.evaluate(HAND)["hand"], "the person's hand is not drawn: nothing to check"
    assert spectator.page.query_selector("#board-mine .xl-hand") is None
    rng = random.Random(GAME_SEED)
    pressed = {"phone": set(), "desktop": set()}
    revealed: set[str] = set()
    too_wide = []
    page = person.page
    for move in range(MAX_MOVES):
        page.wait_for_function(MY_TURN_OR_OVER, timeout=MOVE_TIMEOUT_MS)
        if person.game_over():
            break
        assert_spectator_sees_no_hand_card(person, spectator, revealed)
        if move == PHONE_MOVES:
            page.set_viewport_size(DESKTOP)
        if move == SCREENSHOT_MOVE:
            too_wide = take_screenshots(browser, live_site, person, game_url)
        buttons = [
            {"region": button["region"], "action": json.loads(button["action"])}
            for button in page.evaluate(MOVE_BUTTONS)
        ]
        chosen = person_choice(buttons, rng)
        action = buttons[chosen]["action"]
        if action["type"] == "reveal":
            revealed.add(action["card"])
        device = "phone" if move < PHONE_MOVES else "desktop"
        if device == "phone":
            share = page.evaluate(BAR_SHARE)
            assert share <= MAX_BAR_SHARE, f"move {move}: the move bar takes {share:.0%} of a phone"
        else:
            covered = page.evaluate(COVERED_BUTTONS)
            assert not covered, f"move {move}: move buttons covered on desktop: {covered}"
        pressed[device].add(REGION_OF_BUTTONS[buttons[chosen]["region"]])
        version = person.version()
        page.locator("#board button[name=action]").nth(chosen).click()
        person.wait_for_version_above(version)
    assert person.game_over(), f"the game is not over after {MAX_MOVES} moves of the person"
    for player in (person, spectator):
        player.page.wait_for_selector("#board-score table.xl-form")
        assert player.page.is_visible("#board-score"), f"{player.name} sees no inspection"
        assert player.still_same_page(), f"{player.name}'s board was reloaded: moves came live"
    assert spectator.version() == person.version(), "the spectator's board stopped short"
    totals = [
        player.page.locator("#board-score tfoot td").all_inner_texts()
        for player in (person, spectator)
    ]
    assert len(totals[0]) == 3 and totals[0] == totals[1], f"the totals differ: {totals}"
    for device, regions in pressed.items():
        assert regions == set(REGION_OF_BUTTONS.values()), f"on the {device}: only {regions}"
    assert not too_wide, f"the board is wider than the window: {too_wide}"
    for player in (person, spectator):
        assert not player.errors, f"{player.name}'s console: {player.errors}"
        player.close()


# Run by the site's `manage.py shell`: three people at a table (so nothing moves unless told),
# played through the services by random legal moves into the third round, up to a decision of
# another seat than the first person's. Prints the people's names and the game's id as JSON.
MID_GAME = """
import json, random
from accounts.models import User
from games.access import Visitor
from games.play import selectors, services
from games.models import Game
from tests.kinds.exlibris.site.helpers import open_table

people = [
    User.objects.create_user(
        f"{{name}}{tag}", password="{password}", display_name=f"{{name}} {tag}"
    )
    for name in ("ines", "otto", "pia")
]
game = open_table(people, 3, seed={seed})
rng = random.Random({seed})
while True:
    game.refresh_from_db()
    state = game.engine_state()
    boards = [selectors.board_for(game, Visitor.of(game, person)) for person in people]
    acting = [seat for seat, board in enumerate(boards) if board["legal_actions"]]
    if state["round"] >= 3 and acting and 0 not in acting:
        break
    seat = acting[0]
    action = rng.choice(boards[seat]["legal_actions"])
    services.submit_action(game.pk, people[seat], action, version=boards[seat]["version"])
print(json.dumps(dict(people=[p.username for p in people], game=game.pk, acting=acting[0])))
"""
FOLDS = """() => [...document.querySelectorAll('#board-tiles details[data-fold]')].map(
  (fold) => ({
    key: fold.dataset.fold, open: fold.open, server: fold.hasAttribute('data-fold-open')}))"""
PAGE_HEIGHT = "() => document.documentElement.scrollHeight"
MAX_PHONE_HEIGHT = 1800


def test_on_a_phone_the_locations_fold_and_a_folded_one_opens_on_tap(
    live_site, live_site_env, browser
):
    """Mid-game at 360 px, the locations the reader has nothing at are folded to their names
    (the page stays short); a tap opens one, and it stays open when the next push redraws the
    locations."""
    code = MID_GAME.format(tag=unique_tag(), password=PASSWORD, seed=GAME_SEED)
    made = json.loads(manage(live_site_env, "shell", "--no-imports", "-c", code))
    person = Watched(browser, live_site, made["people"][0], viewport=PHONE, reduced_motion="reduce")
    person.log_in()
    person.open_board(f"{live_site}/games/{made['game']}/")
    page = person.page
    page.wait_for_function("() => window.__biblios_board_frames > 0", timeout=MOVE_TIMEOUT_MS)
    folds = page.evaluate(FOLDS)
    assert all(fold["open"] == fold["server"] for fold in folds), folds
    folded = [fold["key"] for fold in folds if not fold["open"]]
    assert folded, f"nothing folded: {folds}"
    height = page.evaluate(PAGE_HEIGHT)

    tapped = page.locator(f"#board-tiles details[data-fold='{folded[0]}']")
    tapped.locator("summary").click()
    assert tapped.evaluate("(fold) => fold.open")
    assert tapped.locator(".xl-slots").is_visible()

    # The seat asked moves from its own browser: the person's board gets the push.
    version = person.version()
    mover = Watched(browser, live_site, made["people"][made["acting"]], viewport=DESKTOP)
    mover.log_in()
    mover.open_board(f"{live_site}/games/{made['game']}/")
    mover.page.wait_for_function("() => window.__biblios_board_frames > 0")
    mover.wait_until_settled()
    mover.page.locator("#board button[name=action]").first.click()
    person.wait_for_version_above(version)
    page.wait_for_function("() => !document.querySelector('.htmx-added, .htmx-settling')")
    still = {fold["key"]: fold for fold in page.evaluate(FOLDS)}
    if folded[0] in still and not still[folded[0]]["server"]:
        assert still[folded[0]]["open"], "the push folded again what the person had opened"

    closed = page.locator("#board-tiles details:not([open]) > summary")
    while closed.count():
        closed.first.click()
    unfolded = page.evaluate(PAGE_HEIGHT)
    print(f"page height at 360 px: {height} px folded, {unfolded} px with every location open")
    assert height < MAX_PHONE_HEIGHT, f"{height} px tall mid-game on a phone"
    assert height < unfolded
    for player in (person, mover):
        assert not player.errors, player.errors
        player.close()
