"""Every page of the site, rendered by chromium in English, French and Spanish, in the light and
the dark colour scheme: no console error or uncaught exception, every number in an SVG written as
a number (a French "16,0" is no coordinate), no page wider than the window (at 360 px too) nor
any box on it hiding part of its content sideways (a table scrolling in its own box), and
every visible text at least 4.5:1 against what is behind it (WCAG AA, for every text size
alike).

The site's database is seeded once per test process (through the services, in the site's own
`manage.py shell`): two people have played a rated game to its end, have a second one going and
a table waiting, so the pages have a score chart, a replay, a whole log, a rating chart, a game
in play and a waiting room to show. The pages are walked as one of them (at desktop size, then
most of them again at 360 px, whose layout has bars, menus and drawers of its own) and as a
visitor. Each (language, scheme) walk is one test, which checks everything the walk found;
contrast is read on the English walk of each scheme (colours do not depend on the language).

Contrast is computed on the rendered page: the text's colour (an SVG text's fill) against the
background colours of its ancestors, blended from the canvas up through every translucent layer,
the element's opacities applied. It cannot see a background an element does not inherit from its
ancestors (a positioned overlay, an SVG shape drawn behind an SVG text). A gradient on the way up
counts as each of its colour stops (the worst one decides); text over a picture cannot be
measured and is left out with a warning that lists it. Disabled controls (WCAG exempts them) and
text hidden from sight (closed menus and details, visually-hidden labels) are left out too.
"""

import json
import warnings
from collections import Counter

import pytest

from tests.browser.conftest import manage
from tests.browser.players import PASSWORD, PHONE, SETTLED, Player, unique_tag

LANGUAGES = ["en", "fr", "es"]
SCHEMES = ["light", "dark"]
MIN_CONTRAST = 4.5
MOVES_IN_PLAY = 8
REPLAY_MOVE = 5
SHOWN_FAILURES = 60

# Every SVG attribute that holds numbers: one number (a length may have a unit), a list of them,
# or a path or transform. Runs in the page; returns each attribute that does not parse.
SVG_NUMBERS = r"""
() => {
  const NUMBER = "[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?";
  const LENGTH = new RegExp(`^${NUMBER}(?:px|em|ex|rem|%|pt|pc|cm|mm|in)?$`);
  const SINGLE = ["x", "y", "width", "height", "cx", "cy", "r", "rx", "ry", "x1", "x2", "y1",
    "y2", "dx", "dy", "fx", "fy", "stroke-width", "font-size", "opacity", "fill-opacity",
    "stroke-opacity", "stop-opacity", "offset", "stroke-dashoffset", "stroke-miterlimit",
    "pathLength", "refX", "refY", "markerWidth", "markerHeight", "letter-spacing"];
  const ARITY = { m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 };
  const FUNCTION_ARGUMENTS = { translate: [1, 2], scale: [1, 2], rotate: [1, 3], skewx: [1],
    skewy: [1], matrix: [6] };
  const numbersIn = (text) => text.trim() === "" ? [] : text.trim().split(/[\s,]+/);
  const isNumber = (token) => new RegExp(`^${NUMBER}$`).test(token);
  // "10,5 20,5" is two points; "10,5,20,5" is the decimal commas of two numbers.
  const pairedAtMost = (text) => text.split(/\s+/).every((group) => group.split(",").length <= 2);
  const path = (d) => {
    const tokens = d.match(new RegExp(`[A-Za-z]|${NUMBER}`, "g")) || [];
    if (d.replace(new RegExp(`[A-Za-z]|${NUMBER}|[\\s,]`, "g"), "") !== "") return false;
    if (!pairedAtMost(d.replace(/[A-Za-z]/g, " "))) return false;
    let command = null, count = 0;
    const complete = () => command === null
      || (ARITY[command] === 0 ? count === 0 : count > 0 && count % ARITY[command] === 0);
    for (const token of tokens) {
      if (/^[A-Za-z]$/.test(token)) {
        if (!(token.toLowerCase() in ARITY) || !complete()) return false;
        command = token.toLowerCase(); count = 0;
      } else if (command === null) return false;
      else count += 1;
    }
    return complete();
  };
  const transform = (value) => {
    const rest = value.replace(/([a-zA-Z]+)\(([^)]*)\)/g, (all, name, args) => {
      const numbers = numbersIn(args);
      const counts = FUNCTION_ARGUMENTS[name.toLowerCase()];
      return counts && counts.includes(numbers.length) && numbers.every(isNumber) ? "" : "!";
    });
    return rest.replace(/[\s,]/g, "") === "";
  };
  const valid = (name, value) => {
    if (SINGLE.includes(name)) return LENGTH.test(value.trim()) || value.trim() === "auto";
    if (name === "viewBox") {
      return numbersIn(value).length === 4 && numbersIn(value).every(isNumber);
    }
    if (name === "points") return numbersIn(value).length % 2 === 0
      && numbersIn(value).every(isNumber) && pairedAtMost(value.trim());
    if (name === "stroke-dasharray") return value.trim() === "none"
      || numbersIn(value).every((token) => LENGTH.test(token));
    if (name === "d") return path(value);
    if (name === "transform" || name === "gradientTransform" || name === "patternTransform")
      return transform(value);
    return true;
  };
  const bad = [];
  for (const element of document.querySelectorAll("svg, svg *")) {
    for (const { name, value } of element.attributes) {
      if (!valid(name, value)) bad.push(`<${element.tagName} ${name}="${value}">`);
    }
  }
  return bad;
}
"""

