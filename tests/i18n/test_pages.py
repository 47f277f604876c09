"""The site in French and Spanish: pages, official card names, the remembered language, and
game log lines in each reader's own language, on pages and on live pushes."""

import random
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.middleware import scope_language
from accounts.models import User
from games.access import Visitor
from games.kinds.biblios import engine as biblios
from games.kinds.biblios import names
from games.kinds.biblios.engine.cards import CATEGORIES
from games.play import selectors
from games.play import services as play_services
from games.tables import services as tables_services
from tests import play
from tests.live.helpers import Sockets, run, session_cookie

# The printed category names of each language (biblios-deck.json), in Scriptorium order.
OFFICIAL = {
    ("biblios", "fr"): ["Moines", "Pigments", "Livres Sacrés", "Manuscrits", "Grimoires Interdits"],
    ("biblios", "es"): [
        "Monjes",
        "Pigmentos",
        "Libros Sagrados",
        "Manuscritos",
        "Tomos Prohibidos",
    ],
    ("scripts_and_scribes", "fr"): [
        "Enlumineurs",
        "Fournitures",
        "Scribes",
        "Manuscrits",
        "Parchemins",
    ],
    ("scripts_and_scribes", "en"): [
        "Illuminators",
        "Supplies",
        "Scribes",
        "Manuscripts",
        "Scrolls",
    ],
}


@pytest.fixture
def players(django_user_model):
    return [
        django_user_model.objects.create_user(name.lower(), password="x", display_name=name)
        for name in ("Ada", "Basil", "Clio")
    ]


def browser(language: str, user=None) -> Client:
    """A client whose browser asks for `language` first (Accept-Language)."""
    client = Client(headers={"accept-language": f"{language},en;q=0.5"})
    if user is not None:
        client.force_login(user)
    return client


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, words",
    [
        ("fr", ["Tables ouvertes", "Créer une table", "Parties en cours", "Bluff médiéval",
                "Jouez aux jeux de cartes Biblios et Ex Libris"]),
        ("es", ["Mesas abiertas", "Crear una mesa", "Partidas en curso", "Bluff medieval",
                "Juega a los juegos de cartas Biblios y Ex Libris"]),
    ],
)  # fmt: skip
def test_the_lobby_follows_the_browser_language(players, language, words):
    html = page(browser(language, players[0]), reverse("home"))
    assert f'<html lang="{language}" ' in html
    for word in words:
        assert word in html
    assert "Open tables" not in html


@pytest.mark.django_db
def test_without_a_known_browser_language_the_site_is_in_english(players):
    html = page(browser("de", players[0]), reverse("home"))
    assert '<html lang="en" ' in html and "Open tables" in html


def game_with_a_category_card_in_hand(players):
    """A 3-player game played on (random legal moves) until the host holds a category card."""
    game = play.started_game(players, 3, seed=7)
    rng = random.Random(7)
    by_seat = play.seated_users(game)
    while not any(card.split("-")[0] in CATEGORIES for card in game.engine_state().hands[0]):
        seat = biblios.to_act(game.engine_state())[0]
        board = selectors.board_for(game, Visitor.of(game, by_seat[seat]))
        action = rng.choice(board["legal_actions"])
        play_services.submit_action(game.pk, by_seat[seat], action, version=board["version"])
        game.refresh_from_db()
    return game


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, waiting, board_words",
    [
        ("fr", ["Fermer la table", "Places"], ["Journal de la partie", "Votre main", "Or"]),
        ("es", ["Cerrar la mesa", "Asientos"], ["Registro de la partida", "Tu mano", "Oro"]),
    ],
)
def test_table_and_board_pages_in_french_and_spanish(players, language, waiting, board_words):
    host = players[0]
    client = browser(language, host)
    open_table = tables_services.create_table(host, tables_services.TableSettings(3))
    html = page(client, reverse("game", args=[open_table.pk]))
    for word in waiting:
        assert word in html

    game = game_with_a_category_card_in_hand(players)
    html = page(client, reverse("game", args=[game.pk]))
    for word in board_words + OFFICIAL[("biblios", language)]:
        assert word in html, word
    # The hand shows the host's cards as cards with their printed names ("Moines", 2, A).
    hand = game.engine_state().hands[0]
    with_category = [card for card in hand if card.split("-")[0] in CATEGORIES]
    for card in with_category:
        category, letter = card.rsplit("-", 1)
        printed = OFFICIAL[("biblios", language)][CATEGORIES.index(category)]
        tile = (
            rf'card-tile" data-card="{card}"><span class="card-name">{printed}</span> '
            rf'<span class="card-value">\d</span> <span class="card-letter">{letter}</span>'
        )
        assert re.search(tile, html), card


