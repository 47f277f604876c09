"""People with e-mail addresses, quick bots, and the commit that sends."""

import pytest

from tests.play import make_users
from tests.turns.conftest import quick_bots  # noqa: F401  (bots move at once)


@pytest.fixture
def people(django_user_model):
    """Four readers, each with an e-mail address (reader0@example.org…)."""
    users = make_users(django_user_model, "reader")
    for user in users:
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    return users


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """`committed(fn, *args)`: run a service as its own commit would, the after-commit work
    (pushes, sending) included; the test's transaction holds back what a commit would run."""

    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run
