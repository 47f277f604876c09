"""The leaderboard page, and its JSON twin for API clients (docs/ratings.md)."""

from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import errors
from games.api_protocol import api_view
from games.models import Game
from ratings import elo, selectors


class UnknownEdition(errors.BadRequest):
    def __init__(self, edition: str):
        super().__init__(
            _("Unknown edition “%(edition)s”: choose one of %(editions)s.")
            % {"edition": edition[:40], "editions": ", ".join(Game.Edition.values)}
        )


def _edition(request) -> str:
    edition = request.GET.get("edition") or Game.Edition.BIBLIOS
    if edition not in Game.Edition.values:
        raise UnknownEdition(edition)
    return edition


@require_GET
def leaderboard(request):
    """Players with at least one rated game in the edition, best first, paginated."""
    try:
        edition = _edition(request)
    except UnknownEdition as refusal:
        context = {"editions": Game.Edition.choices, "error": str(refusal)}
        return render(request, "ratings/leaderboard.html", context, status=400)
    context = {
        "editions": Game.Edition.choices,
        "edition": edition,
        "edition_label": Game.Edition(edition).label,
        "page": selectors.leaderboard_page(edition, request.GET.get("page")),
        "provisional_games": elo.PROVISIONAL_GAMES,
    }
    return render(request, "ratings/leaderboard.html", context)


@api_view("GET")
def api_leaderboard(request):
    """`GET /api/leaderboard?edition=&page=`: the same rows as the page, as JSON."""
    edition = _edition(request)
    page = selectors.leaderboard_page(edition, request.GET.get("page"))
    return JsonResponse(
        {
            "edition": edition,
            "page": page.number,
            "pages": page.paginator.num_pages,
            "count": page.paginator.count,
            "players": [
                {
                    "rank": row.rank,
                    "username": row.user.username,
                    "name": str(row.user),
                    "rating": round(row.rating),
                    "games": row.games,
                    "provisional": row.provisional,
                }
                for row in page.object_list
            ],
        }
    )
