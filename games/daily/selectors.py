"""What the daily deal's page shows one reader: for each game, today's deal, their own game of
it, and once that game is over, the day's standings, the spread of the scores and everyone's
finished games to replay; before it, nothing of the deal but how many have played it. And a
player's days: their streak and their past deals (the profile)."""

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from games.daily import services
from games.kinds import registry
from games.models import DailyDeal, Game

HISTORY_DAYS = 30  # the past days a profile lists


@dataclass(frozen=True)
class Standing:
    rank: int  # by points, then by place at the table; equal points and place share a rank
    name: str
    points: int
    place: int  # at their own table, against the bots
    game_id: int
    mine: bool


@dataclass(frozen=True)
class DailyBoard:
    """One game's deal of the day as the reader may see it."""

    kind: registry.GameKind
    deal: DailyDeal
    game: Game | None  # the reader's own game of the deal
    played: int  # how many players have started it
    standings: list | None  # None until the reader's own game is over
    spread: list | None  # (points, how many scored them, bar width in %)

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.status == Game.Status.FINISHED


def boards(user) -> list[DailyBoard]:
    """Today's deal of every game that has one, as `user` (perhaps anonymous) may see it."""
    person = user if getattr(user, "is_authenticated", False) else None
    found = []
    for kind in registry.kinds():
        if kind.daily is None:
            continue
        deal = services.deal_of(kind)
        games = deal.games.all()
        mine = games.filter(host=person).first() if person else None
        standings = spread = None
        if mine is not None and mine.status == Game.Status.FINISHED:
            standings = standings_of(kind, deal, person)
            spread = spread_of([standing.points for standing in standings])
        found.append(DailyBoard(kind, deal, mine, games.count(), standings, spread))
    return found


def standings_of(kind: registry.GameKind, deal: DailyDeal, reader=None) -> list[Standing]:
    """The deal's finished games, the highest score first (`reader`'s own marked)."""
    finished = deal.games.filter(status=Game.Status.FINISHED).select_related("host")
    rows = []
    for game in finished:  # the host plays seat 0, the bots the others
        points, place = kind.daily.points(game.result, 0), host_place(game)
        rows.append((points, place, game.host.display_name, game))
    rows.sort(key=lambda row: (-row[0], row[1], row[2].lower()))
    standings, previous = [], None
    for index, (points, place, name, game) in enumerate(rows, start=1):
        rank = standings[-1].rank if previous == (points, place) else index
        standings.append(
            Standing(
                rank, name, points, place, game.pk, reader is not None and game.host_id == reader.pk
            )
        )
        previous = (points, place)
    return standings


def spread_of(scores: list[int]) -> list[tuple[int, int, int]]:
    """How many scored each score, the highest first, with a bar's width (the commonest 100%)."""
    counts = Counter(scores)
    most = max(counts.values(), default=1)
    return [
        (points, n, round(100 * n / most)) for points, n in sorted(counts.items(), reverse=True)
    ]


@dataclass(frozen=True)
class PastDeal:
    day: date
    kind_name: str
    points: int | None  # None: not finished
    place: int | None
    game_id: int


def days_of(user) -> tuple[int, list[PastDeal]]:
    """`user`'s streak (the days in a row, up to today or yesterday, on which they started a
    daily deal of any game) and their deals of the last HISTORY_DAYS days, the newest first."""
    games = (
        Game.objects.filter(host=user, daily_deal__isnull=False)
        .select_related("daily_deal")
        .order_by("-daily_deal__day", "daily_deal__kind")
    )
    days = set(games.values_list("daily_deal__day", flat=True))
    day = services.today()
    if day not in days:
        day -= timedelta(days=1)
    streak = 0
    while day in days:
        streak += 1
        day -= timedelta(days=1)
    since = services.today() - timedelta(days=HISTORY_DAYS)
    past = []
    for game in games.filter(daily_deal__day__gt=since):
        kind = registry.get(game.kind, include_alpha=True)
        over = game.status == Game.Status.FINISHED
        past.append(
            PastDeal(
                game.daily_deal.day,
                kind.name,
                kind.daily.points(game.result, 0) if over else None,
                host_place(game) if over else None,
                game.pk,
            )
        )
    return streak, past


def host_place(game: Game) -> int:
    """The place of the deal's player (seat 0) in their finished game."""
    return next(row["place"] for row in game.result["players"] if row["seat"] == 0)


def board_data(board: DailyBoard) -> dict:
    """A deal of the day as JSON, as the reader may see it (the API)."""
    return {
        "game": board.kind.slug,
        "day": board.deal.day.isoformat(),
        "players": board.deal.num_players,
        "bot_level": board.deal.bot_level,
        "played": board.played,
        "my_game": board.game.pk if board.game else None,
        "over": board.over,
        "points_name": str(board.kind.daily.points_name),
        "standings": None
        if board.standings is None
        else [
            {
                "rank": row.rank,
                "player": row.name,
                "points": row.points,
                "place": row.place,
                "game": row.game_id,
            }
            for row in board.standings
        ],
        "spread": None
        if board.spread is None
        else [{"points": points, "players": count} for points, count, _ in board.spread],
    }
