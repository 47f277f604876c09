"""Biblios' forms: the table options (§8) and reading an action posted from the board."""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from biblios_site.inputs import MAX_ID, whole_number
from games.kinds.biblios import engine as biblios
from games.kinds.registry import ActionInputError, option_applies


class OptionsForm(forms.Form):
    """The options of a Biblios table; its cleaned data are the engine's `options`. The lobby's
    form and the API bind the same form, so both accept and refuse the same options."""

    medieval_bluff = forms.BooleanField(
        required=False,
        label=gettext_lazy("Medieval bluff"),
        help_text=gettext_lazy(
            "Biblios only: a player who cannot pay discards a random card instead."
        ),
    )
    medieval_bluff.variants = ("biblios",)  # R15: no Medieval bluff in Scripts & Scribes
    forbid_uncoverable_bids = forms.BooleanField(
        required=False, label=gettext_lazy("Forbid bids a player cannot cover")
    )

    def __init__(self, variant: str, data=None, *args, players: int | None = None, **kwargs):
        """Every table size takes the same options: `players` is the contract's, unused here."""
        super().__init__(data, *args, **kwargs)
        self.variant = variant

    def clean(self):
        data = super().clean()
        # R15: no Medieval bluff in Scripts & Scribes (players read the message: no rule tag in it).
        bluff = self.fields["medieval_bluff"]
        if data.get("medieval_bluff") and not option_applies(bluff, self.variant):
            self.add_error(
                "medieval_bluff",
                gettext("Medieval bluff is a Biblios option, not in Scripts & Scribes."),
            )
        return data


def _one(data, name: str) -> str:
    values = data.getlist(name)
    if len(values) != 1 or not values[0]:
        raise ActionInputError(gettext("The form needs exactly one %(field)r.") % {"field": name})
    return values[0]


def _number(data, name: str) -> int:
    raw = _one(data, name).strip()
    number = whole_number(raw, minimum=-MAX_ID)
    if number is None:
        message = gettext("%(field)s must be a whole number, not %(value)r.")
        raise ActionInputError(message % {"field": name.capitalize(), "value": raw[:20]})
    return number


def parse_action(data) -> dict:
    """The engine action a board form posted (field names as the forms render them).

    Only the shape is read here; whether the action is legal is the engine's call.
    """
    kind = data.get("type", "")
    if kind not in biblios.ACTION_FIELDS:
        raise ActionInputError(gettext("Unknown action; use one of the buttons on the board."))
    if kind == "place":
        return {"type": kind, "to": _one(data, "to")}
    if kind in ("pick", "give"):
        return {"type": kind, "card": _one(data, "card")}
    if kind == "use_church":
        # A die a field, or the board's buttons: one field naming them all, comma-separated.
        dice = [die for field in data.getlist("dice") for die in field.split(",") if die]
        if not dice:
            raise ActionInputError(gettext("Choose which dice the church card moves."))
        return {"type": kind, "dice": dice, "delta": _number(data, "delta")}
    if kind == "bid":
        return {"type": kind, "amount": _number(data, "amount")}
    if kind == "pay":
        cards = data.getlist("cards")
        if not cards:
            raise ActionInputError(gettext("Choose the Gold cards to pay with."))
        return {"type": kind, "cards": cards}
    return {"type": kind}
