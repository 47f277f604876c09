"""HTML for the game pages, shared by the views and the live (WebSocket) pushes.

Everything is rendered from `selectors.board_for` (the seat's own `view`), so a page or a pushed
fragment can only carry what that seat may know; whom it is for is the door's `access.Visitor`,
worked out once per request or socket and handed down here. The game's kind
(`games.kinds.registry`) turns the view into its board's context (`presenter.view_context`) and
draws it (`board_template`'s partials); this module adds what every game's board has: the log,
turn clock, moderator's end, rematch, presence and bots. With `oob=True` each region comes out
as a top-level element with `hx-swap-oob="true"`: a WebSocket message of concatenated regions
lets htmx swap each one by id, while the element owning the socket stays outside every region.
"""

import math

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games import access
from games.chat import services as chat
from games.history import selectors as history_selectors
from games.kinds import registry
from games.models import Game
from games.play import live_regions, orders
from games.play import selectors as play_selectors
from games.tables import selectors as tables_selectors

ABORTED_TEXT = gettext_lazy("This game was ended by a moderator.")

# The newest events shown on the board (page and push stay under 30 KB); the whole log has its page.
LOG_LENGTH = 12

# A turn clock's time left, by its largest unit: a turn-based table's hours read as hours and
# minutes, a live table's as minutes and seconds. static/js/turn-clock.js counts down with the
# same formats, which the clock carries.
CLOCK_FORMATS = {
    "hours": gettext_lazy("%(hours)s h %(minutes)s min"),
    "minutes": gettext_lazy("%(minutes)s min %(seconds)s s"),
    "seconds": gettext_lazy("%(seconds)s s"),
}


def time_left_text(seconds: int) -> str:
    """The time left as a player reads it: "11 h 59 min", "2 min 5 s" or "9 s" (whole units,
    counted down)."""
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    unit = "hours" if hours else "minutes" if minutes else "seconds"
    return CLOCK_FORMATS[unit] % {"hours": hours, "minutes": minutes, "seconds": seconds}


def your_turn_context(user) -> dict:
    """The "Your turn" page: each game waiting on `user`'s move, the most urgent first, with its
    game's name, the opponents and the time left (None when untimed)."""
    entries = []
    now = timezone.now()
    for game in play_selectors.your_turn_games(user):
        seats = list(game.seats.all())
        left = (game.due_at - now).total_seconds() if game.turn_seconds and game.due_at else None
        entries.append(
            {
                "game": game,
                "opponents": [seat.display_name for seat in seats if seat.user_id != user.pk],
                "time_left": None if left is None else time_left_text(max(0, math.ceil(left))),
            }
        )
    return {"entries": entries}


def board_context(
    game: Game, visitor: access.Visitor, *, connected=None, message: str = ""
) -> dict:
    """Template context for the board of `game` as the visitor sees it (their seat or a
    spectator's).

    `connected` is the set of seats with a live connection, or None when unknown (then no
    presence is shown). Raises `errors.NotAllowed` for spectators at a closed table.
    """
    seats = list(game.seats.select_related("user"))
    return _context(game, visitor, _view(game, visitor), seats, connected, message, log=True)


def _view(game: Game, visitor: access.Visitor) -> dict:
    return _unless_aborted(game, play_selectors.board_for(game, visitor))


def _unless_aborted(game: Game, view: dict) -> dict:
    """The engine does not know that a moderator ended the game: then no more moves."""
    return {**view, "legal_actions": []} if game.status == Game.Status.ABORTED else view


def _context(game, visitor, view, seats, connected, message, *, log: bool) -> dict:
    """`board_context` from the view and seats read; without the log unless `log`."""
    kind = registry.of(game)
    names = play_selectors.seat_names(game, seats)
    context = kind.presenter.view_context(game, view, names, connected=connected)
    context["board_template"] = kind.board_template
    context["message"] = message
    if game.status == Game.Status.ABORTED:
        context["banner"] = {"mine": False, "text": ABORTED_TEXT}
    context["log"] = history_selectors.game_log(game, view["seat"], limit=LOG_LENGTH) if log else []
    context["turn"] = _turn(game, visitor.user, view, context["players"], seats)
    context["standing_orders"] = standing_orders_context(game, visitor, view)
    if game.status == Game.Status.FINISHED:
        context["rematch"] = _rematch(game, visitor.user, view["seat"])
        # Whoever sees the finished board may read its record (`access.record_refusal`). Only
        # the live board links it here: the replay links it once for every step.
        context["record_url"] = reverse("game_record", args=[game.pk])
    return context


