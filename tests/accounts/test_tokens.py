"""API tokens: created and revoked on one's own profile, or issued by a management command."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from accounts.models import ApiToken
from accounts.views import MAX_TOKENS_PER_USER

pytestmark = pytest.mark.django_db

TOKENS = reverse("accounts:tokens")


@pytest.fixture
def ada(django_user_model):
    return django_user_model.objects.create_user("ada", password="x", display_name="Ada")


@pytest.fixture
def basil(django_user_model):
    return django_user_model.objects.create_user("basil", password="x", display_name="Basil")


def raw_token_in(html: str) -> str:
    match = re.search(r'id="raw-token"[^>]*value="([^"]+)"', html)
    assert match, html
    return match.group(1)


def test_creating_a_token_shows_it_once_and_it_works(client, ada):
    client.force_login(ada)
    response = client.post(TOKENS, {"action": "create", "name": "my bot"})
    assert response.status_code == 200
    html = response.content.decode()
    raw = raw_token_in(html)
    assert "shown only this once" in html
    assert ApiToken.user_for(raw) == ada
    token = ApiToken.objects.get(user=ada)
    assert (token.name, token.prefix) == ("my bot", raw[:8])
    assert token.key_hash != raw and raw not in token.key_hash

    profile = client.get(reverse("accounts:profile", args=["ada"])).content.decode()
    assert raw not in profile
    assert token.prefix in profile and "my bot" in profile


def test_a_token_name_is_optional(client, ada):
    client.force_login(ada)
    response = client.post(TOKENS, {"action": "create"})
    assert ApiToken.user_for(raw_token_in(response.content.decode())) == ada


def test_a_too_long_name_is_a_form_error_and_creates_nothing(client, ada):
    client.force_login(ada)
    response = client.post(TOKENS, {"action": "create", "name": "x" * 61})
    assert response.status_code == 400
    assert "name" in response.context["token_form"].errors
    assert not ApiToken.objects.exists()


def test_token_count_is_capped(client, ada):
    for _ in range(MAX_TOKENS_PER_USER):
        ApiToken.issue(ada)
    client.force_login(ada)
    response = client.post(TOKENS, {"action": "create"})
    assert response.status_code == 400
    assert "revoke one first" in response.content.decode()
    assert ApiToken.objects.filter(user=ada).count() == MAX_TOKENS_PER_USER


def test_revoking_a_token_stops_it_working(client, ada):
    token, raw = ApiToken.issue(ada, "old")
    client.force_login(ada)
    response = client.post(TOKENS, {"action": "revoke", "token": token.pk})
    assert response.status_code == 302
    assert response.url == reverse("accounts:my_profile")
    assert ApiToken.user_for(raw) is None
    assert not ApiToken.objects.exists()


def test_nobody_else_can_revoke_my_token(client, ada, basil):
    token, raw = ApiToken.issue(ada)
    client.force_login(basil)
    response = client.post(TOKENS, {"action": "revoke", "token": token.pk})
    assert response.status_code == 404
    assert ApiToken.user_for(raw) == ada


@pytest.mark.parametrize(
    "data",
    [{"action": "revoke", "token": "abc"}, {"action": "revoke"}, {"action": "steal"}, {}],
)
def test_bad_token_requests_are_400_and_change_nothing(client, ada, data):
    token, raw = ApiToken.issue(ada)
    client.force_login(ada)
    assert client.post(TOKENS, data).status_code == 400
    assert ApiToken.user_for(raw) == ada


def test_tokens_need_login_and_post(client, ada):
    response = client.post(TOKENS, {"action": "create"})
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login"))
    client.force_login(ada)
    assert client.get(TOKENS).status_code == 405
    assert not ApiToken.objects.exists()


def test_tokens_are_never_shown_on_someone_elses_profile(client, ada, basil):
    token, _ = ApiToken.issue(ada, "secret bot")
    url = reverse("accounts:profile", args=["ada"])
    for viewer in (None, basil):
        if viewer:
            client.force_login(viewer)
        response = client.get(url)
        html = response.content.decode()
        assert response.status_code == 200
        assert "tokens" not in response.context
        assert token.prefix not in html and "secret bot" not in html
        assert TOKENS not in html


def test_create_api_token_command_prints_a_working_token(ada):
    out = StringIO()
    call_command("create_api_token", "ada", "--name", "cli", stdout=out)
    raw = out.getvalue().strip()
    assert ApiToken.user_for(raw) == ada
    assert ApiToken.objects.get(user=ada).name == "cli"


def test_create_api_token_command_refuses_an_unknown_user():
    with pytest.raises(CommandError, match="no user 'ghost'"):
        call_command("create_api_token", "ghost")
    assert not ApiToken.objects.exists()


def test_create_api_token_command_refuses_an_inactive_user(ada):
    ada.is_active = False
    ada.save()
    with pytest.raises(CommandError, match="inactive"):
        call_command("create_api_token", "ada")
    assert not ApiToken.objects.exists()


def test_admin_lists_tokens_without_their_secrets(admin_client, ada):
    token, raw = ApiToken.issue(ada, "bot")
    listing = admin_client.get(reverse("admin:accounts_apitoken_changelist"))
    assert listing.status_code == 200
    assert token.prefix in listing.content.decode()
    change = admin_client.get(reverse("admin:accounts_apitoken_change", args=[token.pk]))
    assert change.status_code == 200
    assert 'name="key_hash"' not in change.content.decode()  # read-only, not an input
    assert raw not in change.content.decode()
    assert admin_client.get(reverse("admin:accounts_apitoken_add")).status_code == 403


def test_admin_user_page_shows_display_name(admin_client, ada):
    response = admin_client.get(reverse("admin:accounts_user_change", args=[ada.pk]))
    assert 'name="display_name"' in response.content.decode()
    listing = admin_client.get(reverse("admin:accounts_user_changelist"))
    assert "Ada" in listing.content.decode()
