"""The JSON board API for external clients and bots (documented in docs/api.md).

Authentication, the method check and the JSON answers, errors included, are
`games.api_protocol`'s `api_view`. Edges stay thin: tables and moves change only through
`games.services`, and every board sent is `selectors.board_for` (the engine's `view` for the
caller's seat, or a spectator's).
"""

from django.db.models import Prefetch, Q
from django.http import JsonResponse

from biblios_site import errors, ratelimit
from biblios_site.inputs import json_body, whole_number
from friends import selectors as friendships
from friends import services as friend_services
from games import access, selectors, services
from games.api_protocol import api_view, checked_fields, error
from games.models import Game, Seat
from notifications import selectors as notices
from notifications import services as notice_services
from notifications import texts as notice_texts

LIST_STATUSES = (Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FINISHED)
DEFAULT_LIMIT, MAX_LIMIT = 50, 100
TABLE_FIELDS = {
    "num_players": int,
    "kind": str,
    "variant": str,
    "options": dict,  # the kind's options, checked by its options form (services.create_table)
    "private": bool,
    "spectators_allowed": bool,
    "friends_only": bool,
    "turn_seconds": int,
    "bots": list,
    "rated": bool,
}


# ----------------------------------------------------------------------------- selectors


def _seated_game(game_id: int) -> Game:
    """A game with its seats and their users, for rendering (not for changing it)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    game = Game.objects.select_related("host").prefetch_related(seats).filter(pk=game_id).first()
    if game is None:
        raise errors.NotFound(f"there is no game {game_id}")
    return game


def _my_seat(game: Game, user) -> int | None:
    return next((seat.position for seat in game.seats.all() if seat.user_id == user.pk), None)


def table_json(game: Game, user) -> dict:
    """What a lobby shows of a table; the invite code only to its host."""
    data = {
        "id": game.pk,
        "status": game.status,
        "kind": game.kind,
        "variant": game.variant,
        "num_players": game.num_players,
        "options": dict(game.options),
        "private": game.private,
        "spectators_allowed": game.spectators_allowed,
        "friends_only": game.friends_only,
        "host": str(game.host),
        "seats": [_seat_json(seat) for seat in game.seats.all()],
        "seat": _my_seat(game, user),
        "turn_seconds": game.turn_seconds,
        "rated": game.rated,
        "created_at": game.created_at.isoformat(),
    }
    if game.host_id == user.pk:
        data["invite_code"] = game.invite_code
    return data


def _seat_json(seat: Seat) -> dict:
    """A seat and who plays it: `bot` is the level of the bot playing it now (null for its
    person), `taken_over` says a bot stands in for a person who left or ran out of time."""
    return {
        "seat": seat.position,
        "name": seat.display_name,
        "bot": seat.bot_level or None,
        "taken_over": seat.taken_over,
    }


def _invited(request, game: Game) -> bool:
    """Whether the caller presents `game`'s invite code as `?invite=` (what an API client has
    instead of the web's followed invite link; `games.access` decides what it allows)."""
    return access.holds_invite(game, code=request.GET.get("invite"))


def _board(request, game: Game) -> dict | None:
    """The caller's view of a started game (None before the start); 403 if they may not look,
    by the same rule as the web pages (`games.access`)."""
    seat = _my_seat(game, request.user)
    refusal = access.see_refusal(game, request.user, invited=_invited(request, game), seat=seat)
    if refusal is not None:
        raise errors.NotAllowed(refusal)
    return selectors.board_for(game, request.user) if game.state else None


# --------------------------------------------------------------------------------- tables


@api_view("GET", "POST")
def tables(request):
    """GET: list tables by status; POST: open a new table, seating its host."""
    if request.method == "POST":
        return _create_table(request)
    status = request.GET.get("status", Game.Status.OPEN)
    if status not in LIST_STATUSES:
        raise errors.BadRequest(f"status must be one of {', '.join(LIST_STATUSES)}")
    limit = _limit(request.GET.get("limit", str(DEFAULT_LIMIT)))
    seated = Q(pk__in=Seat.objects.filter(user=request.user).values("game"))
    visible = access.listed_to(request.user) | seated
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    found = Game.objects.filter(visible, status=status)
    if status == Game.Status.OPEN:
        found = selectors.open_listed(found, request.user)
    found = (
        found.select_related("host").prefetch_related(seats).order_by("-created_at", "-pk")[:limit]
    )
    listed = [table_json(table, request.user) for table in found]
    return JsonResponse({"status": status, "limit": limit, "tables": listed})


