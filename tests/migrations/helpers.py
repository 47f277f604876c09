"""Moving the schema back and forth on the test database, for the tests of data migrations."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets):
    """Migrate the apps `targets` names to those migrations, every other app staying at its
    latest ([]: every app at its latest) unless a migration of it needs a later one of a moved
    app (it is unapplied with it, as Django does: a plan goes one way); the historical models
    of what is applied then."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets or executor.loader.graph.leaf_nodes())
    executor.loader.build_graph()
    return executor.loader.project_state(sorted(executor.loader.applied_migrations)).apps
