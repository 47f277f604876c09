"""Learn to play: each kind's guided first game and its "how scoring works" page, open to
visitors without an account (the lesson lives in the session: games/learn.py)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from biblios_site import ratelimit
from games.kinds import registry
from games.learn import lessons as learn
from games.play.forms import parse_version


def _kind(slug: str) -> registry.GameKind:
    try:
        return learn.kind_with_lesson(slug)
    except registry.UnknownKind:
        raise Http404("no lesson for this game") from None


def _key(kind: registry.GameKind) -> str:
    return f"learn-{kind.slug}"


def _run(request, kind: registry.GameKind) -> tuple[learn.Run, str]:
    """The visitor's lesson as their session left it; a stored move list that is not one the
    lesson could have reached is dropped whole, and the lesson starts again."""
    moves = request.session.get(_key(kind), [])
    try:
        if not learn.valid_moves(moves):
            raise learn.LessonRefused("not a move list", 0)
        return learn.play(kind, moves), ""
    except learn.LessonRefused:
        request.session[_key(kind)] = []
        message = gettext("Your saved lesson could not be replayed, so it starts again.")
        return learn.play(kind, []), message


def _page(request, kind: registry.GameKind, run: learn.Run, message: str, *, partial: str = ""):
    context = learn.board_context(
        run,
        learn.learner_names(kind, request.user),
        message=message,
        act_url=reverse("learn_act", args=[kind.slug]),
    )
    template = "games/learn.html" + (f"#{partial}" if partial else "")
    return render(request, template, context)


@require_GET
def index(request):
    """Every game that has a lesson, with its guided game and its scoring demo."""
    return render(request, "games/learn_index.html", {"kinds": learn.lesson_kinds()})


@require_GET
def lesson(request, kind: str):
    """The guided game where the visitor left it."""
    game_kind = _kind(kind)
    run, message = _run(request, game_kind)
    notes = [str(note) for note in messages.get_messages(request)]
    return _page(request, game_kind, run, " ".join(filter(None, [message, *notes])))


@require_POST
def act(request, kind: str):
    """One learner's move: read by the kind's form parser, refused with the engine's message,
    or nudged back when legal but not what the step teaches; otherwise played, then the bots
    answer. htmx gets the lesson's board back, a plain form a redirect to the page."""
    game_kind = _kind(kind)
    try:  # every move replays the lesson: a visitor gets a player's pace, counted by address
        ratelimit.hit("action", f"learn:{ratelimit.client_ip(request)}")
    except ratelimit.RateLimited as refusal:
        return ratelimit.too_many(refusal)
    run, message = _run(request, game_kind)
    if not message:
        try:
            version = parse_version(request.POST)
            action = game_kind.parse_action(request.POST)
            if version != run.view()["version"]:
                message = gettext("The board changed before your move arrived; here it is now.")
            elif not run.view()["legal_actions"]:
                message = gettext("It is not your move.")
            else:
                run = learn.play(game_kind, [*run.moves, action])
                request.session[_key(game_kind)] = run.moves
        except registry.ActionInputError as refusal:
            message = str(refusal)
        except learn.LessonRefused as refusal:
            message = str(refusal)
    if not request.htmx:
        if message:
            messages.info(request, message)
        return redirect("learn_lesson", game_kind.slug)
    return _page(request, game_kind, run, message, partial="lesson")


@require_POST
def restart(request, kind: str):
    """The lesson from its first move again."""
    game_kind = _kind(kind)
    request.session[_key(game_kind)] = []
    if not request.htmx:
        return redirect("learn_lesson", game_kind.slug)
    return _page(request, game_kind, learn.play(game_kind, []), "", partial="lesson")


@require_GET
def scoring(request, kind: str):
    """The kind's prepared end position, to change and see the score follow (the engine's)."""
    game_kind = _kind(kind)
    lesson = game_kind.lesson
    context = {
        "kind": game_kind,
        "demo_template": lesson.scoring_template,
        **lesson.scoring_context(request.GET),
    }
    return render(request, "games/learn_scoring.html", context)
