"""Tables: opening one, the join rule, leaving, inviting, starting and the rematch.

Each service locks the game row, validates, writes, and broadcasts after commit (the moves are
`games.play.services`'); every door (pages, API, sockets, admin, a future tournament) calls these,
so each rule is asked here once.
"""

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from biblios_site.errors import (
    Conflict,
    NotAllowed,
    NotFound,
    ServiceError,
)
from friends import selectors as friendships
from games import access
from games.kinds import registry
from games.models import TURN_SECONDS, Game, RematchOffer, Seat
from games.play import broadcast
from games.play.services import (
    after_commit,
    locked_game,
    mark_turn,
    schedule_turn,
    seat_row,
    seen_grace,
)
from games.tables import selectors
from notifications.models import Notification
from notifications.services import notify


@dataclass(frozen=True)
class TableSettings:
    num_players: int
    # A slug of the game registry; None: the first installed kind.
    kind: str | None = None
    # One of the kind's variants; None: its default.
    variant: str | None = None
    # The kind's table options, as its options form takes them (missing ones: their default).
    options: dict = field(default_factory=dict)
    private: bool = False
    spectators_allowed: bool = True
    # Only the host's friends may join (and find it in the lobby).
    friends_only: bool = False
    turn_seconds: int | None = None
    # Bot levels for the seats after the host's, in order; None or "" leaves a seat for people.
    bots: tuple = ()
    # None: rated when only people sit down, unrated as soon as a bot does.
    rated: bool | None = None


def create_table(
    host, table: TableSettings, *, seed: int | None = None, lobby: bool = True
) -> Game:
    """Open a table of a live game kind and seat its host: a variant, player count, options and
    bot levels of that kind (Biblios: R1's 2–4 players, §8's options per edition). A table whose
    other seats are all bots starts at once, as does a table of one (a kind whose
    `player_counts` has 1: a solo game against the game itself, never rated): nobody else can
    join it. `seed`: the deal, for a game everyone plays alike; None: a new one. `lobby`: the
    table waits for players in the lobby, so it counts against its host's open tables; False for
    a table its caller fills and deals in the same transaction (`seat_players`' `start`)."""
    kind = _checked_kind(table.kind)
    variant = _checked_variant(kind, table.variant)
    if table.num_players not in kind.player_counts:
        raise ServiceError(
            gettext("%(kind)s is played by %(counts)s players")
            % {"kind": kind.name, "counts": _either(kind.player_counts)}
        )
    options = _checked_options(kind, variant, table.num_players, table.options)
    _check_the_engine_plays(kind, table.num_players, variant, options)
    if table.turn_seconds is not None and table.turn_seconds not in TURN_SECONDS:
        raise ServiceError(
            gettext(
                "the turn time must be 30, 60 or 180 seconds (live), 43200, 86400 or 259200 "
                "seconds (turn-based: 12, 24 or 72 hours), or none"
            )
        )
    bots = _checked_bots(kind, table)
    if table.num_players == 1 and table.rated:
        raise ServiceError(gettext("a solo game is never rated: nobody plays against you"))
    with transaction.atomic():
        if lobby:
            _refuse_too_many_open_tables(host)
        game = Game.objects.create(
            host=host,
            num_players=table.num_players,
            kind=kind.slug,
            variant=variant,
            options=options,
            private=table.private,
            spectators_allowed=table.spectators_allowed,
            friends_only=table.friends_only,
            turn_seconds=table.turn_seconds,
            rated=_rated(table, bots),
            **({} if seed is None else {"seed": seed}),
        )
        Seat.objects.create(game=game, user=host, position=0)
        Seat.objects.bulk_create(
            Seat(game=game, user=None, bot_level=level, position=position, bot_number=number)
            for position, (level, number) in enumerate(
                zip(bots, bot_numbers(bots), strict=True), start=1
            )
            if level
        )
        if 1 + sum(1 for level in bots if level) == table.num_players:
            _deal(game, host, timezone.now())
        else:
            transaction.on_commit(lambda: broadcast.lobby_changed())
    return game


def _refuse_too_many_open_tables(host) -> None:
    """Conflict if `host` already has settings.MAX_OPEN_TABLES_PER_USER tables waiting to start
    (one user once filled the lobby). Locking the host's row keeps the count exact when one
    user opens tables at once."""
    get_user_model().objects.select_for_update().filter(pk=host.pk).first()
    cap = settings.MAX_OPEN_TABLES_PER_USER
    if Game.objects.filter(host=host, status=Game.Status.OPEN).count() >= cap:
        raise Conflict(
            ngettext(
                "you already have %(count)s open table; start or close it first",
                "you already have %(count)s open tables; start or close one first",
                cap,
            )
            % {"count": cap}
        )


