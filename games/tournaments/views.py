"""The tournaments' pages: the list, a tournament's page and its live region (polled while it
runs), and the register, unregister and check-in buttons (htmx, or a plain POST that comes back
to the page). Thin edge: the rules are `services`'."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from biblios_site import errors
from games.models import Tournament
from games.tournaments import selectors, services


@require_GET
def tournaments(request):
    upcoming, past = selectors.listing()
    return render(request, "games/tournaments.html", {"upcoming": upcoming, "past": past})


@require_GET
def tournament(request, tournament_id: int):
    found = get_object_or_404(Tournament, pk=tournament_id)
    context = {"board": selectors.board(found, request.user)}
    return render(request, "games/tournament.html", context)


@require_GET
def live(request, tournament_id: int):
    """The page's live region alone: what the reader may do, the standings and the rounds."""
    found = get_object_or_404(Tournament, pk=tournament_id)
    context = {"board": selectors.board(found, request.user)}
    return render(request, "games/_tournament_live.html", context)


@require_POST
def act(request, tournament_id: int, action: str):
    """Register, unregister or check in; a refusal is said on the page and changes nothing."""
    found = get_object_or_404(Tournament, pk=tournament_id)
    refusal = ""
    try:
        services.PLAYER_ACTIONS[action](found.pk, request.user)
    except errors.ServiceError as refused:
        refusal = errors.sentence(refused)
    found.refresh_from_db()
    if request.htmx:
        context = {"board": selectors.board(found, request.user), "refusal": refusal}
        return render(request, "games/_tournament_live.html", context)
    if refusal:
        messages.error(request, refusal)
    return redirect("tournament", found.pk)
