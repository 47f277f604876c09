"""The create-table form: the game and variant menu, seats, bots, turn time and the kind's
options."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from biblios_site.inputs import whole_number
from games.kinds import registry
from games.tables.services import TableSettings


def player_count_choices() -> list[tuple[int, str]]:
    """The player counts of the live game kinds (each kind's own range is the services' check),
    worded in the language of the request that draws the form."""
    counts = sorted({count for kind in registry.kinds() for count in kind.player_counts})
    return [
        (n, ngettext("%(count)s player", "%(count)s players", n) % {"count": n}) for n in counts
    ]


def game_menu(kinds: list[registry.GameKind]) -> list:
    """The create-table form's one menu: with one live kind, its variants by slug (the kind is
    a hidden field); with several, each kind's variants grouped under its name, valued
    "kind/variant" (the pairs of `registry.variant_choices`), so no kind is posted with another
    kind's variant."""
    if len(kinds) == 1:
        return [(variant.slug, variant.name) for variant in kinds[0].variants]
    return [
        (kind.name, [(f"{kind.slug}/{variant.slug}", variant.name) for variant in kind.variants])
        for kind in kinds
    ]


class GameMenu(forms.Select):
    """The menu of games and variants, each entry listing its game's table sizes in
    `data-player-counts`, by which the lobby's stylesheet offers only those sizes."""

    def __init__(self, player_counts: dict[str, str], **kwargs):
        super().__init__(**kwargs)
        self.player_counts = player_counts

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        option["attrs"]["data-player-counts"] = self.player_counts[str(value)]
        return option


def turn_time_choices() -> list:
    """No timer, then the live times (played in one sitting) and the turn-based ones (a move
    when the player comes back, the "Your turn" list tells them where), each under its name."""
    return [
        ("", gettext("No timer (friendly game)")),
        (
            pgettext("turn time", "Live"),
            [
                ("30", gettext("30 seconds per move")),
                ("60", gettext("1 minute per move")),
                ("180", gettext("3 minutes per move")),
            ],
        ),
        (
            pgettext("turn time", "Turn-based"),
            [
                ("43200", gettext("12 hours per move")),
                ("86400", gettext("24 hours per move")),
                ("259200", gettext("72 hours per move")),
            ],
        ),
    ]


def seat_choices() -> list:
    """Who sits in a seat besides the host's: a person who joins, or a bot of the chosen kind's
    levels. With several live kinds, each kind's levels are grouped under its name in the game
    menu's order, so that the lobby's stylesheet offers the chosen kind's only (the services
    check it)."""
    kinds = registry.kinds()
    people = [("", gettext("Open for a player"))]
    if len(kinds) == 1:
        return people + _bot_choices(kinds[0])
    return people + [(kind.name, _bot_choices(kind)) for kind in kinds]


def _bot_choices(kind: registry.GameKind) -> list[tuple[str, str]]:
    """The kind's levels as a table offers them, the default one marked."""
    recommended, plain = gettext("%(level)s bot (recommended)"), gettext("%(level)s bot")
    return [
        (
            level.slug,
            (recommended if level.slug == kind.default_bot else plain) % {"level": level.label},
        )
        for level in kind.offered_bots
    ]


