"""`{% kept %}`: a part of a board drawn from the values it is given and nothing else, rendered
once per worker for each set of values and language, then reused.

A board's big regions are mostly parts that did not change since the last move (three of four
bookshelves, most location tiles), and a region is redrawn whole when any part of it changes:
late in a game that is most of a push's cost (docs/performance.md). A kept part sees only the
values named in the tag, so its HTML is a function of them, its partial and the language: the
key holds all three, and what one reader's values draw can be handed only to a reader whose
values are the same, so nothing one seat may see reaches another (the leak scans run with it).
The key holds no time zone and no request: a part that showed a time or a form would have to be
passed them, and none does.
"""

import hashlib
import json

from django import template
from django.template.loader import render_to_string
from django.utils import translation

from biblios_site.recent import Recent
from games.play.live_regions import plain

register = template.Library()

# Parts by (partial, language, digest of the values): a few boards' worth per live game, bounded
# so that a worker's memory does not grow with the site (a part is 0.3–2 KB).
KEPT = Recent(8000)


@register.simple_tag
def kept(partial: str, **values) -> str:
    """The `partial` ("exlibris/board.html#tile") drawn from `values` alone, which must be plain
    data (lazy texts are read in the active language): anything else raises."""
    drawn = json.dumps(values, sort_keys=True, separators=(",", ":"), default=plain)
    digest = hashlib.blake2b(drawn.encode(), digest_size=16).digest()
    key = (partial, translation.get_language(), digest)
    html = KEPT.get(key)
    if html is None:
        html = render_to_string(partial, values)
        KEPT.put(key, html)
    return html
