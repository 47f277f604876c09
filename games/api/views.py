"""The JSON board API for external clients and bots (documented in docs/api.md).

Authentication, the method check and the JSON answers, errors included, are
`accounts.api_protocol`'s `api_view`. Edges stay thin: tables and moves change only through
the tables' and play's services, and every board sent is `play_selectors.board_for` (the
engine's `view` for the caller's seat, or a spectator's). The friends' and notifications'
endpoints are their apps' own (`friends.api`, `notifications.api`).
"""

from django.db.models import Prefetch, Q
from django.http import JsonResponse

from accounts.api_protocol import api_view, checked_fields, error, page_limit
from biblios_site import errors
from biblios_site.inputs import json_body
from friends import selectors as friendships
from games import access
from games.analysis import selectors as analysis_selectors
from games.analysis import services as analysis_services
from games.daily import selectors as daily_selectors
from games.daily import services as daily_services
from games.models import Game, Seat, Tournament
from games.play import orders
from games.play import selectors as play_selectors
from games.play import services as play_services
from games.tables import selectors as tables_selectors
from games.tables import services as tables_services
from games.tournaments import selectors as tournament_selectors
from games.tournaments import services as tournament_services

LIST_STATUSES = (Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FINISHED)


TABLE_FIELDS = {
    "num_players": int,
    "kind": str,
    "variant": str,
    # the kind's options, checked by its options form (tables_services.create_table)
    "options": dict,
    "private": bool,
    "spectators_allowed": bool,
    "friends_only": bool,
    "turn_seconds": int,
    "bots": list,
    "rated": bool,
}


def _seated_game(game_id: int) -> Game:
    """A game with its seats and their users, for rendering (not for changing it)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    game = Game.objects.select_related("host").prefetch_related(seats).filter(pk=game_id).first()
    if game is None:
        raise errors.NotFound(f"there is no game {game_id}")
    return game


def _my_seat(game: Game, user) -> int | None:
    """`user`'s seat, read from the game's seats (prefetched by `_seated_game` and the lists)."""
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


def _visitor(request, game: Game) -> access.Visitor:
    """Who the caller is at `game`, worked out once per call: their seat, and whether they
    present its invite code as `?invite=` (what an API client has instead of the web's followed
    invite link; `games.access` decides what it allows)."""
    invited = access.holds_invite(game, code=request.GET.get("invite"))
    return access.Visitor.of(game, request.user, invited=invited, seat=_my_seat(game, request.user))


def _board(game: Game, visitor: access.Visitor) -> dict | None:
    """The visitor's view of a started game (None before the start); 403 if they may not look,
    by the same rule as the web pages (`games.access`)."""
    refusal = access.see_refusal(game, visitor)
    if refusal is not None:
        raise errors.NotAllowed(refusal)
    return play_selectors.board_for(game, visitor) if game.state else None


@api_view("GET", "POST")
def tables(request):
    """GET: list tables by status; POST: open a new table, seating its host."""
    if request.method == "POST":
        return _create_table(request)
    status = request.GET.get("status", Game.Status.OPEN)
    if status not in LIST_STATUSES:
        raise errors.BadRequest(f"status must be one of {', '.join(LIST_STATUSES)}")
    limit = page_limit(request)
    seated = Q(pk__in=Seat.objects.filter(user=request.user).values("game"))
    visible = access.listed_to(request.user) | seated
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    found = Game.objects.filter(visible, status=status)
    if status == Game.Status.OPEN:
        found = tables_selectors.open_listed(found, request.user)
    found = (
        found.select_related("host").prefetch_related(seats).order_by("-created_at", "-pk")[:limit]
    )
    listed = [table_json(table, request.user) for table in found]
    return JsonResponse({"status": status, "limit": limit, "tables": listed})


def _create_table(request):
    data = {"num_players": 2, **checked_fields(json_body(request), TABLE_FIELDS)}  # as the form
    game = tables_services.create_table(request.user, tables_services.TableSettings(**data))
    return JsonResponse(table_json(_seated_game(game.pk), request.user), status=201)


@api_view("POST")
def join_table(request, game_id: int):
    """Take a free seat; a private table needs its invite code."""
    data = checked_fields(json_body(request, optional=True), {"invite_code": str})
    game = _seated_game(game_id)
    code = data.get("invite_code") or request.GET.get("invite")
    tables_services.join_table(game.pk, request.user, invited=access.holds_invite(game, code=code))
    return JsonResponse(table_json(_seated_game(game.pk), request.user))


@api_view("POST")
def invite_friend(request, game_id: int):
    """A seated player invites a friend (by username) to the open table: they are notified."""
    data = checked_fields(json_body(request), {"username": str})
    friend = friendships.player_named(data.get("username"))
    if friend is None:
        raise errors.NotFound("send the username of one of your friends")
    tables_services.invite_friend(game_id, request.user, friend)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


@api_view("POST")
def start_table(request, game_id: int):
    """The host starts a full table."""
    checked_fields(json_body(request, optional=True), {})
    tables_services.start_game(game_id, request.user)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


@api_view("POST")
def leave_table(request, game_id: int):
    """Leave before the start (a leaving host closes the table)."""
    checked_fields(json_body(request, optional=True), {})
    tables_services.leave_table(game_id, request.user)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


@api_view("GET")
def game_board(request, game_id: int):
    """The caller's board: their seat's view, or a spectator's."""
    found = _seated_game(game_id)
    visitor = _visitor(request, found)
    view = _board(found, visitor)
    to_act = view["to_act"] if view else []
    return JsonResponse(
        {
            "id": found.pk,
            "version": found.version,
            "status": found.status,
            "seat": visitor.seat,
            "players": [_seat_json(seat) for seat in found.seats.all()],
            "turn_deadline": _iso(play_selectors.turn_deadline(found, found.seats.all(), to_act)),
            "view": view,
        }
    )


