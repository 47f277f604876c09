"""Push switched on with a fresh VAPID pair, a local push service, and a player."""

import pytest

from tests.webpush.push_service import BrowserKeys, start_push_service, vapid_keys


@pytest.fixture
def vapid(settings):
    """Push on: the three VAPID settings, as the environment would give them."""
    keys = vapid_keys()
    for name, value in keys.items():
        setattr(settings, name, value)
    return keys


@pytest.fixture
def push_service(settings):
    """The local push service, the one origin besides the real push services that endpoints
    may point at (as a developer's settings would list it)."""
    service = start_push_service()
    settings.PUSH_SERVICE_LOCAL_ORIGINS = [service.origin]
    yield service
    service.server.shutdown()
    service.server.server_close()


@pytest.fixture
def browser_keys():
    return BrowserKeys()


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("pushy", password="a-long-pass-phrase-9")
