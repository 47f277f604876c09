"""Game histories: a player's games, filtered and paginated, and the export record of a game.

A history page costs a fixed number of queries whatever the number of games (a count, the page
of games without their bulky state, and their seated players), so a player with thousands of
games pages through them as fast as a newcomer. Won/lost filters read `Seat.won`, copied from
the result when a game finishes, so they run in SQL.
"""

from dataclasses import dataclass

from django import forms
from django.core.paginator import Page, Paginator
from django.db.models import Prefetch, Q
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from games import access, selectors
from games.forms import player_count_choices
from games.kinds import registry
from games.models import Game, Move, Seat

PAGE_SIZE = 25


class HistoryFilterForm(forms.Form):
    """The history page's filters, read from the query string (every field optional)."""

    status = forms.ChoiceField(
        label=gettext_lazy("Status"),
        choices=[("", gettext_lazy("Any status")), *Game.Status.choices],
        required=False,
    )
    variant = forms.ChoiceField(
        label=gettext_lazy("Variant"),
        choices=lambda: [("", gettext("Any variant")), *registry.variant_choices()],
        required=False,
    )
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"),
        choices=lambda: [("", gettext("Any number")), *player_count_choices()],
        coerce=int,
        empty_value=None,
        required=False,
    )
    opponent = forms.CharField(
        label=gettext_lazy("Opponent"),
        max_length=150,
        required=False,
        help_text=gettext_lazy("Part of a display name or username."),
    )
    result = forms.ChoiceField(
        label=gettext_lazy("Result"),
        choices=[
            ("", gettext_lazy("Won or lost")),
            ("won", pgettext_lazy("game result", "Won")),
            ("lost", pgettext_lazy("game result", "Lost")),
        ],
        required=False,
    )
    date_from = forms.DateField(
        label=gettext_lazy("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=gettext_lazy("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self):
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", gettext("The end date comes before the start date."))
        return data


@dataclass(frozen=True)
class HistoryRow:
    """One game as the history lists it, from the point of view of `subject`'s seat."""

    game: Game
    players: list[dict]  # name, vp (None until finished), won
    winners: list[str]
    my_place: int | None
    won: bool
    date: object
    moves: int
    duration: str  # "" while the game has not finished


def games_of(subject, filters: dict, *, include_private: bool, statuses=None, reader=None):
    """`subject`'s games matching the cleaned `filters`, newest first, seats prefetched; unless
    `include_private` (their own history), only those `reader` (None: an anonymous one) may
    find in a list (`access.listed_to`)."""
    games = Game.objects.filter(pk__in=Seat.objects.filter(user=subject).values("game_id"))
    if statuses is not None:
        games = games.filter(status__in=statuses)
    if not include_private:
        games = games.filter(access.listed_to(reader))
    if filters.get("status"):
        games = games.filter(status=filters["status"])
    if filters.get("variant"):
        kind, variant = filters["variant"].split("/")
        games = games.filter(kind=kind, variant=variant)
    if filters.get("players"):
        games = games.filter(num_players=filters["players"])
    if filters.get("opponent"):
        name = filters["opponent"]
        opponents = Seat.objects.filter(
            Q(user__display_name__icontains=name) | Q(user__username__icontains=name)
        ).exclude(user=subject)
        games = games.filter(pk__in=opponents.values("game_id"))
    if filters.get("result") == "won":
        games = games.filter(pk__in=Seat.objects.filter(user=subject, won=True).values("game_id"))
    elif filters.get("result") == "lost":
        games = games.filter(status=Game.Status.FINISHED).exclude(
            pk__in=Seat.objects.filter(user=subject, won=True).values("game_id")
        )
    if filters.get("date_from"):
        games = games.filter(created_at__date__gte=filters["date_from"])
    if filters.get("date_to"):
        games = games.filter(created_at__date__lte=filters["date_to"])
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    return (
        games.defer("state", "setup", "options")
        .prefetch_related(seats)
        .order_by("-created_at", "-pk")
    )


def history_page(
    subject, filters: dict, page_number, *, include_private: bool, statuses=None, reader=None
):
    """One page of `subject`'s games and its rows (`page_number` as given; bad ones clamp)."""
    games = games_of(
        subject, filters, include_private=include_private, statuses=statuses, reader=reader
    )
    page: Page = Paginator(games, PAGE_SIZE).get_page(page_number)
    return page, [_row(game, subject) for game in page.object_list]


def _row(game: Game, subject) -> HistoryRow:
    seats = list(game.seats.all())
    result = game.result or {}
    scores = result.get("players") or []
    winners = set(result.get("winners") or [])
    mine = next((seat for seat in seats if seat.user_id == subject.pk), None)
    players = [
        {
            "name": seat.display_name,
            # Victory points where the kind's result has them (the contract promises places).
            "vp": scores[seat.position].get("vp") if seat.position < len(scores) else None,
            "won": seat.position in winners,
            "is_subject": seat.user_id == subject.pk,
        }
        for seat in seats
    ]
    ended = game.finished_at
    return HistoryRow(
        game=game,
        players=players,
        winners=[player["name"] for player in players if player["won"]],
        my_place=mine.place if mine else None,
        won=bool(mine and mine.won),
        date=ended or game.started_at or game.created_at,
        moves=game.version,
        duration=_duration(ended - game.started_at) if ended and game.started_at else "",
    )


def _duration(length) -> str:
    minutes = int(length.total_seconds() // 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


# ------------------------------------------------------------------------------ export


def game_record(game: Game, user) -> dict:
    """The export of `game` for `user`.

    A finished game is history: its setup, every move and the result; staff get it complete
    (replayable), everyone else without the seed and deck (R1: removed cards are never shown)
    and without the cards others discarded face down (R12, R22). Until then only what the
    caller's seat may know: its current view and, step by step, the events as `events_for`
    shows them to that seat. Raw moves are never sent for a running game, since a move log
    itself carries secrets (the card a `give` discards, for one).
    """
    seats = [
        {"seat": seat.position, "name": seat.display_name}
        for seat in game.seats.select_related("user").order_by("position")
    ]
    record = {
        "id": game.pk,
        "status": game.status,
        "kind": game.kind,
        "variant": game.variant,
        "num_players": game.num_players,
        "options": dict(game.options),
        "players": seats,
        "version": game.version,
        "created_at": game.created_at.isoformat(),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }
    if game.status == Game.Status.FINISHED:
        complete = getattr(user, "is_staff", False)
        reader = selectors.seat_of(game, user)
        moves = Move.objects.filter(game=game).order_by("seq")
        engine = registry.of(game).engine
        record.update(
            complete=complete,
            setup=game.setup if complete else engine.public_setup(game.setup),
            moves=[
                {
                    "seq": move.seq,
                    "seat": move.seat,
                    "action": move.action
                    if complete
                    else engine.public_action(move.seat, move.action, reader),
                    "at": move.created_at.isoformat(),
                }
                for move in moves
            ],
            result=game.result,
        )
        return record
    view = selectors.board_for(game, user) if game.setup else None
    record.update(
        seat=view["seat"] if view else selectors.seat_of(game, user),
        view=view,
        events=[
            {"seq": seq, "events": events}
            for seq, events in enumerate(selectors.game_steps(game, view["seat"]))
        ]
        if view
        else [],
    )
    return record
