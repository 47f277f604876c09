"""What a tournament's page and the API show: its settings, what the reader may do (register,
unregister, check in), the standings with their tie-breaks, and each round's tables with the
places of those that ended. Only public facts: names, game numbers, places and points; a
running table's cards are its board's alone (the leak scans cover these doors)."""

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch
from django.utils import timezone

from games.models import Game, Seat, Tournament, TournamentRound, TournamentTable
from games.tournaments import services, swiss

Status = Tournament.Status
LISTED_PAST = 20  # finished and cancelled tournaments the list shows


@dataclass(frozen=True)
class Row:
    rank: int | None  # None before the first round: nobody is ahead yet
    user_id: int
    name: str
    points: int
    buchholz: int
    firsts: int
    byes: int
    withdrawn: str  # why, printed; "" for a player still in
    withdrawn_code: str  # why, as TournamentPlayer.Withdrawal's value
    mine: bool


@dataclass(frozen=True)
class TableSeat:
    name: str
    place: int | None  # once the game is over
    mine: bool


@dataclass(frozen=True)
class RoundTable:
    game_id: int
    status: str
    status_label: str
    seats: list


@dataclass(frozen=True)
class RoundView:
    number: int
    finished: bool
    tables: list
    byes: list  # names


@dataclass(frozen=True)
class Board:
    tournament: Tournament
    registered: int
    entry: object  # the reader's TournamentPlayer, or None
    may_register: bool
    may_unregister: bool
    may_check_in: bool
    check_in_opens: datetime
    standings: list
    rounds: list

    @property
    def checked_in(self) -> bool:
        return self.entry is not None and self.entry.checked_in_at is not None


def listing() -> tuple[list, list]:
    """(upcoming and running tournaments, the soonest first; the latest past ones)."""
    live = Tournament.objects.filter(status__in=(Status.SCHEDULED, Status.RUNNING))
    past = Tournament.objects.filter(status__in=(Status.FINISHED, Status.CANCELLED))
    return list(live.order_by("starts_at", "pk")), list(past.order_by("-starts_at")[:LISTED_PAST])


def board(tournament: Tournament, user, *, now: datetime | None = None) -> Board:
    now = now or timezone.now()
    entries = list(tournament.players.select_related("user"))
    person = user if getattr(user, "is_authenticated", False) else None
    entry = next((e for e in entries if person and e.user_id == person.pk), None)
    open_ = tournament.status == Status.SCHEDULED and now < tournament.starts_at
    opens = services.check_in_opens(tournament)
    return Board(
        tournament=tournament,
        registered=len(entries),
        entry=entry,
        may_register=open_ and person is not None and entry is None,
        may_unregister=open_ and entry is not None,
        may_check_in=open_ and entry is not None and entry.checked_in_at is None and now >= opens,
        check_in_opens=opens,
        standings=standings(tournament, entries, person),
        rounds=rounds(tournament, person),
    )


def standings(tournament: Tournament, entries: list, person) -> list[Row]:
    """Everyone registered, the best first (`swiss.standings`' order and tie-breaks); before
    the start, in registration order with no points."""
    by_user = {entry.user_id: entry for entry in entries}
    found = swiss.standings(list(by_user), services.results(tournament))
    paired = tournament.round_set.exists()
    rows, rank, last = [], 0, None
    for index, row in enumerate(found, start=1):
        key = (row.points, row.buchholz, row.firsts)
        rank = rank if key == last else index
        last = key
        entry = by_user[row.player]
        rows.append(
            Row(
                rank=rank if paired else None,
                user_id=row.player,
                name=str(entry.user),
                points=int(row.points),
                buchholz=int(row.buchholz),
                firsts=row.firsts,
                byes=row.byes,
                withdrawn=entry.get_withdrawn_display() if entry.withdrawn else "",
                withdrawn_code=entry.withdrawn,
                mine=person is not None and row.player == person.pk,
            )
        )
    return rows


def rounds(tournament: Tournament, person) -> list[RoundView]:
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user", "game"))
    tables = Prefetch(
        "tables", queryset=TournamentTable.objects.select_related("game").prefetch_related(seats)
    )
    played = TournamentRound.objects.filter(tournament=tournament).prefetch_related(tables)
    names = {entry.user_id: str(entry.user) for entry in tournament.players.select_related("user")}
    found = []
    for one in played.order_by("number"):
        views = []
        for table in one.tables.all():
            game = table.game
            over = game.status == Game.Status.FINISHED
            views.append(
                RoundTable(
                    game_id=game.pk,
                    status=game.status,
                    status_label=game.get_status_display(),
                    seats=[
                        TableSeat(
                            seat.display_name,
                            seat.place if over else None,
                            person is not None and seat.user_id == person.pk,
                        )
                        for seat in game.seats.all()
                    ],
                )
            )
        byes = [names.get(user_id, "?") for user_id in one.byes]
        found.append(RoundView(one.number, one.finished_at is not None, views, byes))
    return found


def summary_data(tournament: Tournament) -> dict:
    """A tournament as the API's list shows it."""
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "kind": tournament.kind,
        "variant": tournament.variant,
        "table_size": tournament.table_size,
        "rounds": tournament.rounds,
        "turn_seconds": tournament.turn_seconds,
        "bots_allowed": tournament.bots_allowed,
        "starts_at": tournament.starts_at.isoformat(),
        "check_in_opens": services.check_in_opens(tournament).isoformat(),
    }


def board_data(found: Board) -> dict:
    """A tournament as the API's detail shows it to the caller."""
    entry = found.entry
    return {
        **summary_data(found.tournament),
        "registered": found.registered,
        "me": None
        if entry is None
        else {"checked_in": entry.checked_in_at is not None, "withdrawn": entry.withdrawn or None},
        "may_register": found.may_register,
        "may_unregister": found.may_unregister,
        "may_check_in": found.may_check_in,
        "standings": [
            {
                "rank": row.rank,
                "player": row.name,
                "points": row.points,
                "buchholz": row.buchholz,
                "firsts": row.firsts,
                "byes": row.byes,
                "withdrawn": row.withdrawn_code or None,
            }
            for row in found.standings
        ],
        "rounds_played": [
            {
                "number": one.number,
                "finished": one.finished,
                "byes": one.byes,
                "tables": [
                    {
                        "game": table.game_id,
                        "status": table.status,
                        "players": [
                            {"name": seat.name, "place": seat.place} for seat in table.seats
                        ],
                    }
                    for table in one.tables
                ],
            }
            for one in found.rounds
        ],
    }
