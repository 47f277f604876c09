"""Moving the schema back and forth on the test database, for the tests of data migrations."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(targets):
    """Migrate the apps `targets` names to those migrations, every other app staying at its
    latest ([]: every app at its latest); the historical models at that point."""
    executor = MigrationExecutor(connection)
    moved = {app for app, _ in targets}
    plan = [node for node in executor.loader.graph.leaf_nodes() if node[0] not in moved]
    plan += targets
    executor.migrate(plan)
    executor.loader.build_graph()
    return executor.loader.project_state(plan).apps
