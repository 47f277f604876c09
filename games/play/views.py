"""Pages of a running game: the board, its log, the moves, leaving and taking a seat back, and the
"Your turn" list.

Thin edges: every change goes through `games.play.services`; every form posts with htmx and
also works as a plain POST (`request.htmx` decides between a fragment and a redirect).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from biblios_site import errors, ratelimit
from games import access, web
from games.kinds import registry
from games.models import Game
from games.play import presence, rendering, services
from games.play.forms import parse_version
from notifications import services as notice_services


@login_required
@require_GET
def your_turn(request):
    """The games waiting on my move, the most urgent first (turn-based tables mostly)."""
    return render(request, "games/your_turn.html", rendering.your_turn_context(request.user))


def game_page(request, game_id: int):
    """The waiting room before the start, the board once started."""
    game = get_object_or_404(Game, pk=game_id)
    visitor = web.visitor(request, game)
    if closed := web.closed_to(request, game, visitor):
        return closed
    context = {"game": game, "visitor": visitor}  # the chat panel's too (`{% chat_panel %}`)
    if game.setup:
        try:
            context.update(
                rendering.board_context(game, visitor, connected=presence.connected_seats(game))
            )
        except errors.NotAllowed as refusal:
            return web.refusal_page(
                request,
                gettext("You cannot watch this game: %(reason)s.") % {"reason": refusal},
                refusal.status,
            )
    else:
        origin = rendering.request_origin(request)
        context.update(rendering.waiting_context(game, visitor, oob=False, origin=origin))
    notice_services.mark_game_seen(request.user, game)  # before the navigation counts them
    return render(request, "games/game.html", context)


@require_GET
def game_log(request, game_id: int):
    """The whole game log, each event as the visitor's seat may see it."""
    game = get_object_or_404(Game, pk=game_id)
    visitor = web.visitor(request, game)
    if closed := web.closed_to(request, game, visitor):
        return closed
    try:
        context = rendering.log_context(game, visitor)
    except errors.NotAllowed as refusal:
        return web.refusal_page(
            request,
            gettext("You cannot watch this game: %(reason)s.") % {"reason": refusal},
            refusal.status,
        )
    return render(request, "games/log.html", context)


@login_required
def leave_game(request, game_id: int):
    """Leave a game in progress on purpose (the board asks to confirm): a bot plays the seat."""

    def do():
        kind = registry.of(services.leave_game(game_id, request.user))
        text = gettext(
            "You left the game: the %(level)s bot plays your seat until you take it back."
        )
        messages.info(request, text % {"level": kind.bot_label(kind.stand_in)})
        return web.game_url(game_id)

    return web.table_action(request, game_id, do)


@login_required
def take_seat_back(request, game_id: int):
    def do():
        services.take_seat_back(game_id, request.user)
        messages.success(request, gettext("Welcome back: you play your seat again."))
        return web.game_url(game_id)

    return web.table_action(request, game_id, do)


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
        return redirect(web.game_url(game_id))
    game = get_object_or_404(Game, pk=game_id)
    message, status, retry_after = "", 200, None
    try:
        version = parse_version(request.POST)
        action = registry.of(game).parse_action(request.POST)
        services.submit_action(game.pk, request.user, action, version=version)
    except registry.ActionInputError as refusal:
        message, status = str(refusal), 400
    except ratelimit.RateLimited as refusal:
        if not request.htmx:
            return ratelimit.too_many(refusal)
        message, status = errors.sentence(refusal), 429
        retry_after = refusal.retry_after
    except errors.StaleVersion:
        message, status = (
            gettext("The board changed before your move arrived; here it is now."),
            409,
        )
    except errors.ServiceError as refusal:
        message, status = errors.sentence(refusal), refusal.status
    if not request.htmx:
        if message:
            messages.error(request, message)
        return redirect(web.game_url(game.pk))
    if not message and request.headers.get(LIVE_SOCKET_HEADER) == "open":
        return HttpResponse(status=204)
    game.refresh_from_db()
    visitor = web.visitor(request, game)
    try:
        refusal = access.see_refusal(game, visitor)
        if refusal is not None:
            raise errors.NotAllowed(refusal)
        html = rendering.board_html(
            game,
            visitor,
            oob=False,
            connected=presence.connected_seats(game),
            message=message,
            request=request,
        )
    except errors.NotAllowed as refusal:
        # No board for someone who may not see it: the message alone, as text (it may echo input).
        text = message or errors.sentence(refusal)
        return HttpResponse(text, status=status if message else 403, content_type="text/plain")
    response = HttpResponse(html, status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@login_required
def standing_order(request, game_id: int):
    """Give a standing order (`kind` and its parameters) or, with `cancel`, end the active one.

    htmx gets the orders region with a message (the board comes by its push if an order
    fired); a plain POST gets a message and the game page.
    """
    if request.method != "POST":
        return redirect(web.game_url(game_id))
    game = get_object_or_404(Game, pk=game_id)
    message, status = "", 200
    try:
        if "cancel" in request.POST:
            services.cancel_order(game.pk, request.user)
            message = gettext("Your standing order is cancelled.")
        else:
            version = parse_version(request.POST)
            fields = ("csrfmiddlewaretoken", "version", "kind")
            params = {k: v for k, v in request.POST.items() if k not in fields}
            services.give_order(
                game.pk, request.user, request.POST.get("kind"), params, version=version
            )
            message = gettext("Your standing order is given.")
    except registry.ActionInputError as refusal:
        message, status = str(refusal), 400
    except errors.StaleVersion:
        message, status = gettext("The board changed: read it again before giving an order."), 409
    except errors.ServiceError as refusal:
        message, status = errors.sentence(refusal), refusal.status
    if not request.htmx:
        (messages.success if status == 200 else messages.error)(request, message)
        return redirect(web.game_url(game.pk))
    game.refresh_from_db()
    visitor = web.visitor(request, game)
    html = rendering.standing_orders_html(game, visitor, message=message)
    return HttpResponse(html, status=status)
