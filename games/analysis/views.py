"""The review page of a finished game: ask for the review, follow its progress, read it.

Thin edge: the rules are `services.request_analysis`'s and the page's content
`review_page.review_context`'s. The form posts with htmx (the page's `#review` region comes
back) and also works as a plain POST (a redirect back to the page with a message).
"""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from biblios_site import errors
from games import web
from games.analysis import review_page, services
from games.models import Game


@require_http_methods(["GET", "POST"])
def game_review(request, game_id: int):
    game = get_object_or_404(Game, pk=game_id)
    visitor = web.visitor(request, game)
    refusal = None
    if request.method == "POST":
        try:
            services.request_analysis(game, visitor)
        except errors.ServiceError as refused:
            refusal = errors.sentence(refused)
        if not request.htmx:
            if refusal:
                messages.error(request, refusal)
            return redirect("game_review", game.pk)
    try:
        context = review_page.review_context(game, visitor)
    except errors.NotAllowed as refused:
        return web.refused(request, refused)
    context["refusal"] = refusal
    template = "games/review.html#review" if request.htmx else "games/review.html"
    return render(request, template, context)
