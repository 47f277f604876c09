"""Read-only queries for the lobby and the waiting rooms: the tables a reader may see, the friends
they may invite, a rematch on offer.
"""

from django.db.models import Case, Count, F, Q, Value, When

from friends import selectors as friendships
from games import access
from games.models import Game, RematchOffer, Seat


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
