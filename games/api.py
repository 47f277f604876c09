"""The JSON board API for external clients and bots (documented in docs/api.md).

Every request carries `Authorization: Bearer <token>` (accounts.models.ApiToken); cookies and
sessions are ignored entirely. That is why the views are CSRF-exempt: CSRF protects requests a
browser authenticates on its own with a cookie, and a browser never adds a bearer token by
itself, so a request without a valid token is refused (401) before anything is read or written.

Edges stay thin: tables and moves change only through `games.services`, and every board sent is
`services.board_for` (the engine's `view` for the caller's seat, or a spectator's). Every answer
is JSON, errors included: `{"error": "..."}` with a 4xx status, never an HTML page or a 500.
"""

import functools
import json
import logging
import secrets

from django.core.exceptions import RequestDataTooBig
from django.db.models import Prefetch, Q
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from accounts.models import ApiToken
from biblios_site.inputs import whole_number
from games import overload, ratelimit, selectors, services
from games.models import Game, Seat

logger = logging.getLogger(__name__)

LIST_STATUSES = (Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FINISHED)
DEFAULT_LIMIT, MAX_LIMIT = 50, 100
TABLE_FIELDS = {
    "num_players": int,
    "edition": str,
    "medieval_bluff": bool,
    "forbid_uncoverable_bids": bool,
    "private": bool,
    "spectators_allowed": bool,
    "turn_seconds": int,
    "bots": list,
    "rated": bool,
}
TYPE_WORDS = {
    int: "a whole number",
    str: "a string",
    bool: "true or false",
    dict: "a JSON object",
    list: "a JSON array",
}


class BadRequest(services.ServiceError):
    """The request itself is malformed (body, fields, query parameters)."""


class Unauthorized(services.ServiceError):
    status = 401


def error(message: str, code: int, **extra) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=code)


def api_view(*methods):
    """Method check, bearer-token authentication and JSON errors around an API view.

    The view receives the token's user as `request.user`; a ServiceError it raises becomes
    `{"error": message}` with the error's status.
    """

    def decorate(view):
        @csrf_exempt
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in methods:
                response = error(f"{request.method} is not allowed here", 405)
                response["Allow"] = ", ".join(methods)
                return response
            try:
                request.user = authenticate(request)
                ratelimit.hit("api", request.user.pk)
                return view(request, *args, **kwargs)
            except Unauthorized as refusal:
                response = error(str(refusal), 401)
                response["WWW-Authenticate"] = 'Bearer realm="api"'
                return response
            except ratelimit.RateLimited as refusal:
                response = error(str(refusal), 429)
                response["Retry-After"] = str(refusal.retry_after)
                return response
            except services.ServiceError as refusal:
                return error(str(refusal), refusal.status)
            except RequestDataTooBig:
                return error("the request body is too large", 413)
            except Exception as failure:
                if overload.database_busy(failure):  # nothing was applied: retry later
                    logger.warning("database busy on %s %s: 503", request.method, request.path)
                    return overload.busy_response(request)
                # A bug, not bad input: log it, but still answer in the API's own format.
                logger.exception("board API failure on %s %s", request.method, request.path)
                return error("internal error", 500)

        return wrapper

    return decorate


def authenticate(request):
    """The active user of the request's bearer token, or Unauthorized."""
    header = request.headers.get("Authorization", "")
    scheme, _, raw = header.partition(" ")
    if not header:
        raise Unauthorized("send your API token as 'Authorization: Bearer <token>'")
    if scheme.lower() != "bearer" or not raw.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    user = ApiToken.user_for(raw.strip())
    if user is None:
        raise Unauthorized("this API token is not valid")
    return user