# Every visible text's contrast against its background. Runs in the page; returns the failures.
CONTRAST = r"""
(minimum) => {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 1;
  const paint = canvas.getContext("2d", { willReadFrequently: true });
  const seen = new Map();
  // Any CSS colour (rgb, color-mix, oklch…) as [r, g, b, alpha 0..1], through a canvas pixel.
  const rgba = (css) => {
    if (!seen.has(css)) {
      paint.clearRect(0, 0, 1, 1);
      paint.fillStyle = "#000"; paint.fillStyle = css;
      paint.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = paint.getImageData(0, 0, 1, 1).data;
      seen.set(css, a === 0 ? [0, 0, 0, 0] : [r, g, b, a / 255]);
    }
    return seen.get(css);
  };
  const over = (top, below) => top.slice(0, 3)
    .map((channel, i) => channel * top[3] + below[i] * (1 - top[3])).concat(1);
  const luminance = (color) => {
    const [r, g, b] = color.slice(0, 3).map((channel) => {
      const c = channel / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  };
  const probe = document.createElement("div");
  probe.style.backgroundColor = "Canvas";
  document.documentElement.append(probe);
  const canvasColor = rgba(getComputedStyle(probe).backgroundColor);
  probe.remove();
  const name = (element) => element.tagName.toLowerCase() + (element.id ? "#" + element.id : "")
    + [...element.classList].slice(0, 3).map((c) => "." + c).join("");
  const selector = (element) => {
    const parts = [name(element)];
    for (let up = element.parentElement; up && parts.length < 4; up = up.parentElement) {
      if (up.id || up.classList.length) parts.unshift(name(up));
      if (up.id) break;
    }
    return parts.join(" ");
  };
  const hidden = (element) => {
    if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return true;
    for (let up = element; up; up = up.parentElement) {
      const style = getComputedStyle(up), box = up.getBoundingClientRect();
      if ((style.clip !== "auto" && style.clip !== "") || (style.clipPath !== "none"
          && box.width <= 1)) return true;
      if (box.width <= 1 && box.height <= 1 && style.overflow !== "visible") return true;
    }
    return false;
  };
  // A gradient's colour stops, as the computed value writes them.
  const STOP = /(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([^)]*\)|#[0-9a-f]{3,8}\b/gi;
  // The colours the text may stand on (a gradient gives one per stop), from the canvas up
  // through every translucent layer; or the element whose background image is in the way.
  const background = (element) => {
    const layers = []; // the topmost first, each a list of colours
    let opacity = 1;
    for (let up = element; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      opacity *= parseFloat(style.opacity);
      if (up instanceof SVGElement) continue;
      if (style.backgroundImage !== "none") {
        if (style.backgroundImage.includes("url(")) return { image: name(up) };
        const stops = (style.backgroundImage.match(STOP) || []).map(rgba);
        if (stops.length) layers.push(stops);
        if (stops.length && stops.every((stop) => stop[3] === 1)) break;
      }
      const color = rgba(style.backgroundColor);
      if (color[3] > 0) layers.push([color]);
      if (color[3] === 1) break;
    }
    const colors = layers.reverse().reduce(
      (below, layer) => layer.flatMap((top) => below.map((under) => over(top, under))),
      [canvasColor]);
    return { colors, opacity };
  };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || !element
        || element.closest("script, style, noscript, template, option, title, desc")) continue;
    texts.push([element, node.textContent.trim()]);
  }
  for (const control of document.querySelectorAll("select, textarea, input:not([type])"
      + ", input[type=text], input[type=number], input[type=email], input[type=password]"
      + ", input[type=search], input[type=url]")) {
    const shown = control.tagName === "SELECT" ? control.selectedOptions[0]?.textContent
      : control.value;
    if (shown && shown.trim()) texts.push([control, shown.trim()]);
  }
  const failures = [], unmeasured = [], done = new Set();
  const css = (c) => `rgb(${c.slice(0, 3).map(Math.round).join(", ")})`;
  for (const [element, text] of texts) {
    if (done.has(element) || element.closest(":disabled") || hidden(element)) continue;
    done.add(element);
    const style = getComputedStyle(element);
    const ink = rgba(element instanceof SVGElement ? style.fill : style.color);
    if (ink[3] === 0) continue;
    const behind = background(element);
    const where = { selector: selector(element), text: text.slice(0, 40) };
    if (behind.image) {
      unmeasured.push({ ...where, image: behind.image });
      continue;
    }
    const [contrast, shown, under] = behind.colors.map((color) => {
      const shown = over([...ink.slice(0, 3), ink[3] * behind.opacity], color);
      return [ratio(shown, color), shown, color];
    }).sort((a, b) => a[0] - b[0])[0];
    if (contrast < minimum) {
      failures.push({ ...where, color: css(shown), background: css(under),
        ratio: Math.round(contrast * 100) / 100 });
    }
  }
  return { failures, unmeasured };
}
"""