def _checked_kind(slug: str | None) -> registry.GameKind:
    """The live kind named `slug` (None: the first installed); alpha kinds are not offered."""
    if slug is None:
        return registry.kinds()[0]
    try:
        return registry.get(slug)
    except registry.UnknownKind:
        known = ", ".join(kind.slug for kind in registry.kinds())
        raise ServiceError(f"unknown game kind {str(slug)[:40]!r}; choose one of {known}") from None


def _checked_variant(kind: registry.GameKind, slug: str | None) -> str:
    variants = [variant.slug for variant in kind.variants]
    if slug is None:
        return kind.default_variant
    if slug not in variants:
        known = ", ".join(variants)
        raise ServiceError(
            f"unknown variant {str(slug)[:40]!r} of {kind.name}; choose one of {known}"
        )
    return slug


def _checked_options(kind: registry.GameKind, variant: str, players: int, options) -> dict:
    """The engine options of a new table: only the kind's own, each a JSON value of the type the
    kind's options form reads it as (a switch true or false, a level a whole number…), valid
    together for this variant and table size by that form, which the lobby's form binds too; its
    cleaned data (every option the table takes, defaults filled in) are what is stored. An option
    the form drops at this size (Ex Libris' solo difficulty at a table of 3) is refused here,
    where it was asked for by name; the lobby, which posts every field, ignores it."""
    if not isinstance(options, dict):
        raise ServiceError(gettext("options must be an object of the game's options"))
    form = kind.options_form(variant, data=options, players=players)
    unknown = sorted(set(options) - set(form.fields))
    if unknown:
        raise ServiceError(
            f"unknown option(s) {', '.join(map(str, unknown))[:200]}; {kind.name} has "
            f"{', '.join(form.fields) or 'none'}"
        )
    if not form.is_valid():
        raise ServiceError(
            " ".join(message for errors in form.errors.values() for message in errors)
        )
    for name, value in options.items():
        if name not in form.cleaned_data:
            raise ServiceError(f"option {name} does not apply at a table of {players}")
        read = form.cleaned_data[name]
        if type(read) is not type(value) or read != value:  # "3" for 3, 1 for true: not JSON's
            wanted = _JSON_TYPES.get(type(read), f"a {type(read).__name__}")
            raise ServiceError(f"option {name} must be {wanted}")
    return form.cleaned_data


_JSON_TYPES = {bool: "true or false", int: "a whole number", float: "a number", str: "a string"}


def _check_the_engine_plays(kind: registry.GameKind, players: int, variant: str, options) -> None:
    """Ask the engine whether it deals this game, so that a table it would refuse is refused when
    it is opened, with the engine's reason, and not when its host starts it."""
    engine = kind.engine
    try:
        engine.new_game(players, seed=0, variant=variant, options=options)
    except engine.IllegalAction as refusal:
        raise ServiceError(str(refusal)) from None


def _rated(table: TableSettings, bots: list[str]) -> bool:
    """People only: rated unless the host says not; a bot at the table: unrated unless the host
    says so. A solo game never is (it has no opponent to be rated against)."""
    if table.num_players == 1:
        return False
    return not any(bots) if table.rated is None else table.rated


def _either(counts) -> str:
    """2, 3 or 4."""
    words = [str(count) for count in counts]
    if len(words) == 1:
        return words[0]
    return gettext("%(some)s or %(last)s") % {"some": ", ".join(words[:-1]), "last": words[-1]}


def _checked_bots(kind: registry.GameKind, table: TableSettings) -> list[str]:
    """The bot level of each seat after the host's ("" for a seat left to people). Only None
    leaves a seat to people: `{}`, `0`, `false` or `""` from a client are mistakes, not seats."""
    if isinstance(table.bots, str | bytes) or not isinstance(table.bots, list | tuple):
        raise ServiceError(gettext("bots must be a list of bot levels (or nulls for open seats)"))
    if len(table.bots) > table.num_players - 1:
        raise ServiceError(
            f"a table of {table.num_players} has {table.num_players - 1} seats besides the host's"
        )
    for index, level in enumerate(table.bots):
        if level is not None and not (isinstance(level, str) and level in kind.bot_level_slugs):
            raise ServiceError(
                f"bots[{index}]: unknown bot level {str(level)[:20]!r}; use "
                f"{', '.join(kind.bot_level_slugs)}, or null for a seat left to people"
            )
    return ["" if level is None else level for level in table.bots]


