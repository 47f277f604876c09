"""A moderator with a logged-in admin browser, players, and admin action helpers."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from django.urls import reverse

from tests.play import make_users


@pytest.fixture
def users(django_user_model):
    return make_users(django_user_model, "monk", password="pw-monk")


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("abbot", password="x", email="a@example.org")


@pytest.fixture
def admin_browser(moderator):
    client = Client()
    client.force_login(moderator)
    return client


def run_action(browser, changelist: str, action: str, objects, **fields):
    """Post an admin action through its reason page (`fields` filled in on the second step)."""
    url = reverse(changelist)
    data = {"action": action, ACTION_CHECKBOX_NAME: [obj.pk for obj in objects]}
    first = browser.post(url, data)
    assert first.status_code == 200 and 'name="apply"' in first.content.decode()
    return browser.post(url, {**data, "apply": "Confirm", **fields}, follow=True)
