"""What a live socket still has to send of a board: only the regions that changed since its last
push (a move changes a few regions; a board has about ten, so a push is a third of the board).

A board's live HTML (`rendering.live_board`) is the `#board` frame, which replaces a
waiting room, then each region as a top-level element with `hx-swap-oob="true"`, swapped by id.
A socket remembers a digest of each region it sent. A region differs from the last one sent if
anything but its `data-version` changed: a region with a move form always differs (the form
carries the version it was drawn at). The message region is always sent: it says the board's
version (`#board-message[data-version]`, what the page's resync watches) and clears an error
the socket showed. The whole board (frame and every region) goes out on a socket's first push,
after a resync or a change of seats, and while the page may still show a waiting room.

A worker's sockets of one game render the same regions many times over: `RENDERS` keeps the
regions that are the same for several readers (`rendering.live_board` says whose), by the
game's version and everything else they are drawn from (`shared_inputs`), so that each is
rendered once per worker and version.
"""

import hashlib
import json
import re

from django.utils import timezone, translation
from django.utils.functional import Promise

from biblios_site.recent import Recent

REGION = re.compile(r'<(?:div|section|aside)\b[^>]*?\bid="([^"]+)"[^>]*?\bhx-swap-oob="true"')
VERSION = re.compile(rb' data-version="\d+"')
ALWAYS_SENT = "board-message"


class SentRegions:
    """The regions of one socket's board as last sent, by id (a digest of each), and what each
    region that declares its `reads` was last drawn from, by partial (`region_inputs`)."""

    def __init__(self):
        self.digests: dict[str, bytes] = {}
        self.drawn: dict[str, bytes | None] = {}

    def news(self, html: str, *, whole: bool) -> str:
        """The part of `html` (a live board) this socket must send: all of it when `whole`,
        else the regions that changed. Remembers what it returns."""
        regions = list(_regions(html))
        if whole or not regions:  # not regions: a waiting room, one element
            self.digests = {region_id: digest for region_id, _, digest in regions}
            return html
        parts = []
        for region_id, region, digest in regions:
            if region_id == ALWAYS_SENT or self.digests.get(region_id) != digest:
                parts.append(region)
                self.digests[region_id] = digest
        return "".join(parts)

    def remember(self, html: str) -> None:
        """Regions sent outside `news` (the players region when somebody comes or goes)."""
        self.digests.update((region_id, digest) for region_id, _, digest in _regions(html))


def _regions(html: str):
    """(id, HTML, digest without the version) of each top-level region of a live board. The
    digest leaves out the white space after the region, which depends on what follows it."""
    starts = [found.start() for found in REGION.finditer(html)]
    for start, end in zip(starts, [*starts[1:], len(html)][: len(starts)], strict=True):
        region = html[start:end]
        drawn = VERSION.sub(b"", region.rstrip().encode())
        digest = hashlib.blake2b(drawn, digest_size=16).digest()
        yield REGION.match(region).group(1), region, digest


def region_inputs(region, context: dict) -> bytes | None:
    """A digest of what `region` is drawn from for this reader (its declared `reads`, the
    game's status, the language and the time zone), or None when that cannot be said: it
    declares none, the reader has a move to make (a move form carries the board's version), or
    a value read is not plain data."""
    if not region.reads or context["view"].get("legal_actions"):
        return None
    values = [_read(context, path) for path in region.reads]
    place = [
        context["game"].status,
        translation.get_language(),
        timezone.get_current_timezone_name(),
    ]
    try:
        text = json.dumps([place, values], sort_keys=True, default=plain)
    except TypeError:
        return None
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _read(context: dict, path: str):
    """The value at a dotted `path` of the context, as a template reads it (None if missing)."""
    value = context
    for name in path.split("."):
        value = value.get(name) if isinstance(value, dict) else None
    return value


def plain(value) -> str:
    """A lazily translated text, in the active language; nothing else but plain data."""
    if isinstance(value, Promise):
        return str(value)
    raise TypeError(f"not plain data: {type(value).__name__}")


def shared_inputs(game, seats) -> tuple:
    """What a region's HTML is drawn from besides the view of its reader: the game's state
    (which fixes every view of it: its digest, not only its version, so that a game number
    used again by another database never meets an old render) and status, who sits where
    (names, bots, who took over a seat: these change without a move), the language and the time
    zone."""
    return (
        game.pk,
        game.version,
        hashlib.blake2b(game.state.encode(), digest_size=16).digest(),
        game.status,
        translation.get_language(),
        timezone.get_current_timezone_name(),
        tuple((seat.position, seat.display_name, seat.user_id, seat.bot_level) for seat in seats),
    )


# Rendered regions (and the spectators' board context) by key: a worker holds a few hundred
# games' current regions, a few MB.
RENDERS = Recent(2000)
