"""Pages for past games: a player's history, the replay viewer and the record's download.

Thin edges: the queries live in `games.history`, the replayed boards in `games.replay`.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from biblios_site import errors
from games import access, web
from games.history import replay
from games.history import selectors as history
from games.models import Game


@require_GET
@login_required
def my_games(request):
    """My finished and ongoing games (private tables included), filtered and paginated."""
    return _history(request, request.user, own=True)


@require_GET
def player_games(request, username: str):
    """Another player's finished games; private tables only show to the player themself, and
    tables for the host's friends only to those friends (`games.access.listed_to`)."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    return _history(request, player, own=request.user.pk == player.pk)


def _history(request, subject, *, own: bool):
    form = history.HistoryFilterForm(request.GET or None)
    if request.GET and not form.is_valid():
        context = {"form": form, "subject": subject, "own": own, "rows": [], "page": None}
        return render(request, "games/history.html", context, status=400)
    filters = form.cleaned_data if request.GET else {}
    statuses = None if own else [Game.Status.FINISHED]
    page, rows = history.history_page(
        subject,
        filters,
        request.GET.get("page"),
        include_private=own,
        statuses=statuses,
        reader=request.user,
    )
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "subject": subject,
        "own": own,
        "rows": rows,
        "page": page,
        "query": query.urlencode(),
    }
    return render(request, "games/history.html", context)


@require_GET
def game_replay(request, game_id: int):
    """One step of a game (`?move=N`) from a perspective (`?as=mine|open|seat-N`)."""
    game = get_object_or_404(Game, pk=game_id)
    visitor = web.visitor(request, game)
    refusal = access.record_refusal(game, visitor)
    if refusal is not None:
        return web.refused(request, refusal, 403)
    try:
        perspective, choices = replay.choose(game, visitor, request.GET.get("as"))
        step = replay.parse_step(request.GET.get("move"), game.version)
    except errors.ServiceError as refusal:
        return web.refusal_page(
            request,
            gettext("You cannot replay this game: %(reason)s.") % {"reason": refusal},
            refusal.status,
        )
    context = replay.replay_context(game, step, perspective, choices)
    return render(request, "games/replay.html", context)


@require_GET
def download_record(request, game_id: int):
    """A finished game's record as a JSON file, for the browser's session: the same record and
    the same rule (`games.access.record_refusal`) as the API's `GET /api/games/<id>/record`,
    which needs a token. Only once the game is over: a running game's record is one seat's
    share of a game still changing, which the board shows better."""
    game = get_object_or_404(Game, pk=game_id)
    visitor = web.visitor(request, game)
    refusal = access.record_refusal(game, visitor)
    if refusal is not None:
        return web.refused(request, refusal, 403)
    if game.status != Game.Status.FINISHED:
        message = gettext("The record of a game can be downloaded once the game is over.")
        return web.refusal_page(request, message, 409)
    response = JsonResponse(history.game_record(game, visitor), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = content_disposition_header(
        True, f"{game.kind}-game-{game.pk}.json"
    )
    return response