def standing_orders_context(game: Game, visitor: access.Visitor, view: dict) -> dict | None:
    """The reader's own standing orders and the forms to give one, only on their own seat's
    board of a running turn-based table (an order is its player's alone); None elsewhere."""
    if visitor.seat is None or view["seat"] != visitor.seat or not orders.offered(game):
        return None
    return {
        "orders": orders.seat_orders(game, visitor.seat),
        "kinds": orders.kinds_offered(game),
    }


def standing_orders_html(game: Game, visitor: access.Visitor, *, message: str = "") -> str:
    """The standing orders region alone, answering its forms' htmx posts."""
    view = play_selectors.board_for(game, visitor)
    context = {
        "game": game,
        "view": view,
        "standing_orders": standing_orders_context(game, visitor, view),
        "orders_message": message,
    }
    return render_to_string("games/board_parts.html#standing_orders", context)


def chat_context(game: Game, visitor: access.Visitor, *, error: str = "") -> dict:
    """The chat panel of `game` for the visitor: the channels they read, newest messages last.

    One context for the page (`{% chat_panel %}`), a post's htmx answer and the live push.
    """
    user = visitor.user
    channels = access.chat_channels(game, visitor)
    return {
        "game": game,
        "channels": channels,
        "chats": [
            {
                "channel": channel,
                "label": chat.Channel(channel).label,
                "messages": chat.recent(game, channel, user),
            }
            for channel in channels
        ],
        "can_post": access.may_chat(game, visitor),
        "players": [
            s for s in game.seats.select_related("user") if s.user_id not in (None, user.pk)
        ]
        if channels
        else [],
        "posting_to": "players" if visitor.seat is not None else "spectators",
        "max_length": chat.MAX_LENGTH,
        "error": error,
        "user": user,
    }


def _rematch(game: Game, user, seat) -> dict:
    """What the finished board offers a player: open a rematch (once per game), or join the one
    offered to them."""
    if seat is None:
        return {"can_ask": False}
    offer = tables_selectors.rematch_offer(game, user)
    if offer is None:
        return {"can_ask": True, "offered": tables_selectors.has_offered_rematch(game, user)}
    seats = list(offer.seats.select_related("user"))
    return {
        "can_ask": True,
        "offer": offer,
        "host_name": next((str(s.user) for s in seats if s.user_id == offer.host_id), ""),
        "seated": any(s.user_id == getattr(user, "pk", None) for s in seats),
        "free_seats": offer.num_players - len(seats),
    }


def log_context(game: Game, visitor: access.Visitor) -> dict:
    """The whole game log for the visitor's seat (or a spectator), checked like the board."""
    seat = play_selectors.board_for(game, visitor)["seat"] if game.setup else None
    return {
        "game": game,
        "names": play_selectors.seat_names(game),
        "me": seat,
        "log": history_selectors.game_log(game, seat),
        "board_template": registry.of(game).board_template,
    }


def board_html(
    game: Game,
    visitor: access.Visitor,
    *,
    oob: bool,
    connected=None,
    message: str = "",
    request=None,
    origin: str = "",
) -> str:
    """The board of `game` for the visitor: the page's `#board`, or its regions as oob swaps.

    Before the start (and for a closed table) this is the waiting room. With `oob=True` an
    active or finished board also carries a `#board` that replaces a waiting room still on the
    client (the moment the host starts), then every region by id (`live_board`). `origin` (or
    the `request`'s) makes the waiting room's invite link a full URL (`waiting_context`).
    """
    if not game.setup:
        return waiting_html(game, visitor, oob=oob, message=message, request=request, origin=origin)
    if oob:
        return "".join(live_board(game, visitor, connected=connected, message=message))
    context = board_context(game, visitor, connected=connected, message=message)
    return render_to_string(f"{context['board_template']}#board", context, request=request)