def json_body(request, *, optional: bool = False) -> dict:
    """The request body as a JSON object (an empty body is `{}` when `optional`)."""
    if not request.body.strip():
        if optional:
            return {}
        raise BadRequest("the request body must be a JSON object")
    try:
        data = json.loads(request.body, parse_constant=_reject_constant)
    except RecursionError:
        raise BadRequest("the request body is nested too deeply") from None
    except ValueError as problem:  # JSONDecodeError, UnicodeDecodeError, too many digits
        raise BadRequest(f"the request body is not valid JSON: {problem}") from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def _reject_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def checked_fields(data: dict, fields: dict) -> dict:
    """`data` if it has only known fields, each of the expected JSON type (bools are not ints)."""
    unknown = sorted(set(data) - set(fields))
    if unknown:
        expected = f"expected {', '.join(fields)}" if fields else "send no fields"
        raise BadRequest(f"unknown field(s): {', '.join(unknown)[:200]}; {expected}")
    for name, value in data.items():
        kind = fields[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise BadRequest(f"{name} must be {TYPE_WORDS[kind]}")
    return data


# ----------------------------------------------------------------------------- selectors


def _seated_game(game_id: int) -> Game:
    """A game with its seats and their users, for rendering (not for changing it)."""
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    game = Game.objects.select_related("host").prefetch_related(seats).filter(pk=game_id).first()
    if game is None:
        raise services.NotFound(f"there is no game {game_id}")
    return game


def _my_seat(game: Game, user) -> int | None:
    return next((seat.position for seat in game.seats.all() if seat.user_id == user.pk), None)


def table_json(game: Game, user) -> dict:
    """What a lobby shows of a table; the invite code only to its host."""
    data = {
        "id": game.pk,
        "status": game.status,
        "edition": game.edition,
        "num_players": game.num_players,
        "options": dict(game.options),
        "private": game.private,
        "spectators_allowed": game.spectators_allowed,
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


def _board(game: Game, user) -> dict | None:
    """The caller's view of a started game (None before the start); 403 if they may not look.

    As on the web pages, a private table shows only to its players (an API client has no
    invite-link session; it joins with the invite code instead).
    """
    if _my_seat(game, user) is None:
        if game.private:
            raise services.NotAllowed("this table is private: only its players see it")
        if not game.spectators_allowed:
            raise services.NotAllowed("this table does not allow spectators")
    return services.board_for(game, user) if game.state else None


# --------------------------------------------------------------------------------- tables


@api_view("GET", "POST")
def tables(request):
    """GET: list tables by status; POST: open a new table, seating its host."""
    if request.method == "POST":
        return _create_table(request)
    status = request.GET.get("status", Game.Status.OPEN)
    if status not in LIST_STATUSES:
        raise BadRequest(f"status must be one of {', '.join(LIST_STATUSES)}")
    limit = _limit(request.GET.get("limit", str(DEFAULT_LIMIT)))
    visible = Q(private=False) | Q(pk__in=Seat.objects.filter(user=request.user).values("game"))
    seats = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))
    found = (
        Game.objects.filter(visible, status=status)
        .select_related("host")
        .prefetch_related(seats)
        .order_by("-created_at", "-pk")[:limit]
    )
    listed = [table_json(table, request.user) for table in found]
    return JsonResponse({"status": status, "limit": limit, "tables": listed})


def _limit(raw: str) -> int:
    limit = whole_number(raw, minimum=1, maximum=MAX_LIMIT)
    if limit is None:
        raise BadRequest(f"limit must be a whole number from 1 to {MAX_LIMIT}")
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
    if game.private and not secrets.compare_digest(
        data.get("invite_code", "").encode(), game.invite_code.encode()
    ):
        raise services.NotAllowed("this table is private: join it with its invite code")
    services.join_table(game.pk, request.user)
    return JsonResponse(table_json(_seated_game(game.pk), request.user))


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
    view = _board(found, request.user)
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
        raise BadRequest('send {"version": <board version>, "action": {...}}')
    ratelimit.hit("action", request.user.pk)
    try:
        played = services.submit_action(game_id, request.user, data["action"], data["version"])
    except services.StaleVersion as stale:
        current = _seated_game(game_id)
        return error(
            str(stale),
            stale.status,
            version=current.version,
            status=current.status,
            view=services.board_for(current, request.user),
        )
    return JsonResponse(
        {
            "version": played.version,
            "status": played.status,
            "view": services.board_for(played, request.user),
        }
    )


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


@api_view("POST")
def leave_game(request, game_id: int):
    """Leave a game in progress on purpose: the Scholar bot plays the seat to the end."""
    checked_fields(json_body(request, optional=True), {})
    services.leave_game(game_id, request.user)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


@api_view("POST")
def take_seat_back(request, game_id: int):
    """Play one's seat again after leaving it (or after three timeouts)."""
    checked_fields(json_body(request, optional=True), {})
    services.take_seat_back(game_id, request.user)
    return JsonResponse(table_json(_seated_game(game_id), request.user))


@api_view("GET", "POST", "PUT", "PATCH", "DELETE")
def unknown_endpoint(request, rest: str = ""):
    """Unknown API paths answer in JSON too (after authentication, like every endpoint)."""
    raise services.NotFound(f"there is no API endpoint /api/{rest}")
