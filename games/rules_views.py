"""The in-app rules: one concise page per edition, in the edition's own names."""

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import presentation
from games.models import Game


@require_GET
def rules(request, edition: str):
    if edition not in Game.Edition.values:
        raise Http404("no such edition")
    context = {
        "edition": edition,
        "edition_name": Game.Edition(edition).label,
        "editions": Game.Edition.choices,
        "names": presentation.rules_names(edition),
    }
    return render(request, "games/rules.html", context)
