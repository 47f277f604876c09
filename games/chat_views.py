"""Posting to a table's chat and reporting, from the game page (htmx or plain POST)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games import chat, selectors, services
from games.models import Game
from games.views import INVITED_SESSION_KEY


def may_watch(request, game: Game) -> bool:
    invited = set(request.session.get(INVITED_SESSION_KEY, []))
    return game.spectators_allowed and selectors.can_see_table(game, request.user, invited=invited)


def chat_context(game: Game, user, *, may_watch: bool, error: str = "") -> dict:
    """The chat panel of `game` for `user`: the channels they read, newest messages last."""
    channels = chat.channels_for(game, user, may_watch=may_watch)
    seated = services.seat_of(game, user) is not None
    return {
        "game": game,
        "channels": channels,
        "chats": [
            {
                "channel": channel,
                "label": chat.Channel(channel).label,
                "messages": chat.recent(game, channel),
            }
            for channel in channels
        ],
        "can_post": getattr(user, "is_authenticated", False) and bool(channels),
        "players": [
            s for s in game.seats.select_related("user") if s.user_id not in (None, user.pk)
        ]
        if channels
        else [],
        "posting_to": "players" if seated else "spectators",
        "max_length": chat.MAX_LENGTH,
        "error": error,
        "user": user,
    }


def _answer(request, game: Game, error: str, status: int):
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(reverse("game", args=[game.pk]) + "#chat")
    context = chat_context(game, request.user, may_watch=may_watch(request, game), error=error)
    return HttpResponse(
        render_to_string("games/chat.html#panel", context, request=request), status=status
    )


@login_required
@require_POST
def post(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    error, status = "", 200
    try:
        chat.post_message(
            game.pk, request.user, request.POST.get("text", ""), may_watch=may_watch(request, game)
        )
    except services.ServiceError as refusal:
        error, status = str(refusal).capitalize() + ".", refusal.status
    return _answer(request, game, error, status)


@login_required
@require_POST
def report(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    error, status = "", 200
    try:
        message_id, user_id = (_id(request.POST.get(name)) for name in ("message", "user"))
        chat.report(
            game.pk,
            request.user,
            request.POST.get("reason", ""),
            may_watch=may_watch(request, game),
            message_id=message_id,
            user_id=user_id,
        )
    except services.ServiceError as refusal:
        error, status = str(refusal).capitalize() + ".", refusal.status
    else:
        if not request.htmx:
            messages.success(
                request, gettext("Thank you: the moderators will look at your report.")
            )
    return _answer(request, game, error, status)


def _id(raw):
    if raw in (None, ""):
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
        raise services.ServiceError("choose what to report")
    return int(raw)
