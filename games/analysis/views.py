"""The review page of a finished game: ask for the review, follow its progress, read it.

Thin edge: the rules are `services.request_analysis`'s and the page's content
`review_page.review_context`'s. The form posts with htmx (the page's `#review` region comes
back) and also works as a plain POST (a redirect back to the page with a message).
"""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from biblios_site import errors
from biblios_site.inputs import whole_number
from games import web
from games.analysis import learning, review_page, services, what_if_page
from games.kinds import registry
from games.models import Game
from games.play import selectors as play_selectors


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


@require_http_methods(["GET", "POST"])
def learn_from_mistakes(request, game_id: int):
    """One of the player's mistakes and blunders (`?n=`, from 1) with the moves compared there;
    a POST of `choice` is judged, and a solved one remembered in the session."""
    game = get_object_or_404(Game, pk=game_id)
    visitor = web.visitor(request, game)
    try:
        decisions = learning.exercises_of(game, visitor)
    except errors.ServiceError as refused:
        return web.refused(request, refused)
    if not decisions:
        return redirect("game_review", game.pk)
    key = f"learned-{game.pk}"
    solved = set(request.session.get(key, []))
    asked = request.POST if request.method == "POST" else request.GET
    number = whole_number(asked.get("n"), minimum=1, maximum=len(decisions)) or 1
    decision = decisions[number - 1]
    verdict, accepted = "", False
    if request.method == "POST":
        choice = whole_number(request.POST.get("choice"), maximum=len(decision["alternatives"]))
        try:
            accepted, verdict = learning.judge(game, decision, -1 if choice is None else choice)
        except errors.ServiceError as refused:
            verdict = errors.sentence(refused)
        if accepted:
            solved.add(decision["move"])
            request.session[key] = sorted(solved)
    context = {
        "game": game,
        "exercise": learning.exercise(game, visitor, decision, number),
        "total": len(decisions),
        "solved": sum(d["move"] in solved for d in decisions),
        "this_solved": decision["move"] in solved,
        "verdict": verdict,
        "accepted": accepted,
        "next": number % len(decisions) + 1,
        "names": play_selectors.seat_names(game),
        "me": visitor.seat,
        "board_template": registry.of(game).board_template,
    }
    template = "games/review_learn.html#learn" if request.htmx else "games/review_learn.html"
    return render(request, template, context)


@require_GET
def what_if(request, game_id: int, move: int):
    """The game played on by the bots from the best move found at one of the reader's
    decisions, in the world numbered `?world=` (from 1)."""
    game = get_object_or_404(Game, pk=game_id)
    visitor = web.visitor(request, game)
    world = whole_number(request.GET.get("world"), minimum=1, maximum=what_if_page.WORLDS) or 1
    try:
        context = what_if_page.what_if_context(game, visitor, move, world)
    except errors.ServiceError as refused:
        return web.refused(request, refused)
    return render(request, "games/review_what_if.html", context)
