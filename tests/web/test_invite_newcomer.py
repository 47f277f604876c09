"""A logged-out newcomer follows an invite link: the page says whose table and which game, and
both roads from it (sign up, log in, and from each page to the other) keep `next`, so the new
account ends at the table, seated if a seat is free. `next` is only ever a path of this site."""

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.utils import translation

from accounts.models import User
from games.models import Game
from games.tables import services
from tests.play import started_game

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-9"


def signup_data(name: str, **extra) -> dict:
    return {
        "username": name,
        "display_name": name.title(),
        "password1": PASSWORD,
        "password2": PASSWORD,
        **extra,
    }


def main_part(html: str) -> str:
    """The page without its navigation, whose own links and forms lead from anywhere."""
    return html[html.index('<main id="main"') :]


def link(html: str, path: str) -> str:
    """The href of the first link to `path` (with its query string) in the page's main part,
    unescaped."""
    found = re.search(rf'href="({re.escape(path)}[^"]*)"', main_part(html))
    assert found, f"no link to {path}"
    return unescape(found.group(1))


def next_of(url: str) -> str:
    return parse_qs(urlsplit(url).query).get("next", [""])[0]


@pytest.fixture
def private_table(users):
    return services.create_table(users[0], services.TableSettings(2, private=True))


def test_the_invite_page_says_whose_table_and_keeps_next_on_both_roads(private_table):
    invite = f"/join/{private_table.invite_code}/"
    response = Client().get(invite)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Sign up to join Brother 0's table" in html
    assert "<strong>Biblios</strong>" in html and "1 of 2 seats taken." in html
    assert next_of(link(html, "/accounts/signup/")) == invite
    assert next_of(link(html, "/accounts/login/")) == invite
    assert private_table.seats.count() == 1  # a look changes nothing


def test_the_invite_page_names_the_variant_and_speaks_the_visitors_language(users):
    game = services.create_table(users[0], services.TableSettings(3, variant="scripts_and_scribes"))
    html = Client(headers={"Accept-Language": "fr"}).get(f"/join/{game.invite_code}/")
    text = html.content.decode()
    assert "Inscrivez-vous pour rejoindre la table de Brother 0" in text
    assert "Biblios · Scripts &amp; Scribes" in text and "Places prises : 1 sur 3." in text
    spanish = Client(headers={"Accept-Language": "es"}).get(f"/join/{game.invite_code}/")
    assert "Regístrate para unirte a la mesa de Brother 0" in spanish.content.decode()


def test_signing_up_from_an_invite_seats_the_newcomer_at_the_private_table(private_table):
    browser = Client()
    invite = f"/join/{private_table.invite_code}/"
    signup_url = link(browser.get(invite).content.decode(), "/accounts/signup/")
    page = browser.get(signup_url).content.decode()
    assert f'<input type="hidden" name="next" value="{invite}">' in page
    # The way back to logging in keeps it too.
    assert next_of(link(page, "/accounts/login/")) == invite
    response = browser.post("/accounts/signup/", signup_data("newcomer", next=invite))
    assert response["Location"] == invite
    response = browser.get(invite)
    assert response["Location"] == f"/games/{private_table.pk}/"
    newcomer = User.objects.get(username="newcomer")
    assert private_table.seats.filter(user=newcomer).exists()
    assert browser.get(response["Location"]).status_code == 200


def test_logging_in_from_an_invite_seats_the_player_and_the_login_page_keeps_next(
    private_table, users
):
    users[1].set_password(PASSWORD)
    users[1].save()
    browser = Client()
    invite = f"/join/{private_table.invite_code}/"
    login_url = link(browser.get(invite).content.decode(), "/accounts/login/")
    page = browser.get(login_url).content.decode()
    assert next_of(link(page, "/accounts/signup/")) == invite
    credentials = {"username": users[1].username, "password": PASSWORD, "next": invite}
    response = browser.post("/accounts/login/", credentials, follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{private_table.pk}/"
    assert private_table.seats.filter(user=users[1]).exists()


def test_a_newcomer_to_a_full_table_lands_at_it_with_a_clear_message(private_table, users):
    services.join_table(private_table.pk, users[1], invited=True)
    browser = Client()
    invite = f"/join/{private_table.invite_code}/"
    page = browser.get(invite).content.decode()
    assert "No seat is free at this table any more." in page
    assert "Sign up to join" not in page
    response = browser.post("/accounts/signup/", signup_data("latecomer", next=invite), follow=True)
    assert response.redirect_chain[-1][0] == f"/games/{private_table.pk}/"
    assert "You could not take a seat: this table is full." in response.content.decode()
    assert private_table.seats.count() == 2


@pytest.mark.parametrize(
    "unsafe",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "http://testserver/join/x/",  # an absolute URL, even to this site, is no path
        "join/x/",
        "/games/\n1/",
    ],
)
def test_an_unsafe_next_is_dropped_everywhere(unsafe, users):
    users[1].set_password(PASSWORD)
    users[1].save()
    credentials = {"username": users[1].username, "password": PASSWORD, "next": unsafe}
    response = Client().post("/accounts/login/", credentials)
    assert response["Location"] == "/"
    browser = Client()
    page = browser.get("/accounts/signup/", {"next": unsafe}).content.decode()
    assert 'name="next"' not in main_part(page)
    assert next_of(link(page, "/accounts/login/")) == ""
    login_page = browser.get("/accounts/login/", {"next": unsafe}).content.decode()
    assert next_of(link(login_page, "/accounts/signup/")) == ""
    response = browser.post("/accounts/signup/", signup_data("wanderer", next=unsafe))
    assert response["Location"] == "/"
    assert User.objects.filter(username="wanderer").exists()


def test_a_logged_in_visitor_of_the_sign_up_page_goes_to_next(users, clients, private_table):
    invite = f"/join/{private_table.invite_code}/"
    response = clients[users[1].pk].get("/accounts/signup/", {"next": invite})
    assert response["Location"] == invite
    assert clients[users[1].pk].get("/accounts/signup/")["Location"] == "/"


def test_the_invite_page_of_a_started_game_offers_no_seat(users):
    game = started_game(users, 2, private=True)
    with translation.override("en"):
        page = Client().get(f"/join/{game.invite_code}/").content.decode()
    assert "No seat is free at this table any more." in page
    assert Game.objects.get(pk=game.pk).seats.count() == 2


def test_the_waiting_rooms_sign_up_link_comes_back_to_the_table(users):
    game = services.create_table(users[0], services.TableSettings(2))
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert next_of(link(page, "/accounts/signup/")) == f"/games/{game.pk}/"