@pytest.mark.django_db
def test_scripts_and_scribes_shows_its_own_names(players):
    """The edition's names: French from the deck table; Spanish from our fallback."""
    game = play.started_game(players, 2, seed=3, variant="scripts_and_scribes")
    french = page(browser("fr", players[0]), reverse("game", args=[game.pk]))
    for word in OFFICIAL[("scripts_and_scribes", "fr")] + ["Plateau de valeur"]:
        assert word in french, word
    spanish = page(browser("es", players[0]), reverse("game", args=[game.pk]))
    for word in names.SCRIPTS_AND_SCRIBES_SPANISH.values():
        assert word in spanish, word
    english = page(browser("en", players[0]), reverse("game", args=[game.pk]))
    for word in OFFICIAL[("scripts_and_scribes", "en")] + ["Value Board"]:
        assert word in english, word


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, words",
    [
        ("fr", ["Parties jouées", "Jetons d’API", "Changer de mot de passe"]),
        ("es", ["Partidas jugadas", "Tokens de la API", "Cambiar la contraseña"]),
    ],
)
def test_the_profile_in_french_and_spanish(players, language, words):
    html = page(browser(language, players[0]), reverse("accounts:profile", args=["ada"]))
    for word in words:
        assert word in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    "language, words",
    [("fr", ["Phase d’Enchères", "Grimoires Interdits"]), ("es", ["Fase de subasta", "Monjes"])],
)
def test_the_rules_page_in_french_and_spanish(players, language, words):
    html = page(browser(language), reverse("rules", args=["biblios"]))
    for word in words:
        assert word in html


# An SVG attribute holding numbers, and its value (points holds "x,y" pairs: read apart).
SVG_NUMBERS = re.compile(r'\s(x|y|x1|x2|y1|y2|cx|cy|width|height|viewBox|points)="([^"]*)"')


def svg_of(html: str, start: str) -> str:
    chart = html[html.index(start) :]
    return chart[: chart.index("</svg>")]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_charts_keep_svgs_own_numbers_in_french_and_spanish(players, language):
    """French and Spanish write 136.5 as "136,5", which SVG cannot read (the bars and the
    rating line vanished): the end-of-game chart and the profile's rating chart never
    localize their coordinates."""
    game = play.play_to_end(play.started_game(players, 2, seed=5), random.Random(5))
    client = browser(language, players[0])
    board = page(client, reverse("game", args=[game.pk]))
    profile = page(client, reverse("accounts:profile", args=["ada"]))
    charts = [
        svg_of(board, '<figure class="score-chart">'),
        svg_of(profile, '<svg class="rating-chart"'),
    ]
    for chart in charts:
        numbers = SVG_NUMBERS.findall(chart)
        assert any("." in value for _name, value in numbers), "no fractional coordinate drawn"
        for name, value in numbers:
            if name == "points":
                assert all(pair.count(",") == 1 for pair in value.split()), value
            else:
                assert "," not in value, f'{name}="{value}"'


@pytest.mark.django_db
def test_the_chosen_language_is_remembered_on_the_profile_and_applied_next_time(players):
    ada = players[0]
    client = browser("fr", ada)
    response = client.post(
        reverse("accounts:set_language"), {"language": "es", "next": reverse("home")}
    )
    assert response.status_code == 302 and response.url == reverse("home")
    ada.refresh_from_db()
    assert ada.language == "es"
    assert "Mesas abiertas" in page(client, reverse("home"))

    # Another device: no language cookie, a French browser; the profile still says Spanish.
    elsewhere = browser("fr", ada)
    html = page(elsewhere, reverse("home"))
    assert '<html lang="es" ' in html and "Mesas abiertas" in html


