"""Forms of the games pages: creating a table, and reading an action posted from the board."""

from django import forms
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext_lazy

from biblios_site.inputs import IdField, whole_number
from games.kinds import registry
from games.kinds.registry import ActionInputError
from games.services import TableSettings


def player_count_choices() -> list[tuple[int, str]]:
    """The player counts of the live game kinds (each kind's own range is the services' check),
    worded in the language of the request that draws the form."""
    counts = sorted({count for kind in registry.kinds() for count in kind.player_counts})
    return [
        (n, ngettext("%(count)s player", "%(count)s players", n) % {"count": n}) for n in counts
    ]


def variant_choices() -> list:
    """The variants of the live kinds, grouped by kind when there are several."""
    kinds = registry.kinds()
    grouped = [(kind.name, [(v.slug, v.name) for v in kind.variants]) for kind in kinds]
    return grouped[0][1] if len(grouped) == 1 else grouped


def turn_time_choices() -> list[tuple[str, str]]:
    return [
        ("", gettext("No timer (friendly game)")),
        ("30", gettext("30 seconds")),
        ("60", gettext("1 minute")),
        ("180", gettext("3 minutes")),
    ]


def seat_choices() -> list[tuple[str, str]]:
    """Who sits in a seat besides the host's: a person who joins, or a bot of one of the live
    kinds' levels (the chosen kind's own levels are the services' check)."""
    levels = {}
    for kind in registry.kinds():
        for level in kind.bot_levels:
            levels.setdefault(level.slug, level.label)
    return [("", gettext("Open for a player"))] + [
        (slug, gettext("%(level)s bot") % {"level": label}) for slug, label in levels.items()
    ]


class TableForm(forms.Form):
    """A new table: the platform's settings, and the chosen kind's options form beside them.

    Every live kind's options form is drawn (prefixed by the kind's slug, so that option names
    never meet the platform's or another kind's) and the chosen kind's is checked, which works
    without JavaScript. The chosen kind's own variants, player counts and bot levels
    are checked by `services.create_table`, whose refusal the view shows on the form.
    """

    kind = forms.ChoiceField(
        label=pgettext_lazy("game kind", "Game"), choices=registry.choices, required=False
    )
    variant = forms.ChoiceField(
        label=gettext_lazy("Variant"), choices=variant_choices, required=False
    )
    num_players = forms.TypedChoiceField(
        label=gettext_lazy("Seats"),
        choices=player_count_choices,
        coerce=int,
        initial=2,
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
        help_text=gettext_lazy("Who runs out of time gets one automatic move by a bot."),
    )
    rated = forms.BooleanField(
        required=False,
        label=gettext_lazy("Rated game"),
        help_text=gettext_lazy(
            "Games between people only are always rated; tick to rate a game with bots too."
        ),
    )

    def __init__(self, data=None, **kwargs):
        super().__init__(data, **kwargs)
        kinds = registry.kinds()
        self.fields["kind"].initial = kinds[0].slug
        self.fields["variant"].initial = kinds[0].default_variant
        if len(kinds) == 1:
            self.fields["kind"].widget = forms.HiddenInput()
        # A seat field per seat after the host's at the largest table, before `rated`.
        self.seat_numbers = range(2, max(n for kind in kinds for n in kind.player_counts) + 1)
        for number in self.seat_numbers:
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                label=gettext("Seat %(number)s") % {"number": number},
                choices=seat_choices,
                required=False,
            )
        self.fields["rated"] = self.fields.pop("rated")
        posted = data or {}
        self.options_by_kind = [
            (
                kind,
                kind.options_form(
                    _posted_variant(kind, posted.get("variant")), data, prefix=kind.slug
                ),
            )
            for kind in kinds
        ]

    def is_valid(self) -> bool:
        """The table's fields, then the chosen kind's options (drawn with their own errors)."""
        return super().is_valid() and self.chosen_options().is_valid()

    def chosen_options(self):
        """The options form of the kind the table is for (the first live kind unless chosen)."""
        chosen = self.cleaned_data.get("kind")
        found = (options for kind, options in self.options_by_kind if kind.slug == chosen)
        return next(found, self.options_by_kind[0][1])

    def settings(self) -> TableSettings:
        data = dict(self.cleaned_data)
        # Seats beyond the table's size are ignored; an unticked box means the automatic rule.
        seats = [data.pop(f"seat_{n}") for n in self.seat_numbers][: data["num_players"] - 1]
        data["bots"] = tuple(seat or None for seat in seats)  # "" is the form's "people"
        data["rated"] = True if data["rated"] else None
        data["kind"] = data["kind"] or None
        data["variant"] = data["variant"] or None
        return TableSettings(**data, options=self.chosen_options().cleaned_data)


def _posted_variant(kind: registry.GameKind, posted) -> str:
    """The variant an options form is checked against: the posted one if it is `kind`'s."""
    slugs = [variant.slug for variant in kind.variants]
    return posted if posted in slugs else kind.default_variant


class ChatForm(forms.Form):
    """A chat post. The field refuses NUL (which PostgreSQL cannot store); the chat service
    judges the rest (empty, too long, repeated), the same for every edge."""

    text = forms.CharField(required=False, strip=False)


class ReportForm(forms.Form):
    """A report of a chat message or of a player, read as ChatForm is (chat.report judges it)."""

    reason = forms.CharField(required=False, strip=False)
    message = IdField(required=False)
    user = IdField(required=False)


def parse_version(data) -> int:
    version = whole_number(data.get("version"))
    if version is None:
        raise ActionInputError(gettext("The form is missing the board version; reload the page."))
    return version
