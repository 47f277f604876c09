"""Sign up, log in, log out and password change through the site's own pages."""

import pytest
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


def signup_data(**overrides):
    data = {
        "username": "alice",
        "display_name": "Alice",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    data.update(overrides)
    return data


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(
        "bob", password=PASSWORD, display_name="Bob the Scribe"
    )


def test_signup_page_shows_the_form(client):
    response = client.get(reverse("accounts:signup"))
    assert response.status_code == 200
    html = response.content.decode()
    for field in ("username", "display_name", "password1", "password2"):
        assert f'name="{field}"' in html


def test_signup_creates_the_user_logs_in_and_goes_home(client):
    response = client.post(reverse("accounts:signup"), signup_data())
    assert response.status_code == 302
    assert response.url == reverse("home")
    user = User.objects.get(username="alice")
    assert user.display_name == "Alice"
    assert user.check_password(PASSWORD)
    assert client.session["_auth_user_id"] == str(user.pk)
    home = client.get(reverse("home")).content.decode()
    assert reverse("accounts:profile", args=["alice"]) in home
    assert "Log out" in home


def test_duplicate_username_is_a_form_error(client, bob):
    response = client.post(
        reverse("accounts:signup"), signup_data(username="BOB", display_name="Other")
    )
    assert response.status_code == 200
    assert "username" in response.context["form"].errors
    assert User.objects.count() == 1
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    "display_name",
    [
        "A",  # too short
        "x" * 41,  # too long
        " Alice",  # leading space
        "Alice ",  # trailing space
        "Alice<script>",  # characters outside letters, digits and -_.'
        "Al@ce",
        "",
        "bob the scribe",  # taken, ignoring case
        "ＢＯＢ the Scribe",  # full-width look-alike of a taken name
    ],
)
def test_bad_display_names_are_form_errors_and_create_nobody(client, bob, display_name):
    response = client.post(reverse("accounts:signup"), signup_data(display_name=display_name))
    assert response.status_code == 200
    assert "display_name" in response.context["form"].errors
    assert not User.objects.filter(username="alice").exists()


@pytest.mark.parametrize("display_name", ["Jo", "Anne-Marie O'Neil", "Zoë_2.0", "x" * 40])
def test_good_display_names_are_accepted(client, display_name):
    response = client.post(reverse("accounts:signup"), signup_data(display_name=display_name))
    assert response.status_code == 302
    assert User.objects.get(username="alice").display_name == display_name


def test_password_mismatch_is_a_form_error(client):
    response = client.post(reverse("accounts:signup"), signup_data(password2=PASSWORD + "!"))
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert not User.objects.exists()


def test_weak_password_is_a_form_error(client):
    response = client.post(
        reverse("accounts:signup"), signup_data(password1="12345678", password2="12345678")
    )
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert not User.objects.exists()


def test_signed_in_users_are_sent_home_from_signup(client, bob):
    client.force_login(bob)
    response = client.get(reverse("accounts:signup"))
    assert response.status_code == 302
    assert response.url == reverse("home")


def test_login_and_logout(client, bob):
    assert reverse("accounts:login") in client.get(reverse("home")).content.decode()
    response = client.post(reverse("accounts:login"), {"username": "bob", "password": PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("home")
    assert client.session["_auth_user_id"] == str(bob.pk)
    home = client.get(reverse("home")).content.decode()
    assert "Bob the Scribe" in home
    assert f'<form method="post" action="{reverse("accounts:logout")}"' in home

    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert response.url == reverse("home")
    assert "_auth_user_id" not in client.session


def test_wrong_password_does_not_log_in(client, bob):
    response = client.post(reverse("accounts:login"), {"username": "bob", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert "_auth_user_id" not in client.session


def test_login_follows_a_safe_next_but_not_an_external_one(client, bob):
    target = reverse("accounts:password_change")
    credentials = {"username": "bob", "password": PASSWORD}
    response = client.post(reverse("accounts:login"), {**credentials, "next": target})
    assert response.url == target
    client.logout()
    response = client.post(
        reverse("accounts:login"), {**credentials, "next": "https://evil.example/"}
    )
    assert response.url == reverse("home")


def test_logout_by_get_is_refused_and_keeps_the_session(client, bob):
    client.force_login(bob)
    response = client.get(reverse("accounts:logout"))
    assert response.status_code == 405
    assert client.session["_auth_user_id"] == str(bob.pk)


def test_password_change_requires_login(client):
    response = client.get(reverse("accounts:password_change"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:login") + "?next=")


def test_password_change_works_and_keeps_the_user_logged_in(client, bob):
    client.force_login(bob)
    new_password = "a much better passphrase 42"
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
    )
    assert response.status_code == 302
    assert response.url == reverse("accounts:password_change_done")
    assert client.get(response.url).status_code == 200
    assert client.session["_auth_user_id"] == str(bob.pk)
    bob.refresh_from_db()
    assert bob.check_password(new_password)


def test_password_change_with_wrong_old_password_changes_nothing(client, bob):
    client.force_login(bob)
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": "wrong", "new_password1": "x" * 20, "new_password2": "x" * 20},
    )
    assert response.status_code == 200
    assert "old_password" in response.context["form"].errors
    bob.refresh_from_db()
    assert bob.check_password(PASSWORD)


def test_admin_password_change_keeps_the_admin_template(admin_client):
    response = admin_client.get(reverse("admin:password_change"))
    assert response.status_code == 200
    assert "admin/base_site.html" in [template.name for template in response.templates]
