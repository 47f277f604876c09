"""Reading an Ex Libris action posted from the board.

Each of the board's buttons posts `action`, one legal action of the seat's view as JSON
(`presenter._button`). Here it is only read and its shape checked: a small dict of a `type` and
a few fields, each a short word, a small number, or a bookshelf cell `[row, col]`. Whether the
action is legal now is the engine's call (`apply_action` refuses anything `legal_actions` does
not list, naming the rule), so nothing here knows the rules.
"""

from django.utils.translation import gettext

from biblios_site import errors
from biblios_site.inputs import json_object
from games.kinds.registry import ActionInputError

MAX_LENGTH = 300  # the longest legal action is well under 100 characters
MAX_FIELDS = 4  # besides "type": "place" has at most assistant, target and slot or share
MAX_WORD = 40
MAX_NUMBER = 1000


def parse_action(data) -> dict:
    """The action a board button posted, or ActionInputError saying what is wrong."""
    raw = data.get("action", "")
    if not raw:
        raise ActionInputError(gettext("Choose one of the moves on the board."))
    if len(raw) > MAX_LENGTH:
        raise ActionInputError(gettext("That move is too long to be one of the board's."))
    try:
        action = json_object(raw, max_bytes=MAX_LENGTH)
    except errors.BadRequest:
        raise ActionInputError(
            gettext("That move could not be read: use the board's buttons.")
        ) from None
    if not isinstance(action.get("type"), str):
        raise ActionInputError(gettext("That move could not be read: use the board's buttons."))
    if len(action) > MAX_FIELDS + 1 or not all(_small(key, value) for key, value in action.items()):
        raise ActionInputError(gettext("That move is not one the board offers."))
    return action


def _small(key, value) -> bool:
    """A field the board's actions could hold: a short word, a small number or a cell."""
    if not isinstance(key, str) or len(key) > MAX_WORD:
        return False
    if isinstance(value, str):
        return 0 < len(value) <= MAX_WORD
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return -MAX_NUMBER < value < MAX_NUMBER
    if isinstance(value, list):
        return len(value) == 2 and all(
            isinstance(n, int) and not isinstance(n, bool) and -MAX_NUMBER < n < MAX_NUMBER
            for n in value
        )
    return False