def _limit(raw: str) -> int:
    limit = whole_number(raw, minimum=1, maximum=MAX_LIMIT)
    if limit is None:
        raise errors.BadRequest(f"limit must be a whole number from 1 to {MAX_LIMIT}")
    return limit


def _create_table(request):
    data = {"num_players": 2, **checked_fields(json_body(request), TABLE_FIELDS)}  # as the form
    game = services.create_table(request.user, services.TableSettings(**data))
    return JsonResponse(table_json(_seated_game(game.pk), request.user), status=201)


@api_view("POST")
def join_table(request, game_id: int):
    """Take a free seat; a private table needs its invite code."""
    data = checked_fields(json_body(request, optional=True), {"invite_code": str})
    game = _seated_game(game_id)
    code = data.get("invite_code") or request.GET.get("invite")
    services.join_table(game.pk, request.user, invited=access.holds_invite(game, code=code))
    return JsonResponse(table_json(_seated_game(game.pk), request.user))


@api_view("POST")
def invite_friend(request, game_id: int):
    """A seated player invites a friend (by username) to the open table: they are notified."""
    data = checked_fields(json_body(request), {"username": str})
    friend = friendships.player_named(data.get("username"))
    if friend is None:
        raise errors.NotFound("send the username of one of your friends")
    services.invite_friend(game_id, request.user, friend)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


@api_view("POST")
def start_table(request, game_id: int):
    """The host starts a full table."""
    checked_fields(json_body(request, optional=True), {})
    services.start_game(game_id, request.user)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


@api_view("POST")
def leave_table(request, game_id: int):
    """Leave before the start (a leaving host closes the table)."""
    checked_fields(json_body(request, optional=True), {})
    services.leave_table(game_id, request.user)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


# ---------------------------------------------------------------------------------- games


@api_view("GET")
def game_board(request, game_id: int):
    """The caller's board: their seat's view, or a spectator's."""
    found = _seated_game(game_id)
    view = _board(request, found)
    to_act = view["to_act"] if view else []
    return JsonResponse(
        {
            "id": found.pk,
            "version": found.version,
            "status": found.status,
            "seat": _my_seat(found, request.user),
            "players": [_seat_json(seat) for seat in found.seats.all()],
            "turn_deadline": _iso(selectors.turn_deadline(found, found.seats.all(), to_act)),
            "view": view,
        }
    )


@api_view("POST")
def game_actions(request, game_id: int):
    """Submit one action made against board `version`; a stale version gets the current board."""
    data = checked_fields(json_body(request), {"version": int, "action": dict})
    if set(data) != {"version", "action"}:
        raise errors.BadRequest('send {"version": <board version>, "action": {...}}')
    ratelimit.hit("action", request.user.pk)
    try:
        played = services.submit_action(
            game_id, request.user, data["action"], version=data["version"]
        )
    except errors.StaleVersion as stale:
        current = _seated_game(game_id)
        return error(
            str(stale),
            stale.status,
            version=current.version,
            status=current.status,
            view=selectors.board_for(current, request.user),
        )
    return JsonResponse(
        {
            "version": played.version,
            "status": played.status,
            "view": selectors.board_for(played, request.user),
        }
    )


@api_view("GET")
def your_turn(request):
    """The games waiting on the caller's move, the most urgent first (the "Your turn" page)."""
    games = selectors.your_turn_games(request.user)
    return JsonResponse({"count": len(games), "games": [_waiting_json(g, request) for g in games]})


def _waiting_json(game: Game, request) -> dict:
    seats = list(game.seats.all())
    deadline = game.due_at if game.turn_seconds else None
    return {
        "id": game.pk,
        "kind": game.kind,
        "variant": game.variant,
        "version": game.version,
        "seat": _my_seat(game, request.user),
        "opponents": [seat.display_name for seat in seats if seat.user_id != request.user.pk],
        "turn_seconds": game.turn_seconds,
        "turn_deadline": _iso(deadline),
    }


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


