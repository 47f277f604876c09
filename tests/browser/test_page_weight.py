"""What the game page costs a player's connection, measured in chromium on the site as production
runs it (DEBUG off, static files collected, compressed and content-hashed, served by whitenoise).

A person plays a whole game against a bot. At its start, in its middle and at its end a new
browser, logged in as them but with an empty cache, opens the game page: every byte it receives
for that page (chromium's own count of what came over the network, headers included, as DevTools
shows it) must stay under 100 KB, the HTML document under 30 KB. Every WebSocket frame the
person's page receives (a board push per move, its payload as the page gets it) must stay under
30 KB. The figures are printed and written to test-artifacts/browser/page-weight.txt (the
table of docs/performance.md).
"""

import statistics

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.players import MOVE_TIMEOUT_MS, Player, unique_tag
from tests.browser.test_phone_play import MY_TURN_OR_OVER
from webpush.views import OFFLINE_ASSETS

KB = 1024
MAX_PAGE = 100 * KB
MAX_HTML = 30 * KB
MAX_PUSH = 30 * KB
MAX_TURNS = 200
MIDDLE_TURN = 40  # of about 85 the person plays in a two-player game
DESKTOP = {"width": 1280, "height": 800}
FIGURES = ARTIFACTS / "page-weight.txt"
# What the service worker keeps for the offline page, by path without the extension (in
# production the names carry a hash before it).
OFFLINE_COPIES = tuple(f"/static/{name.rsplit('.', 1)[0]}." for name in OFFLINE_ASSETS)


class Transfers:
    """Every response of a page as chromium's network layer saw it: URL, type, encoding, bytes;
    and the extensions its WebSocket agreed on."""

    def __init__(self, player: Player):
        self.responses: dict[str, dict] = {}
        self.cached: list[str] = []
        self.socket_extensions: list[str] = []
        devtools = player.context.new_cdp_session(player.page)
        devtools.on("Network.responseReceived", self._received)
        devtools.on("Network.loadingFinished", self._finished)
        devtools.on("Network.requestServedFromCache", lambda event: self.cached.append(event))
        devtools.on("Network.webSocketHandshakeResponseReceived", self._handshake)
        devtools.send("Network.enable")

    def _received(self, event) -> None:
        response = event["response"]
        headers = {name.lower(): value for name, value in response["headers"].items()}
        self.responses[event["requestId"]] = {
            "url": response["url"],
            "type": event["type"],
            "encoding": headers.get("content-encoding", "-"),
            "from_cache": response.get("fromDiskCache") or response.get("fromMemoryCache"),
        }

    def _finished(self, event) -> None:
        if event["requestId"] in self.responses:
            self.responses[event["requestId"]]["bytes"] = event["encodedDataLength"]

    def _handshake(self, event) -> None:
        headers = {name.lower(): value for name, value in event["response"]["headers"].items()}
        self.socket_extensions.append(headers.get("sec-websocket-extensions", "none"))

    def loaded(self) -> list[dict]:
        return [response for response in self.responses.values() if "bytes" in response]


def cold_load(browser, base: str, name: str, cookies: dict, url: str) -> dict:
    """The game page in a new browser with the player's cookies and an empty cache: the bytes
    of every response, of the HTML, and the lines that list them."""
    reader = Player(browser, base, name, viewport=DESKTOP, storage_state=cookies)
    transfers = Transfers(reader)
    reader.page.goto(url)
    reader.page.wait_for_load_state("networkidle")
    reader.wait_for_board()
    reader.close()
    loaded = transfers.loaded()
    # A cold cache: every file comes over the network, but for the files the service worker
    # fetches on its first run to keep the offline page whole (webpush.views.service_worker):
    # when it fetched one before the tab asked for it, the tab gets it from memory.
    cached = [
        response["url"]
        for response in loaded
        if response["from_cache"]
        and not response["url"].startswith(tuple(base + path for path in OFFLINE_COPIES))
    ]
    assert not transfers.cached and not cached, (transfers.cached, cached)
    documents = [response for response in loaded if response["type"] == "Document"]
    assert len(documents) == 1, documents
    return {
        "total": sum(response["bytes"] for response in loaded),
        "html": documents[0]["bytes"],
        "socket": ", ".join(transfers.socket_extensions) or "no socket",
        "lines": [
            f"  {response['bytes'] / KB:6.1f} KB  {response['type']:<10}"
            f" {response['encoding']:<5} {response['url'].removeprefix(base)}"
            for response in sorted(loaded, key=lambda response: -response["bytes"])
        ],
    }


@pytest.mark.slow(seconds=55)
def test_the_game_page_is_light_on_a_cold_cache_and_each_push_too(production_site, browser):
    # Motion changes no byte sent; without it each turn is played as soon as the board is drawn.
    person = Player(
        browser, production_site, f"wade{unique_tag()}", viewport=DESKTOP, reduced_motion="reduce"
    )
    frames: list[int] = []
    person.page.on(
        "websocket",
        lambda socket: socket.on(
            "framereceived",
            lambda payload: frames.append(
                len(payload) if isinstance(payload, bytes) else len(payload.encode())
            ),
        ),
    )
    person.sign_up()
    person.create_table(2, bots=["novice"])
    person.wait_for_board()
    person.mark_loaded()
    game_url, cookies = person.page.url, person.context.storage_state()
    loads = {"start": cold_load(browser, production_site, person.name, cookies, game_url)}

    turns = 0
    while turns < MAX_TURNS:
        person.page.wait_for_function(MY_TURN_OR_OVER, timeout=MOVE_TIMEOUT_MS)
        if person.game_over():
            break
        if turns == MIDDLE_TURN:
            loads["middle"] = cold_load(browser, production_site, person.name, cookies, game_url)
        version = person.version()
        person.play_one_move()
        person.wait_for_version_above(version)
        turns += 1
    assert person.game_over(), f"not over after {MAX_TURNS} turns"
    assert person.still_same_page()
    loads["end"] = cold_load(browser, production_site, person.name, cookies, game_url)
    person.close()

    lines = []
    for moment, load in loads.items():
        lines += [
            f"game page at the {moment} of the game, cold cache, production settings:"
            f" {load['total'] / KB:.1f} KB transferred (limit {MAX_PAGE // KB} KB), HTML"
            f" {load['html'] / KB:.1f} KB (limit {MAX_HTML // KB} KB); socket extensions:"
            f" {load['socket']}",
            *load["lines"],
        ]
    lines.append(
        f"board pushes over a whole game ({turns} moves of the person, the bot's between):"
        f" {len(frames)} frames, median {statistics.median(frames) / KB:.1f} KB, largest"
        f" {max(frames) / KB:.1f} KB (limit {MAX_PUSH // KB} KB)"
    )
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    FIGURES.write_text("\n".join(lines) + "\n")
    print("\n" + "\n".join(lines))
    for moment, load in loads.items():
        assert load["total"] < MAX_PAGE, f"{load['total']} bytes at the {moment}: see {FIGURES}"
        assert load["html"] < MAX_HTML, (
            f"{load['html']} bytes of HTML at the {moment}: see {FIGURES}"
        )
    assert max(frames) < MAX_PUSH, f"a push of {max(frames)} bytes: see {FIGURES}"
