"""Asking for a finished game's review, and computing it in the background.

The rules live here, so every door obeys them: who may ask (a player of the game, or anyone
who may read a public game's record, logged in), for what (a finished game of a kind that has a
review), and how many a person may have waiting (`ANALYSIS_QUEUED_PER_USER`). One analysis per
game, kept: asking again returns it (or queues a failed one again). The job (`tasks.analyse`)
runs in the database's job queue, so a job survives a restart: one whose worker died mid-way
stops beating (`heartbeat_at`) and is queued again (`requeue_stalled`).
"""

import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from biblios_site import errors, push
from games import access
from games.analysis import review
from games.kinds import registry
from games.models import Analysis, Game

WAITING = (Analysis.Status.QUEUED, Analysis.Status.RUNNING)
STALLED_AFTER = timedelta(minutes=5)  # a running analysis silent this long lost its worker
PUSH_EVERY_S = 1.0  # the least time between two progress pushes to the review's page


def review_group(game_id: int) -> str:
    """The channel-layer group of the sockets showing a game's review page."""
    return f"review-{game_id}"


# A hint, no data: each socket renders its reader's own page (`consumers`).
REVIEW_CHANGED = {"type": "review.changed"}


def review_changed(game_id: int) -> None:
    push.send(review_group(game_id), REVIEW_CHANGED)


class BudgetSpent(Exception):
    """The job spent its CPU budget before the review was done."""


def request_analysis(game: Game, visitor: access.Visitor) -> Analysis:
    """The game's analysis, queued if it was not already there (or had failed); refuses with a
    message for the person otherwise."""
    person = visitor.person
    if person is None:
        raise errors.Unauthorized(gettext("log in to ask for a game's review"))
    reviewer = registry.of(game).review
    if reviewer is None:
        raise errors.BadRequest(gettext("this game has no review yet"))
    if game.status != Game.Status.FINISHED:
        raise errors.Conflict(gettext("only a finished game can be reviewed"))
    refusal = access.record_refusal(game, visitor)
    if refusal is None and game.private and visitor.seat is None and not visitor.staff:
        refusal = gettext("only its players may ask for the review of a private game")
    if refusal is not None:
        raise errors.NotAllowed(refusal)
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().filter(game=game).first()
        if analysis is not None and analysis.status != Analysis.Status.FAILED:
            return analysis
        waiting = Analysis.objects.filter(requested_by=person, status__in=WAITING).count()
        limit = settings.ANALYSIS_QUEUED_PER_USER
        if waiting >= limit:
            raise errors.Conflict(
                ngettext(
                    "you already have %(count)d review waiting: ask again once it is done",
                    "you already have %(count)d reviews waiting: ask again once one is done",
                    limit,
                )
                % {"count": limit}
            )
        if analysis is None:
            analysis = Analysis(game=game)
        analysis.requested_by = person
        analysis.status = Analysis.Status.QUEUED
        analysis.rounds = settings.ANALYSIS_ROUNDS or reviewer.worlds_for(game.num_players)
        analysis.done = analysis.total = 0
        analysis.failure = ""
        analysis.queued_at = timezone.now()
        analysis.save()
        _enqueue_after_commit(analysis)
        transaction.on_commit(lambda: review_changed(game.pk))
    return analysis


def _enqueue_after_commit(analysis: Analysis) -> None:
    from games.analysis.tasks import analyse

    transaction.on_commit(lambda: analyse.enqueue(analysis.pk))


def run_analysis(analysis_id: int) -> None:
    """Compute one queued analysis, saving its progress after each decision; a job for an
    analysis that another worker took, or that is done, does nothing."""
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
        if analysis is None or analysis.status != Analysis.Status.QUEUED:
            return
        now = timezone.now()
        analysis.status = Analysis.Status.RUNNING
        analysis.started_at = analysis.heartbeat_at = now
        analysis.save(update_fields=["status", "started_at", "heartbeat_at"])
    game = analysis.game
    review_changed(game.pk)
    moves = list(game.moves.order_by("seq").values_list("seat", "action"))
    start, budget = time.process_time(), settings.ANALYSIS_BUDGET_S
    pushed = [time.monotonic()]

    def progress(done: int, total: int) -> None:
        Analysis.objects.filter(pk=analysis_id).update(
            done=done, total=total, heartbeat_at=timezone.now()
        )
        if time.monotonic() - pushed[0] >= PUSH_EVERY_S:
            pushed[0] = time.monotonic()
            review_changed(game.pk)
        if time.process_time() - start > budget:
            raise BudgetSpent

    try:
        found = review.review_game(
            registry.of(game),
            game.setup,
            moves,
            game.num_players,
            rounds=analysis.rounds,
            seed=analysis.seed,
            progress=progress,
        )
    except BudgetSpent:
        _finish(analysis_id, start, status=Analysis.Status.FAILED, failure="CPU budget spent")
        return
    except Exception as error:  # never left running, to be queued again and fail again
        _finish(analysis_id, start, status=Analysis.Status.FAILED, failure=repr(error)[:200])
        raise
    _finish(analysis_id, start, status=Analysis.Status.DONE, result=found.as_data())


def _finish(analysis_id: int, start: float, **fields) -> None:
    Analysis.objects.filter(pk=analysis_id).update(
        finished_at=timezone.now(), cpu_seconds=time.process_time() - start, **fields
    )
    review_changed(Analysis.objects.values_list("game_id", flat=True).get(pk=analysis_id))


def requeue_stalled(now=None) -> int:
    """Queue again the running analyses whose worker stopped beating (a restart, a crash);
    how many."""
    now = now or timezone.now()
    stalled = list(
        Analysis.objects.filter(
            status=Analysis.Status.RUNNING, heartbeat_at__lt=now - STALLED_AFTER
        ).values_list("pk", flat=True)
    )
    for analysis_id in stalled:
        with transaction.atomic():
            taken = Analysis.objects.filter(
                pk=analysis_id, status=Analysis.Status.RUNNING, heartbeat_at__lt=now - STALLED_AFTER
            ).update(status=Analysis.Status.QUEUED, done=0, queued_at=now)
            if taken:
                _enqueue_after_commit(Analysis(pk=analysis_id))
    return len(stalled)
