"""A game still being built (way to land Ex Libris in steps): installed at the alpha
stage, it is off the lobby, the API and the rules pages until its entry says it is live.
High card (tests/kinds/toy/) stands in for it, installed at that stage for these tests only."""

import dataclasses

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from games.kinds import registry
from games.models import Game

from .conftest import TOY

pytestmark = pytest.mark.django_db


@pytest.fixture
def alpha_toy(settings):
    """The toy installed like a game (an app and a registry entry), at the alpha stage."""
    settings.INSTALLED_APPS = [*settings.INSTALLED_APPS, "tests.kinds.toy"]
    kind = dataclasses.replace(TOY, stage=registry.ALPHA)
    registry.register(kind)
    yield kind
    registry.unregister(kind.slug)


def test_an_alpha_kind_is_found_only_when_asked_for(alpha_toy):
    assert registry.get("toy", include_alpha=True) is alpha_toy
    assert "toy" not in [kind.slug for kind in registry.kinds()]
    with pytest.raises(registry.UnknownKind):
        registry.get("toy")


def test_neither_the_lobby_nor_the_api_offers_an_alpha_kind(alpha_toy, django_user_model):
    """The lobby draws no choice for it and refuses a post naming it; the API refuses it by
    name; no table is made."""
    user = django_user_model.objects.create_user("builder", display_name="Builder")
    browser = Client()
    browser.force_login(user)
    page = browser.get("/").content.decode()
    assert "High card" not in page and 'value="toy/' not in page
    posted = {"variant": "toy/high", "num_players": "2", "turn_seconds": ""}
    response = browser.post(reverse("table_create"), posted)
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    _, token = ApiToken.issue(user, "tests")
    api = Client(headers={"Authorization": f"Bearer {token}"})
    response = api.post(
        "/api/tables", {"kind": "toy", "num_players": 2}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "unknown game kind 'toy'" in response.json()["error"]
    assert not Game.objects.exists()


def test_the_rules_of_an_alpha_kind_are_neither_found_nor_linked(alpha_toy, client):
    assert client.get("/rules/toy/").status_code == 404
    assert client.get("/rules/toy/high/").status_code == 404
    assert "/rules/toy/" not in client.get("/rules/").content.decode()


def test_the_same_kind_live_is_offered(alpha_toy, django_user_model):
    """The checks above fail for the right reason: once live, the lobby offers the toy."""
    registry.register(dataclasses.replace(alpha_toy, stage=registry.LIVE))
    browser = Client()
    browser.force_login(django_user_model.objects.create_user("player", display_name="Player"))
    assert 'value="toy/high"' in browser.get("/").content.decode()
