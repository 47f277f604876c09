"""Read-only queries and view-derived data for the game pages and a player's profile.

Everything here is built from `board_for` (the seat's `view`) or from `events_for`
while replaying the move log, never from the raw state, so a page cannot show what its seat
may not know.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Case, Count, F, Prefetch, Q, Value, When
from django.utils.translation import gettext

from biblios_site import errors
from friends import selectors as friendships
from games import access, seat_notes
from games.kinds import registry
from games.models import Game, Move, RematchOffer, Seat


def seat_names(game: Game, seats=None) -> list[str]:
    """Display names by seat position; a free seat is "(free seat)". `seats`: the game's seats
    with their users, when the caller has read them already (one query less per board)."""
    names = [gettext("(free seat)")] * game.num_players
    for seat in game.seats.select_related("user") if seats is None else seats:
        if seat.position < game.num_players:
            names[seat.position] = seat.display_name
    return names


def turn_deadline(game: Game, seats, to_act: list[int]) -> datetime | None:
    """When the person to act (`to_act`, from any view) runs out of time; None when untimed,
    on a bot's turn, or with nobody to act.

    `Game.due_at` is that deadline on a person's turn; on a bot's it is the bot's move time.
    """
    if not (game.turn_seconds and game.due_at and game.status == Game.Status.ACTIVE):
        return None
    acting = next((seat for seat in seats if to_act and seat.position == to_act[0]), None)
    return game.due_at if acting is not None and not acting.bot_level else None


def lobby_tables(user) -> dict:
    """The lobby's lists: open public tables (my friends' first), public games in progress,
    and my tables; friends-only tables only where I am the host's friend."""
    friend_ids = friendships.friend_ids(user)
    public = Game.objects.filter(access.listed_to(user, friend_ids)).select_related("host")
    open_tables = open_listed(public, user).order_by("-created_at")
    if friend_ids:
        by_friend = Case(When(host_id__in=friend_ids, then=Value(0)), default=Value(1))
        open_tables = open_tables.order_by(by_friend, "-created_at")
    context = {
        "open_tables": list(open_tables[:50]),
        "games_in_progress": list(
            public.filter(status=Game.Status.ACTIVE).order_by("-started_at")[:50]
        ),
        "my_tables": [],
        "my_table_ids": set(),
        "friend_ids": friend_ids,
        "user": user,
    }
    if getattr(user, "is_authenticated", False):
        mine = (
            Game.objects.filter(pk__in=Seat.objects.filter(user=user).values("game_id"))
            .filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
            .select_related("host")
            .annotate(taken=Count("seats"))
            .order_by("-created_at")
        )
        context["my_tables"] = list(mine[:50])
        context["my_table_ids"] = {game.pk for game in context["my_tables"]}
    return context


def open_listed(games, user):
    """Of `games`, the open tables an open-tables list (the lobby, its socket, the API's)
    shows `user`, each with its seats counted (`taken`): those with a seat free, and the ones
    `user` sits at. A full table only waits for its host to start it: nobody can join it, so
    as on other game sites the list holds only what one can join, and its players' own."""
    listed = Q(taken__lt=F("num_players"))
    if getattr(user, "is_authenticated", False):
        listed |= Q(pk__in=Seat.objects.filter(user=user).values("game_id"))
    return games.filter(status=Game.Status.OPEN).annotate(taken=Count("seats")).filter(listed)


def invitable_friends(game: Game, user, seats) -> list:
    """The friends `user` may invite to `game` (open, with `seats` read): not seated, and at a
    table for the host's friends only, friends of the host too."""
    if game.status != Game.Status.OPEN or len(seats) >= game.num_players:
        return []
    friends = friendships.friends_of(user).exclude(pk__in=[seat.user_id for seat in seats])
    if game.friends_only and game.host_id != user.pk:
        friends = friends.filter(pk__in=friendships.friend_ids(game.host))
    return list(friends)


def _waiting_on(user):
    """The seats where a game waits on `user` themself (not on a bot playing for them): kept
    by the services in `Seat.on_turn`, so no engine state is read."""
    return Seat.objects.filter(user=user, on_turn=True, bot_level="")


def your_turn_count(user) -> int:
    """How many games wait on `user`'s move: the navigation's count, one indexed query."""
    return _waiting_on(user).count()


def _most_urgent_first(games):
    """The least time left first; untimed games (no deadline) last, the oldest game first."""
    return games.order_by(F("due_at").asc(nulls_last=True), "pk")


def your_turn_games(user) -> list[Game]:
    """The games waiting on `user`'s move, the most urgent first, with their seats and users
    (the "Your turn" list names the opponents)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user"))
    games = Game.objects.filter(pk__in=_waiting_on(user).values("game_id"))
    return list(_most_urgent_first(games).prefetch_related(seats))


def other_games_waiting(user, game: Game) -> list[int]:
    """The ids of the games other than `game` waiting on `user`'s move, the most urgent first:
    a game page's "next game waiting for you"."""
    games = Game.objects.filter(pk__in=_waiting_on(user).values("game_id")).exclude(pk=game.pk)
    return list(_most_urgent_first(games).values_list("pk", flat=True))