@pytest.mark.django_db
def test_an_unknown_language_changes_nothing(players):
    ada = players[0]
    client = browser("fr", ada)
    client.post(reverse("accounts:set_language"), {"language": "xx", "next": "/"})
    ada.refresh_from_db()
    assert ada.language == ""
    assert "Tables ouvertes" in page(client, reverse("home"))


@pytest.mark.django_db
def test_anonymous_visitors_switch_with_the_cookie(players):
    client = browser("fr")
    client.post(reverse("accounts:set_language"), {"language": "es", "next": "/"})
    assert "Mesas abiertas" in page(client, reverse("home"))
    assert User.objects.exclude(language="").count() == 0


@pytest.mark.django_db
def test_the_switcher_works_without_javascript(players):
    """A plain form in the nav posting to the language view, every language offered."""
    html = page(browser("en"), reverse("home"))
    assert f'action="{reverse("accounts:set_language")}"' in html
    for code, native in [("en", "English"), ("fr", "Français"), ("es", "Español")]:
        assert f'value="{code}"' in html and native in html


@pytest.mark.django_db
def test_game_log_lines_are_in_each_readers_language(players):
    ada, basil = players[0], players[1]
    User.objects.filter(pk=ada.pk).update(language="fr")
    User.objects.filter(pk=basil.pk).update(language="es")
    game = play.started_game(players, 2, seed=5)
    french = page(browser("en", ada), reverse("game_log", args=[game.pk]))
    spanish = page(browser("en", basil), reverse("game_log", args=[game.pk]))
    assert "La partie a commencé avec 2 joueurs" in french
    assert "La partida empezó con 2 jugadores" in spanish
    # "You" for the reader who starts, the name for the other, in each language.
    starter = game.engine_state().active
    if starter == 0:
        assert "vous commencez" in french and "empieza Ada" in spanish
    else:
        assert "Basil commence" in french and "empiezas tú" in spanish


@pytest.mark.django_db(transaction=True)
def test_live_pushes_are_rendered_in_each_sockets_language(players):
    """The socket renders per reader: the profile's language, else the browser's."""
    ada, basil = players[0], players[1]
    User.objects.filter(pk=ada.pk).update(language="fr")
    game = play.started_game(players, 2, seed=5)
    path = f"/ws/games/{game.pk}/"
    cookies = {"ada": session_cookie(ada), "basil": session_cookie(basil)}
    sockets = Sockets()
    frames = {}

    async def scenario():
        _, frames["ada"] = await sockets.connect(path, cookie=cookies["ada"])
        _, frames["basil"] = await sockets.connect(
            path, cookie=cookies["basil"], headers=[(b"accept-language", b"es")]
        )
        await sockets.close_all()

    run(scenario)
    assert "La partie a commencé avec 2 joueurs" in frames["ada"]
    assert "Moines" in frames["ada"]
    assert "La partida empezó con 2 jugadores" in frames["basil"]
    assert "Monjes" in frames["basil"]


@pytest.mark.django_db
def test_a_sockets_language_is_the_profiles_then_the_cookies_then_the_browsers(players):
    """The same order as a page request: profile, Django's language cookie, Accept-Language."""
    ada = players[0]
    headers = [(b"accept-language", b"es-ES,es;q=0.9")]
    cookie = {settings.LANGUAGE_COOKIE_NAME: "fr"}
    assert scope_language({"headers": headers, "cookies": {}}) == "es"
    assert scope_language({"headers": headers, "cookies": cookie}) == "fr"
    assert scope_language({"headers": headers, "cookies": cookie, "user": ada}) == "fr"
    ada.language = "es"
    assert scope_language({"headers": headers, "cookies": cookie, "user": ada}) == "es"
    assert scope_language({"headers": [], "cookies": {}}) == "en"
