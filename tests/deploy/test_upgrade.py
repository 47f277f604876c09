"""Upgrading keeps every game in progress (docs/deploy.md, "Upgrading"): a database as the last
release left it, with games in progress, is migrated by `manage.py migrate` to this code's
latest, and every game still loads, replays to its stored state and takes its next move.

The last release is recorded below as its migration leaf nodes of the project's apps; every
migration added since runs here on a filled database. After a release, record the new leaves.
"""

import json

import pytest
from django.db.migrations.loader import MigrationLoader

from tests.deploy.conftest import run, run_site
from tests.deploy.site_games import RELEASE_GAMES

pytestmark = pytest.mark.slow  # migrate twice, and a process of the site's code

# The project's apps at the last release (main at the time this test was written).
LAST_RELEASE = [
    ("accounts", "0006_user_theme"),
    ("friends", "0001_friendships_and_blocks"),
    ("games", "0010_moderation_message"),
    ("notifications", "0001_notifications_and_outbox"),
    ("ratings", "0002_kind_variant"),
    ("webpush", "0002_push_subscription_session"),
]


def test_games_in_progress_on_the_last_release_survive_the_upgrade(postgres):
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    missing = [node for node in LAST_RELEASE if node not in graph.nodes]
    assert not missing, f"the last release's migrations {missing} are gone: squashed or renamed?"
    database = postgres.url(postgres.create())
    filled = run_site(database, "release", json.dumps(LAST_RELEASE))
    assert filled == {"games": len(RELEASE_GAMES)}

    # As an operator upgrades (docs/deploy.md): the new code's migrations, nothing else.
    run(database, "manage.py", "migrate", "--noinput")

    games = run_site(database, "check")
    assert len(games) == len(RELEASE_GAMES)
    assert {(game["kind"], game["turn_seconds"]) for game in games.values()} == {
        (kind, seconds) for kind, _, _, _, seconds, _ in RELEASE_GAMES
    }
    for number, game in games.items():
        assert game["replayed"], f"game {number} does not replay: {game['problem']}"
        assert game["version_after"] == game["version"] + 1, (number, game)
        assert game["problem_after"] == "", (number, game)
