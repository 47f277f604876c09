"""Forms of the games pages: creating a table, and reading an action posted from the board."""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from biblios_site.inputs import MAX_ID, IdField, whole_number
from games.engine import biblios
from games.models import Game, Seat
from games.services import TableSettings


def player_count_choices() -> list[tuple[int, str]]:
    """2, 3 or 4 players, worded in the language of the request that draws the form."""
    return [(n, gettext("%(count)s players") % {"count": n}) for n in (2, 3, 4)]


def turn_time_choices() -> list[tuple[str, str]]:
    return [
        ("", gettext("No timer (friendly game)")),
        ("30", gettext("30 seconds")),
        ("60", gettext("1 minute")),
        ("180", gettext("3 minutes")),
    ]


def seat_choices() -> list[tuple[str, str]]:
    """Who sits in a seat besides the host's: a person who joins, or a bot of some level."""
    return [("", gettext("Open for a player"))] + [
        (level, gettext("%(level)s bot") % {"level": label})
        for level, label in Seat.BotLevel.choices
    ]


class TableForm(forms.Form):
    num_players = forms.TypedChoiceField(
        label=gettext_lazy("Seats"),
        choices=player_count_choices,
        coerce=int,
        initial=2,
    )
    edition = forms.ChoiceField(
        label=gettext_lazy("Edition"), choices=Game.Edition.choices, initial=Game.Edition.BIBLIOS
    )
    medieval_bluff = forms.BooleanField(
        required=False,
        label=gettext_lazy("Medieval bluff"),
        help_text=gettext_lazy(
            "Biblios only: a player who cannot pay discards a random card instead."
        ),
    )
    forbid_uncoverable_bids = forms.BooleanField(
        required=False, label=gettext_lazy("Forbid bids a player cannot cover")
    )
    private = forms.BooleanField(
        required=False,
        label=gettext_lazy("Private table"),
        help_text=gettext_lazy("Not listed; joined by invite link."),
    )
    spectators_allowed = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Allow spectators")
    )
    turn_seconds = forms.TypedChoiceField(
        label=gettext_lazy("Turn time"),
        choices=turn_time_choices,
        coerce=int,
        empty_value=None,
        required=False,
        initial="",
        help_text=gettext_lazy("Who runs out of time gets one automatic move by the Scholar bot."),
    )
    seat_2 = forms.ChoiceField(label=gettext_lazy("Seat 2"), choices=seat_choices, required=False)
    seat_3 = forms.ChoiceField(label=gettext_lazy("Seat 3"), choices=seat_choices, required=False)
    seat_4 = forms.ChoiceField(label=gettext_lazy("Seat 4"), choices=seat_choices, required=False)
    rated = forms.BooleanField(
        required=False,
        label=gettext_lazy("Rated game"),
        help_text=gettext_lazy(
            "Games between people only are always rated; tick to rate a game with bots too."
        ),
    )

    def clean(self):
        data = super().clean()
        if data.get("medieval_bluff") and data.get("edition") != Game.Edition.BIBLIOS:
            self.add_error(
                "medieval_bluff",
                gettext("Medieval bluff is a Biblios option, not in Scripts & Scribes."),
            )
        return data

    def settings(self) -> TableSettings:
        data = dict(self.cleaned_data)
        # Seats beyond the table's size are ignored; an unticked box means the automatic rule.
        seats = [data.pop(f"seat_{n}") for n in (2, 3, 4)][: data["num_players"] - 1]
        data["bots"] = tuple(seat or None for seat in seats)  # "" is the form's "people"
        data["rated"] = True if data["rated"] else None
        return TableSettings(**data)


class ChatForm(forms.Form):
    """A chat post. The field refuses NUL (which PostgreSQL cannot store); the chat service
    judges the rest (empty, too long, repeated), the same for every edge."""

    text = forms.CharField(required=False, strip=False)


class ReportForm(forms.Form):
    """A report of a chat message or of a player, read as ChatForm is (chat.report judges it)."""

    reason = forms.CharField(required=False, strip=False)
    message = IdField(required=False)
    user = IdField(required=False)


class BadActionInput(ValueError):
    """A posted action that cannot even be read; the message says what is wrong."""


def parse_version(data) -> int:
    version = whole_number(data.get("version"))
    if version is None:
        raise BadActionInput(gettext("The form is missing the board version; reload the page."))
    return version


def _one(data, name: str) -> str:
    values = data.getlist(name)
    if len(values) != 1 or not values[0]:
        raise BadActionInput(gettext("The form needs exactly one %(field)r.") % {"field": name})
    return values[0]


def _number(data, name: str) -> int:
    raw = _one(data, name).strip()
    number = whole_number(raw, minimum=-MAX_ID)
    if number is None:
        message = gettext("%(field)s must be a whole number, not %(value)r.")
        raise BadActionInput(message % {"field": name.capitalize(), "value": raw[:20]})
    return number


def parse_action(data) -> dict:
    """The engine action a board form posted (field names as the forms render them).

    Only the shape is read here; whether the action is legal is the engine's call.
    """
    kind = data.get("type", "")
    if kind not in biblios.ACTION_FIELDS:
        raise BadActionInput(gettext("Unknown action; use one of the buttons on the board."))
    if kind == "place":
        return {"type": kind, "to": _one(data, "to")}
    if kind in ("pick", "give"):
        return {"type": kind, "card": _one(data, "card")}
    if kind == "use_church":
        dice = data.getlist("dice")
        if not dice:
            raise BadActionInput(gettext("Choose which dice the church card moves."))
        return {"type": kind, "dice": dice, "delta": _number(data, "delta")}
    if kind == "bid":
        return {"type": kind, "amount": _number(data, "amount")}
    if kind == "pay":
        cards = data.getlist("cards")
        if not cards:
            raise BadActionInput(gettext("Choose the Gold cards to pay with."))
        return {"type": kind, "cards": cards}
    return {"type": kind}