@api_view("POST")
def game_actions(request, game_id: int):
    """Submit one action made against board `version`; a stale version gets the current board."""
    data = checked_fields(json_body(request), {"version": int, "action": dict})
    if set(data) != {"version", "action"}:
        raise errors.BadRequest('send {"version": <board version>, "action": {...}}')
    try:  # beyond the user's action rate, the service's RateLimited: 429 with Retry-After
        played = play_services.submit_action(
            game_id, request.user, data["action"], version=data["version"]
        )
    except errors.StaleVersion as stale:
        current = _seated_game(game_id)
        return error(
            str(stale),
            stale.status,
            version=current.version,
            status=current.status,
            view=play_selectors.board_for(current, _visitor(request, current)),
        )
    return JsonResponse(
        {
            "version": played.version,
            "status": played.status,
            "view": play_selectors.board_for(played, _visitor(request, played)),
        }
    )


ORDER_FIELDS = {"version": int, "kind": str, "params": dict}


@api_view("GET", "POST", "DELETE")
def game_orders(request, game_id: int):
    """The caller's own standing orders in the game: GET reads them (with the kinds offered),
    POST gives one against board `version`, DELETE cancels the active one. Nobody else's."""
    if request.method == "POST":
        data = checked_fields(json_body(request), ORDER_FIELDS)
        if not {"version", "kind"} <= set(data):
            raise errors.BadRequest(
                'send {"version": <board version>, "kind": ..., "params": {...}}'
            )
        try:
            play_services.give_order(
                game_id, request.user, data["kind"], data.get("params", {}), version=data["version"]
            )
        except errors.StaleVersion as stale:
            return error(str(stale), stale.status, version=stale.current_version)
    elif request.method == "DELETE":
        play_services.cancel_order(game_id, request.user)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise errors.NotFound(f"there is no game {game_id}")
    seat = game.seats.filter(user=request.user).values_list("position", flat=True).first()
    if seat is None:
        raise errors.NotAllowed("you are not playing in this game")
    return JsonResponse(
        {
            "version": game.version,
            "offered": orders.offered(game),
            "kinds": orders.kinds_offered(game),
            "orders": orders.seat_orders(game, seat),
        },
        status=201 if request.method == "POST" else 200,
    )


