"""Fixtures for the WebSocket tests."""

import copy
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


@pytest.fixture(autouse=True)
def own_channel_layer(settings):
    """A channel layer of this test's own: a fresh in-memory one, or a private Redis prefix.

    Other test runs may share the Redis server; their hints must not reach these sockets.
    """
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    if "redis" in layers["default"]["BACKEND"].lower():
        layers["default"].setdefault("CONFIG", {})["prefix"] = f"live-{uuid.uuid4().hex}:"
    settings.CHANNEL_LAYERS = layers
    yield
    async_to_sync(get_channel_layer().flush)()


@pytest.fixture
def users(django_user_model):
    return [
        django_user_model.objects.create_user(f"player{i}", password="x", display_name=f"P{i}")
        for i in range(5)
    ]