class _History:
    """Recently replayed games, step by step, so each new move costs one engine step.

    Keyed by (game id, seed, creation time): a reused id (a test database rolled back, say)
    never picks up another game's history, even with the same fixed seed. Engine states are
    never changed in place, so sharing them is safe; a lock keeps concurrent renders (consumer
    threads) consistent.
    """

    def __init__(self, size: int = 32):
        self.size = size
        self.games: OrderedDict[tuple, dict] = OrderedDict()
        self.lock = threading.Lock()

    def events(self, game: Game, seat) -> list[list[dict]]:
        """Each step's events as `seat` may see them, from the setup to the game's version."""
        key = (game.pk, game.seed, game.created_at)
        with self.lock:
            entry = self.games.get(key) or {"states": [], "events": {}}
            states = entry["states"][: game.version + 1]
            seen = entry["events"].get(seat, [])[: len(states)]
        engine = registry.of(game).engine
        if len(states) < game.version + 1:
            first = max(len(states), 1)  # the first move not folded yet (moves start at seq 1)
            moves = game.moves.filter(seq__gte=first, seq__lte=game.version).order_by("seq")
            logged = moves.values_list("seat", "action") if first <= game.version else []
            states += engine.steps(game.setup, logged, resume=states[-1] if states else None)
        seen = seen + [engine.events_for(state, seat) for state in states[len(seen) :]]
        with self.lock:
            entry = self.games.get(key)
            if entry is None or len(entry["states"]) <= len(states):
                entry = {
                    "states": states,
                    "events": {} if entry is None else entry["events"],
                }
                self.games[key] = entry
            entry["events"][seat] = seen
            self.games.move_to_end(key)
            while len(self.games) > self.size:
                self.games.popitem(last=False)
        return seen


_history = _History()


def game_log(game: Game, seat, *, limit: int | None = None) -> list[dict]:
    """The game's events as `seat` may see them, newest first (at most `limit`), the events of
    moves the clock decided marked (`with_timeouts_marked`), with the platform's own after the
    move they followed (`seat_notes`: a seat handed to the bot by a ban).

    The view only carries the last action's events; the log replays the move log and filters
    each step through `events_for`, the engine's own per-seat filter.
    """
    if not game.setup:
        return []
    timed_out = timed_out_steps(game)
    notes = seat_notes.by_step(game)
    steps = _history.events(game, seat)
    events = [
        event
        for step, events in enumerate(steps)
        for event in [*with_timeouts_marked(events, step in timed_out), *notes.get(step, ())]
    ][::-1]
    return events if limit is None else events[:limit]


def timed_out_steps(game: Game) -> set[int]:
    """The moves (by seq, which is their step) the stand-in bot played for a player whose time
    ran out. Saying so reveals nothing: everyone at the table saw the clock run out."""
    return set(game.moves.filter(played_by=Move.PlayedBy.TIMEOUT).values_list("seq", flat=True))


def with_timeouts_marked(events: list[dict], timed_out: bool) -> list[dict]:
    """A step's events, each marked `"timed_out": True` when the clock chose the move, so the
    kind's log line says the bot chose it for the player rather than "you took…"."""
    return [{**event, "timed_out": True} for event in events] if timed_out else events


def game_steps(game: Game, seat) -> list[list[dict]]:
    """Each step's events as `seat` may see them: the setup's, then one list per move."""
    return _history.events(game, seat) if game.setup else []


def rematch_offer(game: Game, user) -> Game | None:
    """The open table replaying `game` that `user` is offered: the newest one opened by one of
    its players whom `user` did not block and was not blocked by (`services.rematch`)."""
    if game.status != Game.Status.FINISHED:
        return None
    offers = RematchOffer.objects.filter(game=game, table__status=Game.Status.OPEN)
    shunned = friendships.blocked_either_way_ids(user)
    if shunned:
        offers = offers.exclude(asker_id__in=shunned)
    offer = offers.select_related("table").order_by("-created_at", "-pk").first()
    return offer.table if offer is not None else None


def has_offered_rematch(game: Game, user) -> bool:
    """Whether `user` has offered a rematch of `game` (each player may, once)."""
    return RematchOffer.objects.filter(game=game, asker_id=getattr(user, "pk", None)).exists()


# ---------------------------------------------------------------------------- boards


def seat_of(game: Game, user) -> int | None:
    """The engine seat of `user` at `game`, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return game.seats.filter(user=user).values_list("position", flat=True).first()


def board_for(game: Game, user) -> dict:
    """What `user` may see of `game` now: their seat's view, or a spectator's (R22).

    The doors ask `games.access` first (they know about invites); this still refuses a
    spectator's board where the table admits none, so no caller can skip that.
    """
    position = seat_of(game, user)
    if position is None and not access.admits_spectator(game, user):
        raise errors.NotAllowed(gettext("this table does not allow spectators"))
    return seat_board(game, position)


def seat_board(game: Game, position: int | None) -> dict:
    """The board of seat `position` (None: a spectator's), for a caller that has asked
    `games.access` already and knows the user's seat (a socket remembers it once the game has
    started, saving a query per push)."""
    return registry.of(game).engine.view(game.engine_state(), position)


# ------------------------------------------------------------------ a player's games (profile)
# Kept out of the page so their cost stays visible: six queries however many games there are,
# one narrow row per finished seat and one count for the record, and for the current and the
# recent games one query each plus one for their seated players.

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