@api_view("GET", "POST")
def game_analysis(request, game_id: int):
    """POST asks for the finished game's review (202, queued or already there); GET reads it,
    with its progress, as the caller may (`games.analysis.selectors`)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise errors.NotFound(f"there is no game {game_id}")
    invited = access.holds_invite(game, code=request.GET.get("invite"))
    visitor = access.Visitor.of(game, request.user, invited=invited)
    if request.method == "POST":
        analysis = analysis_services.request_analysis(game, visitor)
        return JsonResponse(analysis_selectors.analysis_data(analysis, visitor), status=202)
    return JsonResponse(analysis_selectors.analysis_for(game, visitor))


@api_view("GET")
def daily_deals(request):
    """Today's deal of each game, as the caller may see it: the standings once their own game
    of it is over (`games.daily.selectors`)."""
    boards = daily_selectors.boards(request.user)
    return JsonResponse({"deals": [daily_selectors.board_data(board) for board in boards]})


@api_view("POST")
def play_daily_deal(request, kind: str):
    """Start the caller's game of today's deal of `kind` (201): the body names the day,
    `{"day": "YYYY-MM-DD"}`, as the page's form does; 409 once they have one."""
    day = json_body(request).get("day")
    if not isinstance(day, str):
        raise errors.BadRequest('name the day of the deal to play: {"day": "YYYY-MM-DD"}')
    game = daily_services.play_daily(request.user, kind, day=day)
    return JsonResponse({"game": game.pk, "day": game.daily_deal.day.isoformat()}, status=201)


@api_view("GET")
def tournaments(request):
    """The tournaments coming and in progress, then the latest past ones."""
    upcoming, past = tournament_selectors.listing()
    return JsonResponse(
        {
            "tournaments": [
                tournament_selectors.summary_data(tournament) for tournament in [*upcoming, *past]
            ]
        }
    )


def _tournament(tournament_id: int) -> Tournament:
    found = Tournament.objects.filter(pk=tournament_id).first()
    if found is None:
        raise errors.NotFound(f"there is no tournament {tournament_id}")
    return found


@api_view("GET")
def tournament(request, tournament_id: int):
    """A tournament: its settings, the caller's registration, the standings with their
    tie-breaks, and each round's tables with their games' ids and, once over, the places."""
    board = tournament_selectors.board(_tournament(tournament_id), request.user)
    return JsonResponse(tournament_selectors.board_data(board))


@api_view("POST")
def tournament_action(request, tournament_id: int, action: str):
    """Register, unregister or check in (the body, if any, is an empty object); the tournament
    as `tournament` shows it after."""
    checked_fields(json_body(request, optional=True), {})
    tournament_services.PLAYER_ACTIONS[action](tournament_id, request.user)
    board = tournament_selectors.board(_tournament(tournament_id), request.user)
    return JsonResponse(tournament_selectors.board_data(board))


@api_view("GET")
def your_turn(request):
    """The games waiting on the caller's move, the most urgent first (the "Your turn" page)."""
    games = play_selectors.your_turn_games(request.user)
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
    play_services.leave_game(game_id, request.user)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


@api_view("POST")
def take_seat_back(request, game_id: int):
    """Play one's seat again after leaving it (or after three timeouts)."""
    checked_fields(json_body(request, optional=True), {})
    play_services.take_seat_back(game_id, request.user)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


@api_view("GET", "POST", "PUT", "PATCH", "DELETE")
def unknown_endpoint(request, rest: str = ""):
    """Unknown API paths answer in JSON too (after authentication, like every endpoint)."""
    raise errors.NotFound(f"there is no API endpoint /api/{rest}")