# Every box that hides part of its content sideways (a table scrolling in its own box keeps the
# page narrow but cuts its right-hand columns off a phone's screen just the same), as "what:
# how far". Boxes of a pixel (visually hidden, for screen readers) are left out.
SCROLLED_OUT = """() => {
  const name = (element) => element.tagName.toLowerCase() + (element.id ? "#" + element.id : "")
    + [...element.classList].slice(0, 3).map((c) => "." + c).join("");
  const found = [];
  for (const element of document.body.querySelectorAll("*")) {
    const hidden = element.scrollWidth - element.clientWidth;
    if (element.clientWidth > 1 && hidden > 1
        && getComputedStyle(element).overflowX !== "visible") {
      found.push(`${name(element)} hides ${hidden} px of its content sideways`);
    }
  }
  return found;
}"""


class Walk:
    """One browser's visit of a list of pages, with what went wrong on each."""

    def __init__(self, player: Player, language: str, contrast: bool):
        self.player, self.language, self.contrast = player, language, contrast
        self.console: list[str] = []
        self.svg: list[str] = []
        self.low_contrast: list[str] = []
        self.unmeasured: list[str] = []  # text over a background image
        self.sideways: list[str] = []
        self.where = ""  # the page being checked, as findings name it
        page = player.page
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.console.append(f"{self.where}: uncaught {error}"))

    def _on_console(self, message) -> None:
        if message.type == "error":
            self.console.append(f"{self.where}: {message.text}")

    def visit(self, path: str, shows: str | None, where: str = "") -> None:
        """Load `path` (which must show the element `shows`, if named) and check it; findings
        name the page as `where` (the path by default)."""
        self.where = where or path
        page = self.player.page
        page.goto(self.player.base + path)  # until "load": every script and style has run
        page.wait_for_function(SETTLED)
        lang = page.get_attribute("html", "lang")
        assert lang == self.language, f"{self.where} is in {lang!r}, not {self.language!r}"
        if shows:
            assert page.query_selector(shows), f"{self.where} shows no {shows}"
        self.svg += [f"{self.where}: {bad}" for bad in page.evaluate(SVG_NUMBERS)]
        wide, viewport = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
        if wide > viewport:
            self.sideways.append(f"{self.where} is {wide} px wide in a {viewport} px window")
        self.sideways += [f"{self.where}: {box}" for box in page.evaluate(SCROLLED_OUT)]
        if self.contrast:
            found = page.evaluate(CONTRAST, MIN_CONTRAST)
            self.low_contrast += [
                f"{self.where} {failure['selector']} {failure['text']!r}: {failure['color']} on"
                f" {failure['background']}: {failure['ratio']}"
                for failure in found["failures"]
            ]
            self.unmeasured += [
                f"{self.where} {text['selector']} {text['text']!r} (image on {text['image']})"
                for text in found["unmeasured"]
            ]


