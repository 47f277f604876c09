"""`GET /api/games/<id>/record`: a game's export through the board API (docs/api.md)."""

from django.http import JsonResponse

from games import history, services
from games.api import api_view
from games.models import Game


@api_view("GET")
def game_record(request, game_id: int):
    """The whole record once finished; before that only what the caller's seat may know.

    A private table's record shows only to its players, as its board does.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise services.NotFound(f"there is no game {game_id}")
    if game.private and services.seat_of(game, request.user) is None:
        raise services.NotAllowed("this table is private: only its players see it")
    return JsonResponse(history.game_record(game, request.user))
