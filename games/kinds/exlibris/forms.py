"""Ex Libris' forms: the table options, and reading an action posted from the board.

Table options: owner-wide powers (X81) and, for a solo game, its difficulty (X85). The variants
(beginner, friendly, long and their combinations, X78–X80) are the kind's variants, chosen beside
these; the lobby's form and `POST /api/tables` bind this form alike.

Actions: each of the board's buttons posts `action`, one legal action of the seat's view as JSON
(`presenter._button`). Here it is only read and its shape checked: a small dict of a `type` and
a few fields, each a short word, a small number, or a bookshelf cell `[row, col]`. Whether the
action is legal now is the engine's call (`apply_action` refuses anything `legal_actions` does
not list, naming the rule), so nothing here knows the rules.
"""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from biblios_site import errors
from biblios_site.inputs import json_object
from games.kinds.exlibris import engine, names
from games.kinds.exlibris.engine.setup import SOLO_DIFFICULTIES
from games.kinds.registry import ActionInputError

SOLO = 1  # X82: one player is a solo game


def difficulty_choices() -> list[tuple[int, str]]:
    """X85's levels, "1 · Initiate" … "7 · Demiurge", in the language of the request."""
    return [(level, f"{level} · {names.difficulty(level)}") for level in SOLO_DIFFICULTIES]


class OptionsForm(forms.Form):
    """The options of an Ex Libris table; its cleaned data are the engine's `options`.

    `players` is the table's size (None only to draw the form before one is chosen): a solo
    table takes a difficulty and refuses the beginner and long variants (X78, X80, X82); any
    other drops the difficulty from its cleaned data, as the lobby posts the field hidden at
    every size (the API refuses it there, `services.create_table`).
    """

    owner_wide_powers = forms.BooleanField(required=False, label=gettext_lazy("Owner-wide powers"))
    difficulty = forms.TypedChoiceField(
        label=gettext_lazy("Solo difficulty"),
        choices=difficulty_choices,
        coerce=int,
        required=False,
        empty_value=engine.DEFAULT_SOLO_DIFFICULTY,
        initial=engine.DEFAULT_SOLO_DIFFICULTY,
        help_text=gettext_lazy(
            "Solo only: how many cards go to the Public Library, your rival, each round."
        ),
        error_messages={
            "invalid_choice": gettext_lazy(
                "The solo difficulty goes from 1 (Initiate) to 7 (Demiurge)."
            )
        },
        # The lobby draws it only when one seat is chosen (site.css).
        widget=forms.Select(attrs={"data-players": str(SOLO)}),
    )

    def __init__(self, variant: str, data=None, *args, players: int | None = None, **kwargs):
        super().__init__(data, *args, **kwargs)
        self.variant = variant
        self.players = players
        # X81, with the assistants' printed names in the reader's language.
        self.fields["owner_wide_powers"].help_text = gettext(
            "The %(mummy)s, the %(wizard)s and the %(witch)s use their power on every book their "
            "owner shelves or acquires, not only on what they bring themselves."
        ) % {slug: names.assistant(slug) for slug in ("mummy", "wizard", "witch")}

    def clean(self):
        data = super().clean()
        if self.players is None:
            return data
        if self.players != SOLO:
            data.pop("difficulty", None)
            return data
        parts = set(self.variant.split("+"))
        if "beginner" in parts:  # X78, X82: beginners remove a solo tile; solo needs all 10
            raise forms.ValidationError(
                gettext("The beginner variant is for two to four players, not a solo game.")
            )
        if "long" in parts:  # X80, X83: a solo game lasts 5 rounds
            raise forms.ValidationError(
                gettext("A solo game always lasts five rounds: the long game does not apply.")
            )
        return data


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