# Run by the site's `manage.py shell` on its database: two people, a finished rated game between
# them (random legal moves through the services, as tests/play.py plays them), a game in play
# and a waiting table. Prints the ids as JSON.
SEED = """
import json, random
from accounts.models import User
from friends import services as friends
from games.access import Visitor
from games.play import selectors, services as play_services
from games.tables import services as tables_services
from games.kinds.biblios import engine as biblios
from tests.play import play_to_end, seated_users, started_game

host, guest = (
    User.objects.create_user(name + "{tag}", password="{password}",
                             display_name=name.title() + " {tag}")
    for name in ("hana", "gus")
)
finished = play_to_end(started_game([host, guest], 2, seed=17), random.Random(17))
in_play = started_game([host, guest], 2, seed=18)
rng, by_seat = random.Random(18), seated_users(in_play)
for _ in range({moves}):
    in_play.refresh_from_db()
    seat = biblios.to_act(in_play.engine_state())[0]
    board = selectors.board_for(in_play, Visitor.of(in_play, by_seat[seat]))
    play_services.submit_action(
        in_play.pk, by_seat[seat], rng.choice(board["legal_actions"]), version=board["version"]
    )
waiting = tables_services.create_table(host, tables_services.TableSettings(2))
friends.send_request(host, guest)  # the friends page lists one; the waiting room invites him
friends.accept(guest, host)
# A Swiss tournament in its first round (the two of them at its table), and one to register for.
from datetime import timedelta
from django.utils import timezone
from games.tournaments import services as tournaments
staff = User.objects.create_user("arbiter{tag}", password="{password}", is_staff=True)
swiss = lambda name, minutes: tournaments.create_tournament(staff, tournaments.TournamentSettings(
    name=name, starts_at=timezone.now() + timedelta(minutes=minutes), rounds=3, table_size=2,
    turn_seconds=86400))
running, coming = swiss("Swiss {tag}", 10), swiss("Coming Swiss {tag}", 600)
for person in (host, guest):
    tournaments.register(running.pk, person)
tournaments.start(running.pk, now=running.starts_at)
tournaments.register(coming.pk, guest)
print(json.dumps(dict(host=host.username, guest=guest.username, finished=finished.pk,
                      moves=finished.moves.count(), in_play=in_play.pk, waiting=waiting.pk,
                      invite=waiting.invite_code, running=running.pk, coming=coming.pk)))
"""


