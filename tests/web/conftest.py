import pytest
from django.test import Client


@pytest.fixture
def users(django_user_model):
    return [
        django_user_model.objects.create_user(f"monk{i}", password="x", display_name=f"Brother {i}")
        for i in range(5)
    ]


@pytest.fixture
def clients(users):
    """A logged-in browser per user, plus an anonymous one at `None`."""
    browsers = {}
    for user in users:
        browser = Client()
        browser.force_login(user)
        browsers[user.pk] = browser
    browsers[None] = Client()
    return browsers


@pytest.fixture
def biblios_alone(settings):
    """The site with Biblios its one installed game, as it was before Ex Libris went live."""
    settings.GAME_KINDS = ["games.kinds.biblios"]