def live_board(
    game: Game,
    visitor: access.Visitor,
    *,
    connected=None,
    message: str = "",
    origin: str = "",
    frame: bool = True,
    sent: live_regions.SentRegions | None = None,
    seats: list | None = None,
) -> list[str]:
    """A socket's live board in parts: the `#board` frame (when `frame`: it replaces a waiting
    room, and blanks what a push leaves out), then each region as an oob swap.

    Each of the kind's `regions` is rendered on its own, so that what another socket of this
    worker rendered already costs nothing: a public region (the same from every seat) is kept
    by game version and shared by all, and a spectator's regions by all spectators, but for
    the one that is the socket's own (`PER_SOCKET`). The message and the standing orders are
    always this reader's. With the socket's `sent` regions, a region that declares its
    `reads` is left out (neither rendered nor sent) when nothing it reads changed since the
    socket's last push; never in a `frame`, which replaces every region. `seats`: the game's
    seats with their users as the caller read them (a hint's read, shared by a worker's
    sockets: `consumers.read_for`), else read here. Before the start: the waiting room, one part.
    """
    if not game.setup:
        return [waiting_html(game, visitor, oob=True, message=message, origin=origin)]
    kind = registry.of(game)
    if not kind.regions:  # the kind draws its live board in one partial
        context = board_context(game, visitor, connected=connected, message=message)
        return [render_to_string(f"{kind.board_template}#live", context)]
    if seats is None:
        seats = list(game.seats.select_related("user"))
    inputs = live_regions.shared_inputs(game, seats)
    shared = {region.partial: _shared_as(region, visitor, connected) for region in kind.regions}
    found = {
        partial: live_regions.RENDERS.get((inputs, reader, partial))
        for partial, reader in shared.items()
        if reader is not None
    }
    found = {partial: html for partial, html in found.items() if html is not None}
    if visitor.seat is None:
        context = _spectator_context(game, visitor, seats, inputs, connected, message)
    else:  # the log is read only for a region that draws it
        context = _context(
            game, visitor, _view(game, visitor), seats, connected, message, log="log" not in found
        )
    parts = []
    if frame:
        parts.append(_render(kind, "board", context, takeover=True, skeleton=True, oob=False))
    parts.append(_render(None, "message", context, oob=True))
    public = None
    drawn = {}  # what the regions rendered now are drawn from, kept once all are rendered
    for region in kind.regions:
        if sent is not None:
            drawn_from = live_regions.region_inputs(region, context)
            if (
                not frame
                and drawn_from is not None
                and sent.drawn.get(region.partial) == drawn_from
            ):
                continue  # the page shows it as it is
            drawn[region.partial] = drawn_from
        html = found.get(region.partial)
        if html is None and region.public:
            public = public or public_context(game, seats)
            html = _render(kind, region.partial, public, oob=True)
        elif html is None:
            html = _render(kind, region.partial, context, oob=True)
        if region.partial not in found and shared[region.partial] is not None:
            live_regions.RENDERS.put((inputs, shared[region.partial], region.partial), html)
        parts.append(html)
        if region.partial == "actions":
            parts.append(_render(None, "standing_orders", context, oob=True))
    if sent is not None:
        sent.drawn.update(drawn)
    return parts


def public_context(game: Game, seats: list) -> dict:
    """What a public region is drawn from: the spectator's view alone (seat None), so that
    whoever's socket renders it first, it holds no seat's own card; the kind's declaring it
    public says every seat's board draws it the same (tests/kinds/test_public_regions.py)."""
    view = _unless_aborted(game, play_selectors.seat_board(game, None))
    kind = registry.of(game)
    names = play_selectors.seat_names(game, seats)
    context = kind.presenter.view_context(game, view, names, connected=None)
    context["board_template"] = kind.board_template
    if game.status == Game.Status.ABORTED:
        context["banner"] = {"mine": False, "text": ABORTED_TEXT}
    return context


def _spectator_context(game, visitor, seats, inputs, connected, message) -> dict:
    """A spectator's board context: every spectator's is the same (the view of seat None, with
    who is connected as this socket read it) but for the message and the turn clock (which
    counts the reader's own games waiting), so it is built once per worker and version."""
    play_selectors.admit(game, visitor)
    key = (inputs, ("spectators", _seen_connected(connected)))
    shared = live_regions.RENDERS.get(key)
    if shared is None:
        shared = _context(game, visitor, _view(game, visitor), seats, connected, "", log=True)
        live_regions.RENDERS.put(key, shared)
    turn = _turn(game, visitor.user, shared["view"], shared["players"], seats)
    return {**shared, "message": message, "turn": turn}


# A spectator's region that is still the socket's own: the banner's turn clock counts the
# reader's games waiting and the seconds left now. (Who is connected, which the players region
# shows as this socket last read it, is part of what spectators' renders are kept by.)
PER_SOCKET = ("banner",)


def _shared_as(region: registry.Region, visitor: access.Visitor, connected) -> tuple | None:
    """Who may be handed the same render of `region`: every reader ("public"), every spectator
    who read the same seats connected ("spectators"), or only this one (None)."""
    if region.public:
        return ("public",)
    if visitor.seat is None and region.partial not in PER_SOCKET:
        return ("spectators", _seen_connected(connected))
    return None


def _seen_connected(connected) -> frozenset | None:
    return None if connected is None else frozenset(connected)


def _render(kind, partial: str, context: dict, **extra) -> str:
    """One partial of the kind's board template (None: of every game's board parts)."""
    template = kind.board_template if kind is not None else "games/board_parts.html"
    return render_to_string(f"{template}#{partial}", {**context, **extra})