@api_view("POST")
def leave_game(request, game_id: int):
    """Leave a game in progress on purpose: the kind's stand-in bot plays the seat to the end."""
    checked_fields(json_body(request, optional=True), {})
    services.leave_game(game_id, request.user)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


@api_view("POST")
def take_seat_back(request, game_id: int):
    """Play one's seat again after leaving it (or after three timeouts)."""
    checked_fields(json_body(request, optional=True), {})
    services.take_seat_back(game_id, request.user)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


# -------------------------------------------------------------------------------- friends

FRIEND_ACTIONS = {
    "request": friend_services.send_request,
    "accept": friend_services.accept,
    "refuse": friend_services.refuse,
    "cancel": friend_services.cancel,
    "remove": friend_services.remove_friend,
    "block": friend_services.block,
    "unblock": friend_services.unblock,
}


def _player_json(user) -> dict:
    return {"username": user.username, "name": str(user)}


@api_view("GET")
def friends(request):
    """My friends, the requests waiting for my answer and for theirs, and whom I blocked."""
    me = request.user
    return JsonResponse(
        {
            "friends": [_player_json(friend) for friend in friendships.friends_of(me)],
            "incoming": [_player_json(row.sender) for row in friendships.incoming_requests(me)],
            "outgoing": [_player_json(row.receiver) for row in friendships.outgoing_requests(me)],
            "blocked": [_player_json(row.blocked) for row in friendships.blocked_users(me)],
        }
    )


@api_view("POST")
def friend_action(request, username: str, action: str):
    """One of FRIEND_ACTIONS on the player `username`; answers what they are to me now."""
    checked_fields(json_body(request, optional=True), {})
    if action not in FRIEND_ACTIONS:
        raise errors.NotFound(f"there is no API endpoint /api/friends/<username>/{action[:40]}")
    other = friendships.player_named(username)
    if other is None:
        raise errors.NotFound(f"there is no player {username[:40]!r}")
    FRIEND_ACTIONS[action](request.user, other)
    return JsonResponse(
        {**_player_json(other), "relation": friendships.relation(request.user, other)}
    )


# -------------------------------------------------------------------------- notifications


@api_view("GET")
def notifications(request):
    """The caller's notifications, newest first (`?limit=`), and how many are unread."""
    limit = _limit(request.GET.get("limit", str(DEFAULT_LIMIT)))
    rows = notices.latest(request.user, limit=limit)
    return JsonResponse(
        {
            "unread": notices.unread_count(request.user),
            "notifications": [_notification_json(row) for row in rows],
        }
    )


def _notification_json(notification) -> dict:
    """One notification, its texts in the reader's profile language (as its e-mail)."""
    text = notice_texts.render(notification)
    return {
        "id": notification.pk,
        "event": notification.event,
        "game": notification.game_id,
        "actor": str(notification.actor) if notification.actor_id else None,
        "title": text.title,
        "body": text.body,
        "url": text.url,
        "created_at": notification.created_at.isoformat(),
        "read": notification.read_at is not None,
    }


@api_view("POST")
def notifications_read(request):
    """Mark notifications read: `{"ids": [...]}`, or every one with `{"all": true}`."""
    data = checked_fields(json_body(request), {"ids": list, "all": bool})
    if data.get("all") is True and "ids" not in data:
        changed = notice_services.mark_read(request.user)
    elif "ids" in data and "all" not in data:
        ids = data["ids"]
        wrong = [i for i in ids if isinstance(i, bool) or whole_number(i) is None]
        if len(ids) > MAX_LIMIT or wrong or not all(isinstance(i, int) for i in ids):
            raise errors.BadRequest(f"ids must be a list of at most {MAX_LIMIT} notification ids")
        changed = notice_services.mark_read(request.user, ids)
    else:
        raise errors.BadRequest('send {"ids": [<notification id>, ...]} or {"all": true}')
    return JsonResponse({"marked": changed, "unread": notices.unread_count(request.user)})


@api_view("GET", "POST", "PUT", "PATCH", "DELETE")
def unknown_endpoint(request, rest: str = ""):
    """Unknown API paths answer in JSON too (after authentication, like every endpoint)."""
    raise errors.NotFound(f"there is no API endpoint /api/{rest}")
