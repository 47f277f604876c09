"""Read-only queries behind the leaderboard and the profile's ratings, and the chart's geometry.

Both cost a fixed number of queries whatever the number of players or games: the leaderboard
a count and one page of rows, a profile one query for its ratings and one per rated variant for
the last `CHART_GAMES` changes.
"""

import math
from dataclasses import dataclass

from django.core.paginator import Page, Paginator
from django.db.models import F, Window
from django.db.models.functions import Rank, Round

from games.kinds import registry
from ratings.models import Rating, RatingChange

LEADERBOARD_PAGE_SIZE = 50
# Enough to see a trend on a phone; older games still count in the rating itself.
CHART_GAMES = 100
RECENT_CHANGES = 5


def leaderboard_page(kind: str, variant: str, page_number) -> Page:
    """One page of the players with a rated game in a kind's variant, best first.

    Players showing the same (rounded) rating share a rank; among them, more games first, then
    by username, so the order never depends on the database's whim. Banned players are left out.
    """
    rows = (
        Rating.objects.filter(kind=kind, variant=variant, games__gt=0, user__is_active=True)
        .select_related("user")
        .annotate(shown=Round("rating"))
        .annotate(rank=Window(Rank(), order_by=F("shown").desc()))
        .order_by("-shown", "-games", "user__username")
    )
    return Paginator(rows, LEADERBOARD_PAGE_SIZE).get_page(page_number)


@dataclass(frozen=True)
class Chart:
    """An SVG line chart of a rating over games, in a fixed viewBox the page scales to fit."""

    width: int
    height: int
    points: str  # the polyline's "x,y x,y …"
    dots: list[tuple[float, float]]
    y_ticks: list[tuple[float, int]]  # (y, rating)
    x_ticks: list[tuple[float, int]]  # (x, number of rated games played)
    left: int
    right: int
    top: int
    bottom: int
    start: int
    end: int
    low: int
    high: int


@dataclass(frozen=True)
class VariantRating:
    kind: str
    variant: str
    label: str
    rating: Rating
    chart: Chart
    recent: list[RatingChange]


def profile_ratings(user) -> list[VariantRating]:
    """The player's rating in each variant they have played rated, with its history chart."""
    ratings = Rating.objects.filter(user=user, games__gt=0).order_by("kind", "variant")
    found = []
    for rating in ratings:
        history = RatingChange.objects.filter(user=user, kind=rating.kind, variant=rating.variant)
        changes = list(history.order_by("-created_at", "-pk")[:CHART_GAMES])
        changes.reverse()
        found.append(
            VariantRating(
                kind=rating.kind,
                variant=rating.variant,
                label=registry.of(rating).variant_name(rating.variant),
                rating=rating,
                chart=history_chart(
                    [changes[0].before, *(change.after for change in changes)],
                    first_game=rating.games - len(changes),
                ),
                recent=changes[::-1][:RECENT_CHANGES],
            )
        )
    return found


def history_chart(values: list[float], *, first_game: int = 0) -> Chart:
    """Where to draw `values` (the rating before the first shown game, then after each game).

    The vertical range is rounded out to 50 points and at least 100 wide, so a small wobble
    does not look like a cliff; `first_game` numbers the x axis when older games are cut off.
    """
    width, height = 320, 160
    left, right, top, bottom = 44, 312, 10, 134
    low = math.floor(min(values) / 50) * 50
    high = max(math.ceil(max(values) / 50) * 50, low + 100)
    step = (right - left) / max(len(values) - 1, 1)

    def x(index: int) -> float:
        return round(left + index * step, 1)

    def y(value: float) -> float:
        return round(bottom - (value - low) / (high - low) * (bottom - top), 1)

    dots = [(x(index), y(value)) for index, value in enumerate(values)]
    middle = (low + high) // 2
    last = len(values) - 1
    return Chart(
        width=width,
        height=height,
        points=" ".join(f"{px},{py}" for px, py in dots),
        dots=dots if len(dots) <= 30 else [dots[-1]],
        y_ticks=[(y(value), value) for value in (low, middle, high)],
        x_ticks=[(x(0), first_game), (x(last), first_game + last)],
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        start=round(values[0]),
        end=round(values[-1]),
        low=round(min(values)),
        high=round(max(values)),
    )
