"""The theme toggle: light, dark or the device's own, saved on the profile or, for a visitor, in
a cookie, and written on every page as <html data-theme> for site.css."""

import re

import pytest
from django.urls import reverse

from accounts.context_processors import THEME_COOKIE

pytestmark = pytest.mark.django_db

SET_THEME = reverse("accounts:set_theme")


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("ada", password="x", display_name="Ada")


def page_theme(client, url="/") -> str:
    html = client.get(url).content.decode()
    return re.search(r'<html [^>]*data-theme="([a-z]*)"', html).group(1)


def test_a_new_account_and_a_new_visitor_follow_the_device(client, player):
    assert player.theme == "auto"
    assert page_theme(client) == "auto"
    client.force_login(player)
    assert page_theme(client) == "auto"


def test_a_player_saves_a_theme_from_the_navigation_and_it_follows_them(client, player):
    client.force_login(player)
    response = client.post(SET_THEME, {"theme": "dark", "next": "/rules/"})
    assert response.status_code == 302
    assert response["Location"] == "/rules/"
    player.refresh_from_db()
    assert player.theme == "dark"
    assert page_theme(client, "/leaderboard/") == "dark"
    # Another device, without the cookie this one got: the profile decides.
    client.cookies.clear()
    client.force_login(player)
    assert page_theme(client) == "dark"


def test_the_saved_choice_wins_over_an_older_cookie(client, player):
    client.cookies[THEME_COOKIE] = "light"
    player.theme = "dark"
    player.save()
    client.force_login(player)
    assert page_theme(client) == "dark"


def test_a_visitor_keeps_the_choice_in_a_cookie(client):
    response = client.post(SET_THEME, {"theme": "light", "next": "/"})
    assert response.status_code == 302
    cookie = response.cookies[THEME_COOKIE]
    assert cookie.value == "light"
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["max-age"]
    assert page_theme(client) == "light"
    client.post(SET_THEME, {"theme": "auto", "next": "/"})
    assert page_theme(client) == "auto"


def test_a_forged_cookie_is_ignored(client):
    client.cookies[THEME_COOKIE] = '"><script>'
    assert page_theme(client) == "auto"


@pytest.mark.parametrize("posted", [{"theme": "purple"}, {"theme": ""}, {}])
def test_an_unknown_theme_is_refused_with_a_message_and_nothing_changes(client, player, posted):
    client.force_login(player)
    response = client.post(SET_THEME, {**posted, "next": "/rules/"})
    assert response.status_code == 400
    assert "Choose a theme: automatic, light or dark." in response.content.decode()
    assert THEME_COOKIE not in response.cookies
    player.refresh_from_db()
    assert player.theme == "auto"


@pytest.mark.parametrize(
    "next_url", ["https://evil.example/", "//evil.example/", "javascript:alert(1)", ""]
)
def test_a_next_page_off_the_site_is_not_followed(client, player, next_url):
    client.force_login(player)
    response = client.post(SET_THEME, {"theme": "dark", "next": next_url})
    assert response.status_code == 302
    assert response["Location"] == "/"
    player.refresh_from_db()
    assert player.theme == "dark"


def test_the_theme_changes_only_by_post(client):
    assert client.get(SET_THEME, {"theme": "dark"}).status_code == 405


def test_the_navigation_toggle_is_a_plain_form_with_the_current_choice_pressed(client, player):
    player.theme = "light"
    player.save()
    client.force_login(player)
    html = client.get("/rules/").content.decode()
    form = re.search(rf'<form method="post" action="{SET_THEME}".*?</form>', html, re.S).group()
    assert '<input type="hidden" name="next" value="/rules/">' in form
    pressed = re.findall(r'value="([a-z]+)" title="[^"]*" aria-pressed="true"', form)
    assert pressed == ["light"]


def test_the_profile_offers_the_theme_with_the_saved_one_checked(client, player):
    player.theme = "dark"
    player.save()
    client.force_login(player)
    html = client.get(reverse("accounts:profile", args=["ada"])).content.decode()
    checked = re.findall(r'<input type="radio" name="theme" value="([a-z]+)"[^>]*checked', html)
    assert checked == ["dark"]