@pytest.fixture(scope="session")
def site(live_site, live_site_env):
    """The pages to walk, on a site seeded with the games they show, and the walks made so far.

    Session-wide: the tests of this module run between other modules' tests (slow ones first,
    tests/conftest.py), and the site is seeded and each walk made once per test process."""
    seed = SEED.format(tag=unique_tag(), password=PASSWORD, moves=MOVES_IN_PLAY)
    made = json.loads(manage(live_site_env, "shell", "--no-imports", "-c", seed))
    finished, in_play, waiting = made["finished"], made["in_play"], made["waiting"]
    # Each page, and what it must show (so that its charts and boards are really checked).
    pages = {
        "logged_in": {
            "/": None,
            f"/games/{waiting}/": "#board-waiting",
            f"/games/{in_play}/": "#board-hand > *",
            f"/games/{finished}/": "#board-score svg",
            f"/games/{finished}/replay/": None,
            f"/games/{finished}/replay/?move={REPLAY_MOVE}": None,
            f"/games/{finished}/log/": None,
            "/history/": None,
            f"/players/{made['guest']}/games/": None,
            f"/accounts/u/{made['host']}/": "svg.rating-chart",
            "/leaderboard/": None,
            "/rules/": None,
            "/rules/biblios/biblios/": None,
            "/rules/biblios/scripts_and_scribes/": None,
            "/accounts/password/": None,
            "/friends/": "#friend-lists",
            f"/accounts/u/{made['guest']}/": ".friend-actions",
            "/notifications/": "#notifications",
            "/tournaments/": None,
            f"/tournaments/{made['running']}/": "table.tournament-standings",
            f"/tournaments/{made['coming']}/": "#tournament-live form",
        },
        "on_a_phone": {
            "/": None,
            f"/games/{waiting}/": "#board-waiting",
            f"/games/{in_play}/": "#board-hand > *",
            f"/games/{finished}/": "#board-score svg",
            f"/games/{finished}/replay/?move={REPLAY_MOVE}": None,
            f"/games/{finished}/replay/?move={made['moves']}": "#board-score table.score",
            "/history/": None,
            f"/accounts/u/{made['host']}/": "svg.rating-chart",
            "/leaderboard/": None,
            "/rules/biblios/biblios/": None,
            "/friends/": "#friend-lists",
            "/learn/biblios/": "#lesson-coach",
            "/notifications/": "#notifications",
            f"/tournaments/{made['running']}/": "table.tournament-standings",
            f"/tournaments/{made['coming']}/": "#tournament-live form",
        },
        "logged_out": {
            "/": None,
            "/accounts/signup/": None,
            "/accounts/login/": None,
            f"/join/{made['invite']}/": "#invite-signup",  # an invite link, logged out
            "/learn/": None,
            "/learn/biblios/": "#lesson-coach",
            "/learn/biblios/scoring/?category=manuscripts": "#board-score svg",
            "/rules/biblios/biblios/": None,
            "/leaderboard/": None,
            f"/accounts/u/{made['host']}/": "svg.rating-chart",
            f"/games/{finished}/": "#board-score svg",
            "/offline/": None,  # what the service worker shows without a connection
            "/tournaments/": None,
            f"/tournaments/{made['running']}/": "table.tournament-standings",
        },
    }
    return {"host": made["host"], "pages": pages}


def walks(site, browser, base: str, language: str, scheme: str) -> list[Walk]:
    """The walks of every page as the host (at desktop, then phone size) and as a visitor, in
    `language` and `scheme`."""
    member = Player(browser, base, site["host"], locale=language, color_scheme=scheme)
    member.log_in()
    member.choose_language(language)  # kept on the profile, beats the browser's language
    visitor = Player(browser, base, f"visitor{unique_tag()}", locale=language,
                     color_scheme=scheme)  # fmt: skip
    done = []
    for player, pages in ((member, "logged_in"), (visitor, "logged_out")):
        walk = Walk(player, language, contrast=language == "en")
        for path, shows in site["pages"][pages].items():
            walk.visit(path, shows)
        if player is member:  # the phone layout has its own bars and drawers
            player.page.set_viewport_size(PHONE)
            for path, shows in site["pages"]["on_a_phone"].items():
                walk.visit(path, shows, where=f"{path} at 360 px")
        player.close()
        done.append(walk)
    return done


def listed(findings: list[str]) -> str:
    """One line per finding (the same one repeated on a page counted, not repeated)."""
    counts = Counter(findings)
    lines = [f"{finding} (×{count})" if count > 1 else finding for finding, count in counts.items()]
    shown = "\n".join(lines[:SHOWN_FAILURES])
    more = len(lines) - SHOWN_FAILURES
    return shown + (f"\n… and {more} more" if more > 0 else "")


