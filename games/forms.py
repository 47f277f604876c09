"""Forms of the games pages: creating a table, and reading an action posted from the board."""

from django import forms

from games.engine import biblios
from games.models import Game
from games.services import TableSettings


class TableForm(forms.Form):
    num_players = forms.TypedChoiceField(
        label="Seats",
        choices=[(2, "2 players"), (3, "3 players"), (4, "4 players")],
        coerce=int,
        initial=2,
    )
    edition = forms.ChoiceField(choices=Game.Edition.choices, initial=Game.Edition.BIBLIOS)
    medieval_bluff = forms.BooleanField(
        required=False,
        label="Medieval bluff",
        help_text="Biblios only: a player who cannot pay discards a random card instead.",
    )
    forbid_uncoverable_bids = forms.BooleanField(
        required=False, label="Forbid bids a player cannot cover"
    )
    private = forms.BooleanField(
        required=False, label="Private table", help_text="Not listed; joined by invite link."
    )
    spectators_allowed = forms.BooleanField(required=False, initial=True, label="Allow spectators")

    def clean(self):
        data = super().clean()
        if data.get("medieval_bluff") and data.get("edition") != Game.Edition.BIBLIOS:
            self.add_error(
                "medieval_bluff", "Medieval bluff is a Biblios option, not in Scripts & Scribes."
            )
        return data

    def settings(self) -> TableSettings:
        return TableSettings(**self.cleaned_data)


class BadActionInput(ValueError):
    """A posted action that cannot even be read; the message says what is wrong."""


def parse_version(data) -> int:
    raw = data.get("version", "")
    if not raw.strip().isdigit():
        raise BadActionInput("The form is missing the board version; reload the page.")
    return int(raw)


def _one(data, name: str) -> str:
    values = data.getlist(name)
    if len(values) != 1 or not values[0]:
        raise BadActionInput(f"The form needs exactly one {name!r}.")
    return values[0]


def _number(data, name: str) -> int:
    raw = _one(data, name).strip()
    try:
        return int(raw)
    except ValueError:
        raise BadActionInput(f"{name.capitalize()} must be a whole number, not {raw!r}.") from None


def parse_action(data) -> dict:
    """The engine action a board form posted (field names as the forms render them).

    Only the shape is read here; whether the action is legal is the engine's call.
    """
    kind = data.get("type", "")
    if kind not in biblios.ACTION_FIELDS:
        raise BadActionInput("Unknown action; use one of the buttons on the board.")
    if kind == "place":
        return {"type": kind, "to": _one(data, "to")}
    if kind in ("pick", "give"):
        return {"type": kind, "card": _one(data, "card")}
    if kind == "use_church":
        dice = data.getlist("dice")
        if not dice:
            raise BadActionInput("Choose which dice the church card moves.")
        return {"type": kind, "dice": dice, "delta": _number(data, "delta")}
    if kind == "bid":
        return {"type": kind, "amount": _number(data, "amount")}
    if kind == "pay":
        cards = data.getlist("cards")
        if not cards:
            raise BadActionInput("Choose the Gold cards to pay with.")
        return {"type": kind, "cards": cards}
    return {"type": kind}
