"""Pages of the games app: the lobby, tables (waiting rooms) and the game board.

Thin edges: every change goes through `games.services`; every form posts with htmx and also
works as a plain POST (`request.htmx` decides between a fragment and a redirect).
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseClientRedirect

from biblios_site import errors, ratelimit
from biblios_site.inputs import whole_number
from games import access, presence, rendering, selectors, services
from games.forms import TableForm, parse_version
from games.kinds import registry
from games.models import Game
from notifications import services as notice_services


def _go(request, url: str):
    """Send the browser to `url`: a full redirect, or htmx's client-side redirect."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _game_url(game_id: int) -> str:
    return reverse("game", args=[game_id])


def _refused(request, message: str, status: int):
    """A clear refusal page (403/404) that never reveals more than the message."""
    return render(request, "games/refused.html", {"message": message}, status=status)


def _invited(request, game: Game) -> bool:
    """Whether this browser followed `game`'s invite link (`access` decides what that allows)."""
    return access.holds_invite(game, session=request.session)


def _closed(request, game: Game):
    """The 403 page if `games.access` closes this table's page (or partial) to the visitor."""
    refusal = access.see_refusal(game, request.user, invited=_invited(request, game))
    return None if refusal is None else _refused(request, refusal.capitalize() + ".", 403)


# ------------------------------------------------------------------------------- lobby


@require_GET
def lobby(request):
    context = {**selectors.lobby_tables(request.user), "form": TableForm()}
    return render(request, "games/lobby.html", context)


@login_required
def create_table(request):
    if request.method != "POST":
        return redirect(reverse("home") + "#new-table")
    form = TableForm(request.POST)
    if form.is_valid():
        try:
            game = services.create_table(request.user, form.settings())
        except errors.ServiceError as refusal:
            form.add_error(None, str(refusal))
        else:
            return _go(request, _game_url(game.pk))
    context = {**selectors.lobby_tables(request.user), "form": form}
    return render(request, "games/lobby.html", context, status=400)


@login_required
@require_GET
def your_turn(request):
    """The games waiting on my move, the most urgent first (turn-based tables mostly)."""
    return render(request, "games/your_turn.html", rendering.your_turn_context(request.user))


# ------------------------------------------------------------------------------- tables


def game_page(request, game_id: int):
    """The waiting room before the start, the board once started."""
    game = get_object_or_404(Game, pk=game_id)
    if closed := _closed(request, game):
        return closed
    context = {"game": game}
    if game.setup:
        try:
            context.update(
                rendering.board_context(
                    game, request.user, connected=presence.connected_seats(game)
                )
            )
        except errors.NotAllowed as refusal:
            return _refused(
                request,
                gettext("You cannot watch this game: %(reason)s.") % {"reason": refusal},
                refusal.status,
            )
    else:
        origin = rendering.request_origin(request)
        context.update(rendering.waiting_context(game, request.user, oob=False, origin=origin))
    notice_services.mark_game_seen(request.user, game)  # before the navigation counts them
    return render(request, "games/game.html", context)


@require_GET
def game_log(request, game_id: int):
    """The whole game log, each event as the visitor's seat may see it."""
    game = get_object_or_404(Game, pk=game_id)
    if closed := _closed(request, game):
        return closed
    try:
        context = rendering.log_context(game, request.user)
    except errors.NotAllowed as refusal:
        return _refused(
            request,
            gettext("You cannot watch this game: %(reason)s.") % {"reason": refusal},
            refusal.status,
        )
    return render(request, "games/log.html", context)


def invite(request, invite_code: str):
    """Following an invite link seats the visitor if a seat is free, and lets them see the table."""
    game = Game.objects.filter(invite_code=invite_code).first()
    if game is None:
        return _refused(request, gettext("This invite link is not valid."), 404)
    access.remember_invite(request.session, game)
    if not request.user.is_authenticated:
        return render(request, "games/invite.html", _invite_context(game, request.path))
    if selectors.seat_of(game, request.user) is None:
        try:
            services.join_by_invite(invite_code, request.user)
        except errors.ServiceError as refusal:
            messages.info(
                request, gettext("You could not take a seat: %(reason)s.") % {"reason": refusal}
            )
    return redirect(_game_url(game.pk))


def _invite_context(game: Game, invite_path: str) -> dict:
    """What a logged-out visitor learns from an invite link: whose table it is, which game,
    whether a seat is free, and the sign-up and log-in pages that lead back to the link (which
    then seats them). The link's holder may see the table (`games.access`), so nothing here
    is more than its waiting room shows."""
    kind = registry.of(game)
    taken = game.seats.count()
    next_query = "?" + urlencode({"next": invite_path})
    return {
        "game": game,
        "host": game.host,
        "kind_name": kind.name,
        "variant_name": game.variant_name,
        "taken": taken,
        "open_seat": game.status == Game.Status.OPEN and taken < game.num_players,
        "signup_url": reverse("accounts:signup") + next_query,
        "login_url": reverse("accounts:login") + next_query,
    }


