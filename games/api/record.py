"""`GET /api/games/<id>/record`: a game's export through the board API (docs/api.md)."""

from django.http import JsonResponse

from accounts.api_protocol import api_view
from biblios_site import errors
from games import access
from games.history import selectors as history
from games.models import Game


@api_view("GET")
def game_record(request, game_id: int):
    """The whole record once finished; before that only what the caller's seat may know.

    Who may read it is `games.access.record_refusal`'s rule, as for the replay page.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise errors.NotFound(f"there is no game {game_id}")
    invited = access.holds_invite(game, code=request.GET.get("invite"))
    visitor = access.Visitor.of(game, request.user, invited=invited)
    refusal = access.record_refusal(game, visitor)
    if refusal is not None:
        raise errors.NotAllowed(refusal)
    return JsonResponse(history.game_record(game, visitor))
