"""Asking for a finished game's review (`games.analysis.services`) and the worker that computes
it: who may ask and how often, one analysis per game, progress saved as it goes, a budget that
ends a job, and a job whose worker died queued again."""

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from biblios_site import errors
from games.access import Visitor
from games.analysis import services, worker
from games.kinds import registry
from games.models import Analysis, Game
from tests.play import make_users, play_to_end, started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def users(django_user_model):
    return make_users(django_user_model, "reviewer")


@pytest.fixture(autouse=True)
def quick(settings):
    settings.ANALYSIS_ROUNDS = 1  # one world a decision: the plumbing, not the judgement


def finished(users, seed: int, **table) -> Game:
    return play_to_end(started_game(users, 2, seed=seed, **table), random.Random(seed))


def ask(game: Game, user) -> Analysis:
    return services.request_analysis(game, Visitor.of(game, user))


def jobs() -> int:
    return DBTaskResult.objects.filter(queue_name="analysis").count()


def test_a_player_asks_and_the_worker_grades_every_decision_of_the_game(users):
    game = finished(users, 1)
    analysis = ask(game, users[0])
    assert analysis.status == Analysis.Status.QUEUED and jobs() == 1
    worker.drain()
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE, analysis.failure
    assert analysis.total > 0 and analysis.done == analysis.total
    assert analysis.cpu_seconds > 0 and analysis.finished_at is not None
    moves = {move.seq: (move.seat, move.action) for move in game.moves.all()}
    decisions = analysis.result["decisions"]
    assert len(decisions) == analysis.total  # Biblios grades every decision with a choice
    for decision in decisions:
        assert moves[decision["move"]] == (decision["seat"], decision["action"])
    assert [seat["seat"] for seat in analysis.result["seats"]] == [0, 1]
    assert ask(game, users[1]).pk == analysis.pk and jobs() == 1  # kept: asked once, run once


def test_anyone_logged_in_may_ask_for_a_public_game_and_only_its_players_for_a_private_one(users):
    public = finished(users, 2)
    assert ask(public, users[3]).status == Analysis.Status.QUEUED
    private = finished(users, 3, private=True)
    with pytest.raises(errors.NotAllowed):
        ask(private, users[3])
    with pytest.raises(errors.Unauthorized):
        services.request_analysis(public, Visitor.of(public, AnonymousUser()))
    assert ask(private, users[1]).status == Analysis.Status.QUEUED
    assert Analysis.objects.count() == 2 and jobs() == 2


def test_a_game_not_over_is_refused_and_nothing_is_queued(users):
    game = started_game(users, 2, seed=4)
    with pytest.raises(errors.Conflict, match="finished"):
        ask(game, users[0])
    assert not Analysis.objects.exists() and jobs() == 0


def test_a_person_has_only_so_many_reviews_waiting(users, settings):
    settings.ANALYSIS_QUEUED_PER_USER = 1
    first, second = finished(users, 5), finished(users, 6)
    ask(first, users[0])
    with pytest.raises(errors.Conflict, match="1 review waiting"):
        ask(second, users[0])
    assert ask(second, users[1]).status == Analysis.Status.QUEUED  # another person's count
    worker.drain()
    assert ask(finished(users, 7), users[0]).status == Analysis.Status.QUEUED  # once it is done


def test_a_job_past_its_cpu_budget_fails_and_may_be_asked_for_again(users, settings):
    game = finished(users, 8)
    settings.ANALYSIS_BUDGET_S = 0
    ask(game, users[0])
    worker.drain()
    analysis = Analysis.objects.get(game=game)
    assert analysis.status == Analysis.Status.FAILED and analysis.failure == "CPU budget spent"
    assert analysis.done == 1 and analysis.result is None
    settings.ANALYSIS_BUDGET_S = 600
    assert ask(game, users[1]).status == Analysis.Status.QUEUED
    worker.drain()
    assert Analysis.objects.get(game=game).status == Analysis.Status.DONE


def test_an_analysis_whose_worker_died_is_queued_again_and_finished(users):
    game = finished(users, 9)
    ask(game, users[0])
    DBTaskResult.objects.all().delete()  # the job a dead worker had claimed
    beating = timezone.now() - timedelta(seconds=10)
    Analysis.objects.update(status=Analysis.Status.RUNNING, done=5, heartbeat_at=beating)
    assert services.requeue_stalled() == 0 and jobs() == 0  # a live worker is still at it
    long_ago = timezone.now() - services.STALLED_AFTER - timedelta(seconds=1)
    Analysis.objects.update(heartbeat_at=long_ago)
    worker.drain()
    analysis = Analysis.objects.get(game=game)
    assert analysis.status == Analysis.Status.DONE and analysis.done == analysis.total


def test_each_game_is_reviewed_over_its_own_worlds_unless_the_site_sets_one_for_all(
    users, settings
):
    """Ex Libris' grades need twice Biblios' worlds to agree from one review to the next as
    often, and four times as many again in solo (docs/review.md); ANALYSIS_ROUNDS, where set,
    is every game's (tests set one)."""
    settings.ANALYSIS_ROUNDS = None
    games = [finished(users, 5), finished(users, 6, kind="exlibris")]
    games.append(play_to_end(started_game(users, 1, seed=8, kind="exlibris"), random.Random(8)))
    worlds = [ask(game, users[0]).rounds for game in games]
    assert worlds == [registry.of(game).review.worlds_for(game.num_players) for game in games]
    assert worlds[0] < worlds[1] < worlds[2]
    settings.ANALYSIS_ROUNDS = 3
    assert ask(finished(users, 7, kind="exlibris"), users[1]).rounds == 3  # 3 queued for 0
