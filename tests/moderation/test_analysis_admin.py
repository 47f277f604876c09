"""Moderators see the games' reviews and their queue in the admin, read-only: only the
analysis job writes them."""

import random

import pytest
from django.urls import reverse

from games.access import Visitor
from games.analysis import services, worker
from games.models import Analysis
from tests.play import play_to_end, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_admin_lists_each_review_with_its_progress_and_changes_none(
    users, admin_browser, settings
):
    settings.ANALYSIS_ROUNDS = 1
    done = play_to_end(started_game(users, 2, seed=41), random.Random(41))
    waiting = play_to_end(started_game(users[2:], 2, seed=42), random.Random(42))
    services.request_analysis(done, Visitor.of(done, users[0]))
    worker.drain()
    services.request_analysis(waiting, Visitor.of(waiting, users[2]))
    listing = admin_browser.get(reverse("admin:games_analysis_changelist")).content.decode()
    assert "Done" in listing and "Waiting its turn" in listing
    queued = admin_browser.get(reverse("admin:games_analysis_changelist"), {"status": "queued"})
    analysis = Analysis.objects.get(game=waiting)
    assert f"/admin/games/analysis/{analysis.pk}/change/" in queued.content.decode()
    admin_browser.post(
        reverse("admin:games_analysis_change", args=[analysis.pk]), {"status": "done"}
    )
    assert Analysis.objects.get(pk=analysis.pk).status == Analysis.Status.QUEUED


def test_the_inspector_shows_each_graded_moves_grade(users, admin_browser, settings):
    settings.ANALYSIS_ROUNDS = 1
    game = play_to_end(started_game(users, 2, seed=43), random.Random(43))
    inspect = reverse("admin:games_game_inspect", args=[game.pk])
    assert "inspect-grade" not in admin_browser.get(inspect).content.decode()
    services.request_analysis(game, Visitor.of(game, users[0]))
    worker.drain()
    page = admin_browser.get(inspect).content.decode()
    decisions = Analysis.objects.get(game=game).result["decisions"]
    assert page.count('class="inspect-grade"') == len(decisions)