# Every language in light, and English in dark for its contrast (the scheme changes colours
# only: dark walks in French and Spanish would find nothing new). One test per walk, checking
# everything a walk finds: the same walk in two test processes was a third of this file's time.
@pytest.mark.slow(seconds=15)
@pytest.mark.parametrize(
    ("language", "scheme"), [(language, "light") for language in LANGUAGES] + [("en", "dark")]
)
def test_every_page_has_no_error_parsable_numbers_no_sideways_scroll_and_readable_text(
    site, browser, live_site, language, scheme
):
    found = walks(site, browser, live_site, language, scheme)
    problems = {
        "console errors": [error for walk in found for error in walk.console],
        "SVG attributes with numbers that do not parse": [
            attribute for walk in found for attribute in walk.svg
        ],
        "pages wider than the window, or boxes hiding their content sideways": [
            page for walk in found for page in walk.sideways
        ],
        f"texts under {MIN_CONTRAST}:1": [
            failure for walk in found for failure in walk.low_contrast
        ],
    }
    unmeasured = [text for walk in found for text in walk.unmeasured]
    if unmeasured:
        listing = listed(unmeasured)
        warnings.warn(f"not measured, over an image in {scheme}:\n{listing}", stacklevel=1)
    assert any(walk.contrast for walk in found) == (language == "en")
    report = [f"{len(items)} {what}:\n{listed(items)}" for what, items in problems.items() if items]
    assert not report, f"in {language}, {scheme}:\n" + "\n".join(report)


# The checks themselves, on a page made for them: each must find exactly what is wrong.
DETECTOR_PAGE = """<!doctype html><html lang="en"><head><style>
  body { background: #fff; color: #111; }
  .grey { color: #999; background: #aaa; }
  .faded { opacity: 0.3; }
  .glass { background: rgba(0, 0, 0, 0.6); }
  .hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .fading { background: linear-gradient(#fff, #777); color: #555; }
  .pictured { background: url("data:image/gif;base64,R0lGODlhAQABAAAAACw="); color: #999; }
</style></head><body>
  <p>readable</p>
  <p class="grey">grey on grey</p>
  <p class="faded">faded away</p>
  <div class="glass"><span>dark glass under black text</span></div>
  <div class="fading"><p>grey end of a gradient</p></div>
  <p class="pictured">over a picture</p>
  <p class="grey hidden">hidden from sight</p>
  <details><summary>closed</summary><p class="grey">inside closed details</p></details>
  <button class="grey" disabled>disabled</button>
  <svg viewBox="0 0 100 40" width="100"><text x="2" y="16.5" fill="#eee">pale svg text</text>
    <rect x="16,0" y="1" width="2" height="2"/><polyline points="1,2 3,4"/>
    <polyline points="10,5,20,5"/><path d="M8 1v2M11.6 11.6 13 13a6.3 6.3 0 0 1 0 12.6z"/>
    <path d="M10,5,20,5"/><path d="M1 2 3"/><g transform="translate(1 2) rotate(-90 5 5)"/>
    <svg viewBox="0 0 16,5 10"/><circle cx="1e2" cy="-.5" r="3px"/></svg>
</body></html>"""


@pytest.mark.slow(seconds=2)
def test_the_checks_find_what_is_wrong(browser):
    page = browser.new_page()
    page.set_content(DETECTOR_PAGE)
    assert sorted(page.evaluate(SVG_NUMBERS)) == [
        '<path d="M1 2 3">',
        '<path d="M10,5,20,5">',
        '<polyline points="10,5,20,5">',
        '<rect x="16,0">',
        '<svg viewBox="0 0 16,5 10">',
    ]
    found = page.evaluate(CONTRAST, MIN_CONTRAST)
    low = {failure["text"]: failure for failure in found["failures"]}
    assert sorted(low) == ["dark glass under black text", "faded away", "grey end of a gradient",
                           "grey on grey", "pale svg text"]  # fmt: skip
    assert low["grey on grey"]["color"] == "rgb(153, 153, 153)"
    assert low["grey on grey"]["background"] == "rgb(170, 170, 170)"
    assert low["dark glass under black text"]["background"] == "rgb(102, 102, 102)"
    assert low["grey end of a gradient"]["background"] == "rgb(119, 119, 119)"
    assert [text["text"] for text in found["unmeasured"]] == ["over a picture"]
    page.close()
