"""Players for the friends tests, a logged-in browser for each, and friendships
made through the services."""

import pytest
from django.test import Client

from accounts.models import ApiToken
from friends import services
from tests.api.conftest import ApiClient


@pytest.fixture
def users(django_user_model):
    """Ada, basil, clio, dora (shown as "Ada"…), the names the pages' assertions read."""
    return [
        django_user_model.objects.create_user(name, password="x", display_name=name.title())
        for name in ("ada", "basil", "clio", "dora")
    ]


def browser(user, language: str | None = None) -> Client:
    headers = {"accept-language": language} if language else {}
    client = Client(headers=headers)
    client.force_login(user)
    return client


def befriend(a, b) -> None:
    """Make `a` and `b` friends: `a` asks, `b` accepts."""
    services.send_request(a, b)
    services.accept(b, a)


def api_client(user) -> ApiClient:
    """A board-API client holding a fresh token of `user`."""
    _, raw = ApiToken.issue(user, "tests")
    return ApiClient(raw, user)