def players_html(game: Game, visitor: access.Visitor, *, connected) -> str:
    """Only the players region, as an oob swap: enough when somebody connects or leaves."""
    view = play_selectors.board_for(game, visitor)
    seats = list(game.seats.select_related("user"))
    kind = registry.of(game)
    names = play_selectors.seat_names(game, seats)
    context = kind.presenter.view_context(game, view, names, connected=connected)
    _mark_bots(context["players"], seats)
    context["oob"] = True
    return render_to_string(f"{kind.board_template}#players", context)


def waiting_html(
    game: Game,
    visitor: access.Visitor,
    *,
    oob: bool,
    message: str = "",
    request=None,
    origin: str = "",
) -> str:
    """The waiting room of a table that has not started (or was closed by its host)."""
    origin = origin or (request_origin(request) if request is not None else "")
    context = {**waiting_context(game, visitor, oob=oob, origin=origin), "message": message}
    return render_to_string("games/table.html#waiting", context, request=request)


def request_origin(request) -> str:
    """`scheme://host[:port]` of the site as `request` reached it."""
    return f"{request.scheme}://{request.get_host()}"


def waiting_context(game: Game, visitor: access.Visitor, *, oob: bool, origin: str = "") -> dict:
    """The waiting room's context. `origin` (`scheme://host[:port]`: a page's request, or the
    Origin a live socket was opened from) makes `invite_url` the full link a player can send;
    without it, the link's path."""
    user = visitor.user
    seats = list(game.seats.select_related("user").order_by("position"))
    seated = visitor.seat is not None
    return {
        "game": game,
        "seats": seats,
        "free_seats": game.num_players - len(seats),
        "seated": seated,
        # Who I may invite (my friends not seated), or why I may not sit at a friends-only table.
        "invitable": tables_selectors.invitable_friends(game, user, seats) if seated else [],
        "friends_only_refusal": None if seated else access.friends_only_refusal(game, user),
        "is_host": user.is_authenticated and game.host_id == user.pk,
        "user": user,
        "oob": oob,
        "invite_url": origin + reverse("invite", args=[game.invite_code]),
    }


def lobby_html(user) -> str:
    """The lobby's table lists as an oob swap (`#lobby-tables`), for live lobby updates."""
    return render_to_string(
        "games/lobby.html#tables", {**tables_selectors.lobby_tables(user), "oob": True}
    )


# ----------------------------------------------------------------------------- regions


def _mark_bots(players: list[dict], seats: list) -> None:
    """Mark who is a bot, or has a bot playing for them, in everybody's players list."""
    by_position = {seat.position: seat for seat in seats}
    for player in players:
        seat = by_position.get(player["seat"])
        player["bot"] = seat.bot_label if seat else ""
        player["taken_over"] = bool(seat and seat.taken_over)


def _turn(game: Game, user, view: dict, players: list[dict], seats: list) -> dict:
    """The turn clock (from the server's deadline), who a bot stands in for, which of the
    kind's bots (its `stand_in`) plays a seat whose player leaves, and, when this game does not
    wait on the reader (nor holds them in a live game), the next one that does."""
    _mark_bots(players, seats)
    kind = registry.of(game)
    deadline = play_selectors.turn_deadline(game, seats, view["to_act"])
    mine = next((seat for seat in seats if seat.position == view["seat"]), None)
    left = max(0, math.ceil((deadline - timezone.now()).total_seconds())) if deadline else 0
    on_turn = bool(mine and not mine.bot_level and mine.position in view["to_act"])
    # A live game's player waits seconds for their turn: no link away (nor its query per push).
    playing_live = bool(mine and game.status == "active" and not game.turn_based)
    waiting = [] if on_turn or playing_live else _other_games_waiting(game, user)
    return {
        "deadline": deadline,
        "seconds_left": left,
        "time_left": time_left_text(left),
        "formats": CLOCK_FORMATS,
        "next_waiting": waiting[0] if waiting else None,
        "waiting_count": len(waiting),
        "mine": deadline is not None and view["to_act"] == [view["seat"]],
        "taken_over": [player["name"] for player in players if player["taken_over"]],
        "my_seat_taken_over": bool(mine and mine.taken_over and game.status == "active"),
        "can_leave": bool(mine and mine.user_id and not mine.bot_level and game.status == "active"),
        "stand_in": kind.bot_label(kind.stand_in),
    }


def _other_games_waiting(game: Game, user) -> list[int]:
    """The other games waiting on a logged-in reader's move, the most urgent first."""
    if not user.is_authenticated:
        return []
    return play_selectors.other_games_waiting(user, game)
