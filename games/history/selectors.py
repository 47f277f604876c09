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

from games import access
from games.analysis import selectors as analysis_selectors
from games.history import folded
from games.history.folded import game_steps, newest_steps
from games.kinds import registry
from games.models import Analysis, Game, Move, Seat
from games.play import seat_notes
from games.play import selectors as play_selectors
from games.tables.forms import player_count_choices

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


def game_record(game: Game, visitor: access.Visitor) -> dict:
    """The export of `game` for the visitor (who may read it: `access.record_refusal`).

    A finished game is history: its setup, every move and the result; staff get it complete
    (replayable), everyone else without the seed and deck (R1: removed cards are never shown)
    and without the cards others discarded face down (R12, R22). Until then only what the
    caller's seat may know: its current view and, step by step, the events as `events_for`
    shows them to that seat. Raw moves are never sent for a running game, since a move log
    itself carries secrets (the card a `give` discards, for one). A finished game's review, once
    done, comes with its record.
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
        complete = visitor.staff
        reader = visitor.seat
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
        analysis = Analysis.objects.filter(game=game, status=Analysis.Status.DONE).first()
        if analysis is not None:  # its review, as the visitor may read it
            record["analysis"] = analysis_selectors.analysis_data(analysis, visitor)
        return record
    view = play_selectors.board_for(game, visitor) if game.setup else None
    record.update(
        seat=view["seat"] if view else visitor.seat,
        view=view,
        events=[
            {"seq": seq, "events": events}
            for seq, events in enumerate(game_steps(game, view["seat"]))
        ]
        if view
        else [],
    )
    return record


def game_log(game: Game, seat, *, limit: int | None = None) -> list[dict]:
    """The game's events as `seat` may see them, newest first (at most `limit`), the events of
    moves the clock decided marked (`with_timeouts_marked`), with the platform's own after the
    move they followed (`seat_notes`: a seat handed to the bot by a ban; the reader's own
    standing orders that ended by themselves).

    The view only carries the last action's events; the log folds the move log and filters
    each step through `events_for`, the engine's own per-seat filter. With a `limit` (the live
    board's, on every push) only the newest steps are read (`folded.newest_steps`).
    """
    if not game.setup:
        return []
    if limit is None:
        steps = list(enumerate(game_steps(game, seat)))
    else:
        steps = newest_steps(game, seat, limit)
    since = steps[0][0] if steps else 0
    timed_out = timed_out_steps(game, since=since)
    notes = seat_notes.by_step(game)
    for step, mine in seat_notes.orders_by_step(game, seat, since=since).items():
        notes[step] = [*notes.get(step, ()), *mine]
    events = [
        event
        for step, shown in reversed(steps)
        for event in reversed(
            [*with_timeouts_marked(shown, step in timed_out), *notes.get(step, ())]
        )
    ]
    return events if limit is None else events[:limit]


def timed_out_steps(game: Game, *, since: int = 0) -> set[int]:
    """The moves (by seq, which is their step) from `since` on the stand-in bot played for a
    player whose time ran out (read once per game and version: `folded.timed_out_steps`).
    Saying so reveals nothing: everyone at the table saw the clock run out."""
    return folded.timed_out_steps(game, since=since)


def with_timeouts_marked(events: list[dict], timed_out: bool) -> list[dict]:
    """A step's events, each marked `"timed_out": True` when the clock chose the move, so the
    kind's log line says the bot chose it for the player rather than "you took…"."""
    return [{**event, "timed_out": True} for event in events] if timed_out else events


RECENT_GAMES = 10


@dataclass(frozen=True)
class PlayerRecord:
    games_played: int
    games_won: int
    games_left: int


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as one player saw its end."""

    game: Game
    position: int
    place: int | None
    won: bool


@dataclass(frozen=True)
class PlayerGames:
    current_games: list[Game]
    recent_games: list[FinishedGame]


def _winners(result) -> list:
    return (result or {}).get("winners") or []


def player_record(user) -> PlayerRecord:
    """Counts over all of `user`'s finished games, private tables included: they are numbers
    only, public like the games left."""
    finished = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED).values_list(
        "position", "game__result"
    )
    played = won = 0
    for position, result in finished:
        played += 1
        won += position in _winners(result)
    return PlayerRecord(games_played=played, games_won=won, games_left=games_left(user))


def games_left(user) -> int:
    """Games this player walked away from (left on purpose, or replaced after three timeouts)
    and did not come back to; computed from the seats, public like the other counts."""
    return (
        Seat.objects.filter(user=user, abandoned=True)
        .exclude(game__status=Game.Status.ABORTED)
        .count()
    )


def player_games(user, *, include_private: bool, reader=None) -> PlayerGames:
    """`user`'s current games and last finished ones; unless `include_private` (the player's
    own profile), only those `reader` (None: an anonymous one) may find in a list.

    A private table is only reachable by its invite link, so its id is not shown to others; a
    table for the host's friends only shows to those friends (`access.listed_to`).
    """
    shown = {"include_private": include_private, "reader": reader}
    current = list(
        _games_of(user, [Game.Status.OPEN, Game.Status.ACTIVE], **shown).order_by("-created_at")
    )
    recent = []
    for game in _games_of(user, [Game.Status.FINISHED], **shown).order_by("-finished_at", "-pk")[
        :RECENT_GAMES
    ]:
        position = next(seat.position for seat in game.seats.all() if seat.user_id == user.pk)
        players = (game.result or {}).get("players") or []
        place = players[position].get("place") if position < len(players) else None
        recent.append(
            FinishedGame(
                game=game, position=position, place=place, won=position in _winners(game.result)
            )
        )
    return PlayerGames(current_games=current, recent_games=recent)


def _games_of(user, statuses, *, include_private: bool, reader):
    """The user's games in these statuses, without the bulky state, with seated players."""
    games = (
        Game.objects.filter(seats__user=user, status__in=statuses)
        .defer("state", "setup")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
        )
    )
    return games if include_private else games.filter(access.listed_to(reader))
