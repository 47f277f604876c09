"""A person who just lost a game asks for its review, watches it wait and run, reads in their
language where they lost points, sees the bots play the game on from the best move at their
costliest decision ("what if"), and replays their worst decisions with "learn from your
mistakes" until they find better moves: in Biblios (in French) and in Ex Libris (in Spanish)."""

import json
import re

import pytest

from tests.browser.conftest import manage
from tests.browser.players import PASSWORD, Player, unique_tag, watched

pytestmark = pytest.mark.slow(seconds=40)

# Run by the site's `manage.py shell`: two players and a finished game of `kind` between them,
# played at random through the services; prints the game and the loser's username.
SEED = """
import json, random
from accounts.models import User
from games.models import Seat
from tests.kinds.exlibris.site.helpers import open_table
from tests.kinds.exlibris.site.test_history import play
from tests.play import play_to_end, started_game
people = [
    User.objects.create_user(name + "{tag}", password="{password}",
                             display_name=name.title() + " {tag}")
    for name in ("lena", "omar")
]
if "{kind}" == "biblios":
    game = play_to_end(started_game(people, 2, seed=23), random.Random(23))
else:
    game = play(open_table(people, 2, seed=23), random.Random(23))
loser = Seat.objects.filter(game=game).order_by("-place", "position").first().user
print(json.dumps(dict(game=game.pk, loser=loser.username)))
"""

WORDS = {  # what the person reads and clicks, in their language
    "fr": {
        "locale": "fr-FR",
        "review": "Analyser la partie",
        "ask": "Demander l’analyse",
        "lost": "Où vous avez perdu des points",
        "what_if": "Et si ? Voir les bots jouer la suite",
        "ended": "Comment elle s’est terminée dans le monde 1",
        "learn": "Apprendre de vos erreurs",
        "found": "Bien vu",
        "next": "Erreur suivante",
    },
    "es": {
        "locale": "es-ES",
        "review": "Analizar la partida",
        "ask": "Pedir el análisis",
        "lost": "Dónde perdiste puntos",
        "what_if": "¿Y si…? Ver a los bots continuar la partida",
        "ended": "Cómo terminó en el mundo 1",
        "learn": "Aprende de tus errores",
        "found": "Bien visto",
        "next": "Siguiente error",
    },
}


@pytest.mark.parametrize("kind, language", [("biblios", "fr"), ("exlibris", "es")])
def test_a_player_reviews_the_game_they_lost_and_learns_from_their_worst_decisions(
    live_site, live_site_env, browser, screenshot, kind, language
):
    words = WORDS[language]
    seed = SEED.format(tag=unique_tag(), password=PASSWORD, kind=kind)
    made = json.loads(manage(live_site_env, "shell", "--no-imports", "-c", seed))
    person = Player(browser, live_site, made["loser"], locale=words["locale"])
    errors = watched(person)
    person.log_in()
    page = person.page
    page.goto(f"{live_site}/games/{made['game']}/")
    page.click(f"text={words['review']}")
    page.click(f"button:has-text('{words['ask']}')")
    page.wait_for_selector(f"text={words['lost']}", timeout=90_000)  # the page asked again
    screenshot(page, f"review-{kind}-{language}")

    page.locator(f"text={words['what_if']}").first.click()  # at their costliest decision
    page.wait_for_selector(f"h2:has-text('{words['ended']}')")
    assert page.locator("ol.what-if-moves li").count() >= 1
    screenshot(page, f"review-what-if-{kind}-{language}")
    page.go_back()

    page.click(f"text={words['learn']}")
    solved, total = counts(page)
    assert solved == 0 and total >= 1
    for number in range(1, min(3, total) + 1):  # their three worst moments, or all they made
        for choice in range(page.locator("button[name=choice]").count()):
            with page.expect_response(lambda answer: answer.request.method == "POST") as posted:
                page.locator("button[name=choice]").nth(choice).click()
            if words["found"] in posted.value.text():  # the verdict, before htmx swaps it in
                break
        page.wait_for_selector(f"#learn >> text={words['found']}")
        assert counts(page) == (number, total)
        if number < min(3, total):
            page.click(f"text={words['next']}")
    screenshot(page, f"review-learn-{kind}-{language}")
    assert errors == []
    person.close()


def counts(page) -> tuple[int, int]:
    """(solved, total) from the page's "1 of 7 solved." in any language."""
    solved, total = re.findall(r"\d+", page.inner_text("#learn p[role=status]"))
    return int(solved), int(total)
