"""Posting to a table's chat and reporting, from the game page (htmx or plain POST)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from biblios_site import errors, ratelimit
from games import access, web
from games.chat import services as chat
from games.chat.forms import ChatForm, ReportForm
from games.models import Game
from games.play import rendering


def _answer(
    request,
    game: Game,
    visitor: access.Visitor,
    refusal: errors.ServiceError | None = None,
    *,
    notice: str = "",
):
    """The chat panel (htmx) or the game page, with why `refusal` changed nothing or the
    `notice` of what it did; a 429 says when to try again (Retry-After).

    A plain POST lands on the page's messages when it has one to read, else on the chat."""
    error = errors.sentence(refusal) if refusal else ""
    if not request.htmx:
        if error:
            messages.error(request, error)
        elif notice:
            messages.success(request, notice)
        fragment = "#messages" if error or notice else "#chat"
        return redirect(reverse("game", args=[game.pk]) + fragment)
    context = rendering.chat_context(game, visitor, error=error)
    context["notice"] = "" if refusal else notice
    panel = HttpResponse(
        render_to_string("games/chat.html#panel", context, request=request),
        status=refusal.status if refusal else 200,
    )
    return ratelimit.with_retry_after(panel, refusal)


@login_required
@require_POST
def post(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    visitor = web.visitor(request, game)
    refusal = None
    form = ChatForm(request.POST)
    try:
        if not form.is_valid():
            raise errors.ServiceError(_first_error(form))
        chat.post_message(game.pk, request.user, form.cleaned_data["text"], invited=visitor.invited)
    except errors.ServiceError as refused:
        refusal = refused
    return _answer(request, game, visitor, refusal)


@login_required
@require_POST
def report(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    visitor = web.visitor(request, game)
    form = ReportForm(request.POST)
    try:
        if form.has_error("message") or form.has_error("user"):
            raise errors.ServiceError(gettext("choose what to report"))
        if not form.is_valid():
            raise errors.ServiceError(_first_error(form))
        chat.report(
            game.pk,
            request.user,
            form.cleaned_data["reason"],
            invited=visitor.invited,
            message_id=form.cleaned_data["message"],
            user_id=form.cleaned_data["user"],
        )
    except errors.ServiceError as refused:
        return _answer(request, game, visitor, refused)
    notice = gettext("Thank you: the moderators will look at your report.")
    return _answer(request, game, visitor, notice=notice)


def _first_error(form) -> str:
    """A form's first error, worded as the services word refusals (the answer adds the period)."""
    return next(iter(form.errors.values()))[0].rstrip(".")