def _table_action(request, game_id: int, do):
    """Run one waiting-room service for a POST; GETs (e.g. after logging in) go to the table."""
    if request.method != "POST":
        return redirect(_game_url(game_id))
    try:
        url = do()
    except errors.ServiceError as refusal:
        if refusal.status == 404:
            return _refused(request, str(refusal).capitalize() + ".", 404)
        messages.error(request, str(refusal).capitalize() + ".")
        url = _game_url(game_id)
    return _go(request, url)


@login_required
def join(request, game_id: int):
    def do():
        game = get_object_or_404(Game, pk=game_id)
        services.join_table(game_id, request.user, invited=_invited(request, game))
        return _game_url(game_id)

    return _table_action(request, game_id, do)


@login_required
def leave(request, game_id: int):
    def do():
        services.leave_table(game_id, request.user)
        messages.success(request, gettext("You left the table."))
        return reverse("home")

    return _table_action(request, game_id, do)


@login_required
def remove_player(request, game_id: int):
    def do():
        user_id = whole_number(request.POST.get("user"), minimum=1)
        if user_id is None:
            raise errors.ServiceError(gettext("choose a player to remove"))
        services.remove_player(game_id, request.user, user_id=user_id)
        return _game_url(game_id)

    return _table_action(request, game_id, do)


@login_required
def invite_friend(request, game_id: int):
    """Invite one of my friends (posted as `friend`, an id) to the table I sit at."""

    def do():
        friend_id = whole_number(request.POST.get("friend"), minimum=1)
        friend = get_user_model().objects.filter(pk=friend_id).first() if friend_id else None
        if friend is None:
            raise errors.ServiceError(gettext("choose a friend to invite"))
        services.invite_friend(game_id, request.user, friend)
        messages.success(request, gettext("%(friend)s is invited.") % {"friend": friend})
        return _game_url(game_id)

    return _table_action(request, game_id, do)


@login_required
def start(request, game_id: int):
    def do():
        services.start_game(game_id, request.user)
        return _game_url(game_id)

    return _table_action(request, game_id, do)


@login_required
def rematch(request, game_id: int):
    """Play again with the same players: opens the rematch table, or joins the one offered."""

    def do():
        return _game_url(services.rematch(game_id, request.user).pk)

    return _table_action(request, game_id, do)


@login_required
def leave_game(request, game_id: int):
    """Leave a game in progress on purpose (the board asks to confirm): a bot plays the seat."""

    def do():
        kind = registry.of(services.leave_game(game_id, request.user))
        text = gettext(
            "You left the game: the %(level)s bot plays your seat until you take it back."
        )
        messages.info(request, text % {"level": kind.bot_label(kind.stand_in)})
        return _game_url(game_id)

    return _table_action(request, game_id, do)


@login_required
def take_seat_back(request, game_id: int):
    def do():
        services.take_seat_back(game_id, request.user)
        messages.success(request, gettext("Welcome back: you play your seat again."))
        return _game_url(game_id)

    return _table_action(request, game_id, do)


# ------------------------------------------------------------------------------- moves

# Sent by board.js with a move while the page's own socket is open: its push brings the board.
LIVE_SOCKET_HEADER = "X-Board-Socket"


def act(request, game_id: int):
    """Play one action from a board form.

    htmx gets the re-rendered board with a message region and the service's status (the game
    page tells htmx to swap 4xx answers too); a plain POST gets a message and a redirect. A
    move made from a page whose socket is open (board.js says so in `LIVE_SOCKET_HEADER`) is
    answered 204: the push after the commit brings that socket the mover's board, as it brings
    every other seat theirs, so the board is rendered once per move and reader.
    """
    if request.method != "POST":
        return redirect(_game_url(game_id))
    game = get_object_or_404(Game, pk=game_id)
    message, status, retry_after = "", 200, None
    try:
        version = parse_version(request.POST)
        action = registry.of(game).parse_action(request.POST)
        if request.user.is_authenticated:
            ratelimit.hit("action", request.user.pk)
        services.submit_action(game.pk, request.user, action, version=version)
    except registry.ActionInputError as refusal:
        message, status = str(refusal), 400
    except ratelimit.RateLimited as refusal:
        if not request.htmx:
            return ratelimit.too_many(refusal)
        message, status = str(refusal).capitalize() + ".", 429
        retry_after = refusal.retry_after
    except errors.StaleVersion:
        message, status = (
            gettext("The board changed before your move arrived; here it is now."),
            409,
        )
    except errors.ServiceError as refusal:
        message, status = str(refusal).capitalize() + ".", refusal.status
    if not request.htmx:
        if message:
            messages.error(request, message)
        return redirect(_game_url(game.pk))
    if not message and request.headers.get(LIVE_SOCKET_HEADER) == "open":
        return HttpResponse(status=204)
    game.refresh_from_db()
    try:
        refusal = access.see_refusal(game, request.user, invited=_invited(request, game))
        if refusal is not None:
            raise errors.NotAllowed(refusal)
        html = rendering.board_html(
            game,
            request.user,
            oob=False,
            connected=presence.connected_seats(game),
            message=message,
            request=request,
        )
    except errors.NotAllowed as refusal:
        # No board for someone who may not see it: the message alone, as text (it may echo input).
        text = message or str(refusal).capitalize() + "."
        return HttpResponse(text, status=status if message else 403, content_type="text/plain")
    response = HttpResponse(html, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response
