"""The daily deal: each day (UTC), for each game, one seeded deal that every player may play
once, alone against the site's bots at the game's fixed level (`GameKind.daily`); once their
own game is over, they compare it with everyone's on the same cards (`selectors`).

Every door (the page, the API) starts a daily game through `play_daily`. It locks the player's
row, so two tabs or two doors asking at once start one game, and the database's constraint of
one game per deal and host is the last word. A daily game is a private table that takes no
spectators, so the usual rules (`games.access`) keep it from everyone but its player while it
runs; once the reader's own game of the deal is over, the deal's finished games read to them.
Starting counts as playing: leaving the game does not give the deal back.
"""

from datetime import date

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from biblios_site import errors
from games.kinds import registry
from games.models import DailyDeal, Game
from games.tables.services import TableSettings, create_table


def today() -> date:
    """The deal's day: the date in UTC, the same for every player wherever they are."""
    return timezone.now().date()


def daily_kind(slug: str) -> registry.GameKind:
    """The live game named `slug` that has a daily deal; NotFound otherwise."""
    kind = next((kind for kind in registry.kinds() if kind.slug == slug), None)
    if kind is None or kind.daily is None:
        raise errors.NotFound(gettext("there is no daily deal of that game"))
    return kind


def deal_of(kind: registry.GameKind, day: date | None = None) -> DailyDeal:
    """The day's deal of `kind`, dealt by whoever asks first that day."""
    deal, _ = DailyDeal.objects.get_or_create(
        kind=kind.slug,
        day=day or today(),
        defaults={
            "variant": kind.default_variant,
            "num_players": kind.daily.players,
            "bot_level": kind.daily.bot_level,
        },
    )
    return deal


def play_daily(user, slug: str, *, day: str | None = None) -> Game:
    """Start `user`'s game of today's deal of the game `slug`; refused once they have one, or
    when `day` (the ISO date the asking page showed) is not today: a page left open past
    midnight must not start the next day's deal unseen."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise errors.Unauthorized(gettext("log in to play the daily deal"))
    kind = daily_kind(slug)
    if day is not None and day != today().isoformat():
        raise errors.Conflict(gettext("that day's deal is over: here is today's"))
    deal = deal_of(kind)
    table = TableSettings(
        num_players=deal.num_players,
        kind=deal.kind,
        variant=deal.variant,
        private=True,
        spectators_allowed=False,
        bots=(deal.bot_level,) * (deal.num_players - 1),
        rated=False,
    )
    try:
        with transaction.atomic():
            get_user_model().objects.select_for_update().filter(pk=user.pk).first()
            if Game.objects.filter(daily_deal=deal, host=user).exists():
                raise errors.Conflict(already_played(kind))
            game = create_table(user, table, seed=deal.seed)
            Game.objects.filter(pk=game.pk).update(daily_deal=deal)
    except IntegrityError as clash:  # the constraint, should the lock ever be bypassed
        raise errors.Conflict(already_played(kind)) from clash
    game.daily_deal = deal
    return game


def already_played(kind: registry.GameKind) -> str:
    return gettext(
        "you have already played today's %(game)s deal: a new one is dealt at midnight (UTC)"
    ) % {"game": kind.name}
