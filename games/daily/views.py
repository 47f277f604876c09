"""The daily deal's page: today's deal of each game, and once the reader has played it, the
day's standings. Thin edge: the rules are `services.play_daily`'s."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from biblios_site import errors
from games.daily import selectors, services


@require_GET
def daily(request):
    context = {"boards": selectors.boards(request.user), "day": services.today()}
    return render(request, "games/daily.html", context)


@require_POST
def play(request, kind: str):
    """Start the reader's game of today's deal, then go to its board."""
    try:
        game = services.play_daily(request.user, kind, day=request.POST.get("day", ""))
    except errors.ServiceError as refused:
        messages.error(request, errors.sentence(refused))
        return redirect("daily")
    return redirect("game", game.pk)