class TableForm(forms.Form):
    """A new table: the platform's settings, and the chosen kind's options form beside them.

    The game and its variant are one menu (`game_menu`), so a player never picks a kind and
    leaves the variant at another kind's. Every live kind's options form is drawn (prefixed by
    the kind's slug, so that option names never meet the platform's or another kind's) and the
    chosen kind's is checked, for the posted table size (an option that does not apply at that
    size is ignored, as the seats beyond it are); the stylesheet shows the chosen kind's box,
    table sizes and bots only, which works without JavaScript. The chosen kind's own player counts
    and bot levels are checked by `services.create_table`, whose refusal the view shows on the
    form.
    """

    # The kind whose bare variant slug `variant` holds: the only live one (its menu lists its
    # variants alone) or, in a post not from the menu, any live kind (the API's two fields).
    # With several live kinds the form draws it empty: the menu's "kind/variant" names the kind.
    kind = forms.ChoiceField(choices=registry.choices, required=False, widget=forms.HiddenInput)
    # A "kind/variant" pair of the menu, or a variant slug of `kind` (checked in `clean`).
    variant = forms.CharField(required=False)
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
    friends_only = forms.BooleanField(
        required=False,
        label=gettext_lazy("Friends of the host only"),
        help_text=gettext_lazy("Only your friends may join; the lobby lists it to them alone."),
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
        kinds = self.kinds = registry.kinds()
        menu = self.fields["variant"]
        menu.widget = GameMenu(_player_counts_by_entry(kinds), choices=game_menu(kinds))
        if len(kinds) == 1:
            self.fields["kind"].initial = kinds[0].slug
            menu.label, menu.initial = gettext("Variant"), kinds[0].default_variant
        else:
            menu.label = pgettext("game kind", "Game")
            menu.initial = f"{kinds[0].slug}/{kinds[0].default_variant}"
        # A seat field per seat after the host's at the largest table, before `rated`.
        self.seat_numbers = range(2, max(n for kind in kinds for n in kind.player_counts) + 1)
        for number in self.seat_numbers:
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                label=gettext("Seat %(number)s") % {"number": number},
                choices=seat_choices,
                required=False,
            )
        self.fields["rated"] = self.fields.pop("rated")
        if any(1 in kind.player_counts for kind in kinds):  # a live game plays solo
            rated = self.fields["rated"]
            never = gettext("A solo game never is.")
            rated.help_text = f"{rated.help_text} {never}"
        posted = data or {}
        players = whole_number(posted.get("num_players"))
        self.options_by_kind = [
            (
                kind,
                kind.options_form(
                    _posted_variant(kind, posted.get("variant")),
                    data,
                    players=players,
                    prefix=kind.slug,
                ),
            )
            for kind in kinds
        ]

    def clean(self):
        """The kind and variant the table is for, from the menu's pair or the posted kind (the
        first live one unless posted) and its variant; a variant of another kind, or one of no
        live kind, is refused on the menu."""
        cleaned = super().clean()
        if "kind" in cleaned and "variant" in cleaned:
            try:
                cleaned["kind"], cleaned["variant"] = _kind_and_variant(
                    cleaned["kind"], cleaned["variant"]
                )
            except ValidationError as refusal:
                self.add_error("variant", refusal)
        return cleaned

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
        # Nor is "Rated game" asked at a solo table (never rated): a tick left there is ignored.
        data["rated"] = True if data["rated"] and data["num_players"] > 1 else None
        return TableSettings(**data, options=self.chosen_options().cleaned_data)


def _player_counts_by_entry(kinds: list[registry.GameKind]) -> dict[str, str]:
    """Each entry of `game_menu`, by its value, with its kind's table sizes ("2 3 4")."""
    by_entry = {}
    for kind in kinds:
        counts = " ".join(str(count) for count in kind.player_counts)
        for variant in kind.variants:
            entry = variant.slug if len(kinds) == 1 else f"{kind.slug}/{variant.slug}"
            by_entry[entry] = counts
    return by_entry


def _posted_variant(kind: registry.GameKind, posted) -> str:
    """The variant an options form is checked against: the posted one if it is `kind`'s."""
    posted_kind, _, variant = (posted or "").rpartition("/")
    mine = posted_kind in ("", kind.slug) and variant in (known.slug for known in kind.variants)
    return variant if mine else kind.default_variant


def _kind_and_variant(kind_slug: str, posted: str) -> tuple[str, str]:
    """The (kind, variant) slugs of a table posted as `kind_slug` ("" if not posted) and
    `posted`, a "kind/variant" pair or a variant slug (""; the kind's default): ValidationError
    for a variant of no live kind, a pair whose kind is not the posted one, or another kind's
    variant."""
    kinds = registry.kinds()
    if not posted:
        kind = registry.get(kind_slug or kinds[0].slug)
        return kind.slug, kind.default_variant
    posted_kind, _, variant = posted.rpartition("/")
    owners = [kind for kind in kinds if variant in (known.slug for known in kind.variants)]
    named = {slug for slug in (kind_slug, posted_kind) if slug}
    if not owners or len(named) > 1 or not named <= {kind.slug for kind in kinds}:
        raise ValidationError(
            forms.ChoiceField.default_error_messages["invalid_choice"],
            code="invalid_choice",
            params={"value": posted},
        )
    kind = registry.get(posted_kind or kind_slug or kinds[0].slug)
    if kind not in owners:
        raise ValidationError(
            gettext(
                "%(game)s has no variant “%(variant)s”: choose a game and variant from the list."
            )
            % {"game": kind.name, "variant": owners[0].variant_name(variant)},
            code="other_kinds_variant",
        )
    return kind.slug, variant
