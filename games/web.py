"""What the games app's pages share: going to a page (a redirect, or htmx's), the refusal page,
who the visitor is at a table, and running a table service for a POST.
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from biblios_site import errors
from games import access
from games.models import Game


def go(request, url: str):
    """Send the browser to `url`: a full redirect, or htmx's client-side redirect."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def game_url(game_id: int) -> str:
    return reverse("game", args=[game_id])


def refusal_page(request, message: str, status: int):
    """A clear refusal page (403/404) that never reveals more than the message."""
    return render(request, "games/refused.html", {"message": message}, status=status)


def refused(request, refusal, status: int | None = None):
    """The refusal page saying `refusal` (a ServiceError, with its status; or an access rule's
    reason, with the `status` it is answered with)."""
    return refusal_page(request, errors.sentence(refusal), status or refusal.status)


def visitor(request, game: Game) -> access.Visitor:
    """Who this request is at `game`: its user, their seat, whether this browser followed the
    table's invite link (`access` decides what that allows). A page works it out once and
    hands it to every rule and drawing it asks."""
    invited = access.holds_invite(game, session=request.session)
    return access.Visitor.of(game, request.user, invited=invited)


def closed_to(request, game: Game, visitor: access.Visitor):
    """The 403 page if `games.access` closes this table's page (or partial) to the visitor."""
    refusal = access.see_refusal(game, visitor)
    return None if refusal is None else refused(request, refusal, 403)


def table_action(request, game_id: int, do):
    """Run one waiting-room service for a POST; GETs (e.g. after logging in) go to the table."""
    if request.method != "POST":
        return redirect(game_url(game_id))
    try:
        url = do()
    except errors.ServiceError as refusal:
        if refusal.status == 404:
            return refused(request, refusal)
        messages.error(request, errors.sentence(refusal))
        url = game_url(game_id)
    return go(request, url)
