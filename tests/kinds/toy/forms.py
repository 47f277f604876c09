"""High card's table options and the action its board posts."""

from django import forms

from games.kinds.registry import ActionInputError


class OptionsForm(forms.Form):
    """The options of a High card table; its cleaned data are the engine's `options`."""

    last_trick_double = forms.BooleanField(required=False, label="Last trick scores double")

    def __init__(self, variant: str, data=None, *args, players: int | None = None, **kwargs):
        """Both variants and every table size take the same option: `variant` and `players` are
        the contract's, unused here."""
        super().__init__(data, *args, **kwargs)


def parse_action(data) -> dict:
    """The card a board form posted; whether the seat may play it is the engine's call."""
    cards = data.getlist("card")
    if len(cards) != 1 or not cards[0]:
        raise ActionInputError("Choose one card to play.")
    return {"type": "play", "card": cards[0]}