def bot_numbers(levels) -> list[int]:
    """Each seat's number among the bots of its level (1, 2…), or 0 for a level seated once
    (and for a seat left to people, ""), so that no two bots at a table share a name."""
    counts = Counter(level for level in levels if level)
    seen = Counter()
    numbers = []
    for level in levels:
        seen[level] += 1
        numbers.append(seen[level] if level and counts[level] > 1 else 0)
    return numbers


def join_table(game_id: int, user, *, invited: bool = False) -> Game:
    """Take the first free seat of an open table, if the join rule (`access.join_refusal`: an
    active account, the invite of a private table, a friend of a friends-only table's host)
    lets `user` sit there: asked here, so every door and every caller obeys it. `invited`: the
    visitor holds the table's invite (the link, its code, a rematch offer)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise Conflict(gettext("this game has already started"))
        visitor = access.Visitor.of(game, user, invited=invited)
        if refusal := access.join_refusal(game, visitor):
            raise NotAllowed(refusal)
        if visitor.seat is not None:
            raise Conflict(gettext("you are already seated at this table"))
        taken = set(game.seats.values_list("position", flat=True))
        free = sorted(set(range(game.num_players)) - taken)
        if not free:
            raise Conflict(gettext("this table is full"))
        Seat.objects.create(game=game, user=user, position=free[0])
        after_commit(game, lobby=True)
    return game


def seat_players(host, table: TableSettings, players, *, start: bool = False) -> Game:
    """Open a table for a given company: `host` first, then each of `players` in order, each
    seated through the join rule as one invited (a tournament's pairing, a rematch among the
    same people). All or nothing: if the rule refuses one of them, or they do not fit the
    table's free seats, no table is opened.

    `start`: deal it at once (a tournament's table, whose players are told by the tournament):
    it never waits in the lobby, so its host's open tables do not limit it."""
    with transaction.atomic():
        game = create_table(host, table, lobby=not start)
        for player in players:
            join_table(game.pk, player, invited=True)
        if start:
            game = locked_game(game.pk)
            if game.status == Game.Status.OPEN:
                _deal(game, None, timezone.now(), announce=False)
    return game


def join_by_invite(invite_code: str, user) -> Game:
    game = Game.objects.filter(invite_code=invite_code).only("pk").first()
    if game is None:
        raise NotFound(gettext("this invite link is not valid"))
    return join_table(game.pk, user, invited=True)


def leave_table(game_id: int, user) -> Game:
    """Leave a table before it starts; a leaving host closes the table for everyone."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise Conflict(gettext("a game in progress cannot be left from the lobby"))
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise Conflict(gettext("you are not seated at this table"))
        if game.host_id == user.pk:
            game.status = Game.Status.ABORTED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at"])
        else:
            seat.delete()
        after_commit(game, lobby=True)
    return game


def remove_player(game_id: int, host, *, user_id: int) -> Game:
    """The host removes a player before the start."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.host_id != host.pk:
            raise NotAllowed(gettext("only the host can remove players"))
        if game.status != Game.Status.OPEN:
            raise Conflict(gettext("players can only be removed before the start"))
        if user_id == host.pk:
            raise ServiceError(gettext("the host cannot remove themself; leave the table instead"))
        deleted, _ = game.seats.filter(user_id=user_id).delete()
        if not deleted:
            raise NotFound(gettext("that player is not at this table"))
        after_commit(game, lobby=True)
    return game


def invite_friend(game_id: int, inviter, friend) -> Game:
    """A seated player invites a friend to the open table: `friend` gets an in-site
    notification (and whatever deliveries they chose) with a join button.

    Refused for someone not seated, a friend who is not one (blocking ends a friendship: a
    blocked user is refused with the rest), a friend the table would not seat (friends of the
    host only), and a table started or full."""
    if not getattr(friend, "is_active", False):
        raise NotFound(gettext("there is no such player"))
    with transaction.atomic():
        game = locked_game(game_id)
        if seat_row(game, inviter) is None:
            raise NotAllowed(gettext("only the table's players can invite to it"))
        if game.status != Game.Status.OPEN:
            raise Conflict(gettext("this game has already started"))
        if friend.pk == inviter.pk or game.seats.filter(user=friend).exists():
            raise Conflict(gettext("this player is seated at this table already"))
        if not friendships.are_friends(inviter, friend):  # a block ended any friendship
            raise NotAllowed(gettext("you can only invite your friends"))
        if refusal := access.friends_only_refusal(game, friend):
            raise NotAllowed(refusal)
        if game.seats.count() >= game.num_players:
            raise Conflict(gettext("this table is full"))
        notify(friend, Notification.Event.INVITATION, game=game, actor=inviter)
    return game


def start_game(game_id: int, user, *, now: datetime | None = None) -> Game:
    """The host starts a full table; the first player is drawn from the seed (R2)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.host_id != user.pk:
            raise NotAllowed(gettext("only the host can start the game"))
        if game.status != Game.Status.OPEN:
            raise Conflict(gettext("this game has already started"))
        if game.seats.count() != game.num_players:
            raise Conflict(f"the table needs {game.num_players} players to start")
        _deal(game, user, now or timezone.now())
    return game


def _deal(game: Game, user, now: datetime, *, announce: bool = True) -> None:
    """Start a full table (in the caller's transaction): the engine deals from the table's
    seed, the first to act is told, the others hear the game started (unless not `announce`:
    a caller that tells them itself)."""
    _compact_seats(game)
    engine = registry.of(game).engine
    try:
        state = engine.new_game(
            game.num_players,
            seed=game.seed,
            variant=game.variant,
            options=game.options,
        )
    except engine.IllegalAction as refusal:
        raise ServiceError(str(refusal)) from None
    game.setup = engine.setup_of(state)
    game.state = engine.dumps(state)
    game.version = state.version
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.due_at = schedule_turn(game, state, game.started_at)
    game.save(update_fields=["setup", "state", "version", "status", "started_at", "due_at"])
    mark_turn(game, engine.to_act(state), actor=user)
    # The seated players hear of the start at any table: one who joined and switched tabs
    # is not watching the waiting room. At a turn-based table the one to act is told it
    # is their turn instead (`mark_turn`).
    others = game.seats.exclude(user=None).select_related("user")
    if game.turn_based:
        others = others.filter(on_turn=False)
    if announce:
        notify(
            [seat.user for seat in others],
            Notification.Event.GAME_STARTED,
            game=game,
            actor=user,
            grace=seen_grace(game),
        )
    after_commit(game, lobby=True)


def _compact_seats(game: Game) -> None:
    """Positions become 0…N-1 in joining order (players may have left and rejoined)."""
    for position, seat in enumerate(game.seats.order_by("position", "joined_at")):
        if seat.position != position:
            Seat.objects.filter(pk=seat.pk).update(position=position)


def rematch(game_id: int, user) -> Game:
    """Play again with the same players: a new table like the finished one (kind, variant,
    options, seat count, turn time, privacy, friends only, bot seats), the requester seated.

    The first player to ask opens it and the others are told, except those who blocked the
    asker or whom the asker blocked (they are not offered that table either); every later
    request (the others' one-click join) seats the asker at that table instead of opening
    another. Each player offers a rematch of a game once, for good (`RematchOffer`): the
    offer's table closed (its host left) or gone, asking again is refused, so nobody is told
    twice by the same player. Another player of the game may still offer once.
    """
    with transaction.atomic():
        game = locked_game(game_id)  # one rematch table per game, even when players ask at once
        if game.status != Game.Status.FINISHED:
            raise Conflict(gettext("only a finished game can be played again"))
        if seat_row(game, user) is None:
            raise NotAllowed(gettext("only this game's players can ask for a rematch"))
        offer = selectors.rematch_offer(game, user)
        if offer is not None:
            if seat_row(offer, user) is None:
                join_table(offer.pk, user, invited=True)  # offered to this game's players
            return offer
        if selectors.has_offered_rematch(game, user):
            raise Conflict(gettext("you have already offered a rematch of this game"))
        bots = game.seats.filter(user__isnull=True).order_by("position")
        table = TableSettings(
            num_players=game.num_players,
            kind=game.kind,
            variant=game.variant,
            options=dict(game.options),
            private=game.private,
            spectators_allowed=game.spectators_allowed,
            friends_only=game.friends_only,
            turn_seconds=game.turn_seconds,
            bots=tuple(bots.values_list("bot_level", flat=True)),
            rated=game.rated,
        )
        new_game = create_table(user, table)
        RematchOffer.objects.create(game=game, asker=user, table=new_game)
        shunned = friendships.blocked_either_way_ids(user)
        others = (
            game.seats.exclude(user=None)
            .exclude(user=user)
            .exclude(user__in=shunned)
            .select_related("user")
        )
        notify(
            [seat.user for seat in others], Notification.Event.REMATCH, game=new_game, actor=user
        )
        # News for the old page at the same version: its players now see the offer.
        transaction.on_commit(
            lambda: broadcast.game_changed(game.pk, game.version, seats_changed=True)
        )
    return new_game
