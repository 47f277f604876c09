"""Pages of the tables: the lobby, creating a table, the invite link, joining, leaving, removing a
player, inviting a friend, starting, and the rematch.

Thin edges: every change goes through `games.tables.services`; every form posts with htmx and
also works as a plain POST (`request.htmx` decides between a fragment and a redirect).
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from biblios_site import errors
from biblios_site.inputs import whole_number
from games import access, web
from games.kinds import registry
from games.models import Game
from games.tables import selectors as tables_selectors
from games.tables import services
from games.tables.forms import TableForm


@require_GET
def lobby(request):
    context = {**tables_selectors.lobby_tables(request.user), "form": TableForm()}
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
            return web.go(request, web.game_url(game.pk))
    context = {**tables_selectors.lobby_tables(request.user), "form": form}
    return render(request, "games/lobby.html", context, status=400)


def invite(request, invite_code: str):
    """Following an invite link seats the visitor if a seat is free, and lets them see the table."""
    game = Game.objects.filter(invite_code=invite_code).first()
    if game is None:
        return web.refusal_page(request, gettext("This invite link is not valid."), 404)
    access.remember_invite(request.session, game)
    if not request.user.is_authenticated:
        return render(request, "games/invite.html", _invite_context(game, request.path))
    if web.visitor(request, game).seat is None:
        try:
            services.join_by_invite(invite_code, request.user)
        except errors.ServiceError as refusal:
            messages.info(
                request, gettext("You could not take a seat: %(reason)s.") % {"reason": refusal}
            )
    return redirect(web.game_url(game.pk))


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


@login_required
def join(request, game_id: int):
    def do():
        game = get_object_or_404(Game, pk=game_id)
        services.join_table(game_id, request.user, invited=web.visitor(request, game).invited)
        return web.game_url(game_id)

    return web.table_action(request, game_id, do)


@login_required
def leave(request, game_id: int):
    def do():
        services.leave_table(game_id, request.user)
        messages.success(request, gettext("You left the table."))
        return reverse("home")

    return web.table_action(request, game_id, do)


@login_required
def remove_player(request, game_id: int):
    def do():
        user_id = whole_number(request.POST.get("user"), minimum=1)
        if user_id is None:
            raise errors.ServiceError(gettext("choose a player to remove"))
        services.remove_player(game_id, request.user, user_id=user_id)
        return web.game_url(game_id)

    return web.table_action(request, game_id, do)


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
        return web.game_url(game_id)

    return web.table_action(request, game_id, do)


@login_required
def start(request, game_id: int):
    def do():
        services.start_game(game_id, request.user)
        return web.game_url(game_id)

    return web.table_action(request, game_id, do)


@login_required
def rematch(request, game_id: int):
    """Play again with the same players: opens the rematch table, or joins the one offered."""

    def do():
        return web.game_url(services.rematch(game_id, request.user).pk)

    return web.table_action(request, game_id, do)
