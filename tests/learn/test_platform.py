"""The learn-to-play pages of every kind that brings a lesson (games/learn/):
open without an account, in each language, the lesson kept in the session and replayed through
the engine, and a session holding anything but a lesson's own moves refused whole."""

import json

import pytest
from django.test import Client

from games.kinds import registry
from games.learn import lessons as learn
from games.models import Game
from tests.reliability.conftest import forget_hits

from .helpers import text_of

pytestmark = pytest.mark.django_db

KINDS = [kind.slug for kind in learn.lesson_kinds()]


def test_biblios_brings_a_lesson():
    assert "biblios" in KINDS


def store(client: Client, slug: str, moves) -> None:
    session = client.session
    session[f"learn-{slug}"] = moves
    session.save()


def version(slug: str, moves=()) -> int:
    """The board version the learner's next decision is drawn at (bots may move first)."""
    return learn.play(registry.get(slug), list(moves)).view()["version"]


def first_legal(slug: str, moves=()) -> dict:
    kind = registry.get(slug)
    run = learn.play(kind, list(moves))
    step = run.step()
    return next(a for a in run.view()["legal_actions"] if step is None or learn.teaches(step, a))


def test_the_index_lists_each_lesson_and_the_nav_links_it():
    html = Client().get("/learn/").content.decode()
    for slug in KINDS:
        assert f'href="/learn/{slug}/"' in html
        assert f'href="/learn/{slug}/scoring/"' in html
    assert 'href="/learn/"' in Client().get("/").content.decode()


@pytest.mark.parametrize("slug", KINDS)
def test_each_rules_page_links_its_lesson(slug):
    html = Client().get(f"/rules/{slug}/").content.decode()
    assert f'href="/learn/{slug}/"' in html


@pytest.mark.parametrize("slug", KINDS)
@pytest.mark.parametrize(
    "language, words",
    [
        ("en", ["Learn to play", "Step 1 of", "Start the lesson again"]),
        ("fr", ["Apprendre à jouer", "Étape 1 sur", "Recommencer la leçon"]),
        ("es", ["Aprender a jugar", "Paso 1 de", "Empezar la lección de nuevo"]),
    ],
)
def test_a_visitor_reads_the_lesson_in_their_language(slug, language, words):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    response = client.get(f"/learn/{slug}/")
    assert response.status_code == 200
    text = text_of(response.content.decode())
    for phrase in words:
        assert phrase in text
    scoring = client.get(f"/learn/{slug}/scoring/")
    assert scoring.status_code == 200
    index = text_of(client.get("/learn/").content.decode())
    assert words[0] in index


def test_unknown_kinds_and_wrong_methods_are_refused():
    assert Client().get("/learn/dragons/").status_code == 404
    assert Client().get("/learn/dragons/scoring/").status_code == 404
    assert Client().post("/learn/dragons/act/").status_code == 404
    for slug in KINDS:
        assert Client().get(f"/learn/{slug}/act/").status_code == 405
        assert Client().get(f"/learn/{slug}/restart/").status_code == 405
        assert Client().post(f"/learn/{slug}/").status_code == 405


@pytest.mark.parametrize("slug", KINDS)
def test_a_move_from_an_old_board_is_refused(slug):
    client = Client()
    action = first_legal(slug)
    client.post(f"/learn/{slug}/act/", {"version": version(slug), **_form(slug, action)})
    moves = client.session[f"learn-{slug}"]
    assert moves == [action]
    response = client.post(
        f"/learn/{slug}/act/",
        {"version": version(slug), **_form(slug, action)},
        HTTP_HX_REQUEST="true",
    )
    assert "The board changed before your move arrived" in text_of(response.content.decode())
    assert client.session[f"learn-{slug}"] == moves


@pytest.mark.parametrize("slug", KINDS)
@pytest.mark.parametrize(
    "posted", [{}, {"version": "x"}, {"version": "0"}, {"version": "0", "type": "fly"}]
)
def test_an_unreadable_move_gets_a_message_and_changes_nothing(slug, posted):
    client = Client()
    response = client.post(f"/learn/{slug}/act/", posted, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'class="lesson-message"' in response.content.decode()
    assert client.session.get(f"learn-{slug}", []) == []


@pytest.mark.parametrize("slug", KINDS)
@pytest.mark.parametrize(
    "forged",
    [
        "not a list",
        {"type": "place"},
        [1, 2, 3],
        [{"no": "type"}],
        [{"type": "teleport"}],
        [{"type": "place", "to": "moon"}],
        [{"type": "pass"}] * (learn.MAX_MOVES + 1),
    ],
)
def test_a_forged_session_is_refused_whole_and_the_lesson_starts_again(slug, forged):
    client = Client()
    store(client, slug, forged)
    text = text_of(client.get(f"/learn/{slug}/").content.decode())
    assert "Your saved lesson could not be replayed, so it starts again." in text
    assert "Step 1 of" in text
    assert client.session[f"learn-{slug}"] == []
    # A move posted on top of a forged list is not played on it either.
    store(client, slug, forged)
    response = client.post(
        f"/learn/{slug}/act/",
        {"version": 0, **_form(slug, first_legal(slug))},
        HTTP_HX_REQUEST="true",
    )
    assert "could not be replayed" in text_of(response.content.decode())
    assert client.session[f"learn-{slug}"] == []


@pytest.mark.parametrize("slug", KINDS)
def test_a_session_skipping_a_guided_step_is_refused(slug):
    """Legal moves that the lesson would have nudged back are not a lesson's moves either."""
    kind = registry.get(slug)
    run = learn.play(kind, [])
    step = run.step()
    untaught = [a for a in run.view()["legal_actions"] if not learn.teaches(step, a)]
    assert untaught, "the first step steers: some legal move is not the one it teaches"
    client = Client()
    store(client, slug, [untaught[0]])
    text = text_of(client.get(f"/learn/{slug}/").content.decode())
    assert "could not be replayed" in text
    with pytest.raises(learn.LessonRefused) as refused:
        learn.play(kind, [untaught[0]])
    assert refused.value.nudge and refused.value.index == 0


@pytest.mark.parametrize("slug", KINDS)
def test_the_lesson_needs_no_account_and_keeps_no_game(slug):
    client = Client()
    action = first_legal(slug)
    client.post(f"/learn/{slug}/act/", {"version": version(slug), **_form(slug, action)})
    assert client.session[f"learn-{slug}"] == [action]
    assert not Game.objects.exists()


def _form(slug: str, action: dict) -> dict:
    """A move as its board form posts it (each kind reads its own form: `parse_action`)."""
    if slug == "biblios":
        return dict(action)
    return {"action": json.dumps(action)}


@pytest.mark.parametrize("slug", KINDS)
def test_a_visitor_moves_at_a_players_pace(settings, slug):
    """Each move replays the lesson, so a visitor's moves are limited like a player's, counted
    by address; the refused move changes nothing."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "action": "1/600"}
    forget_hits("action", "learn:10.9.8.7")
    client = Client(REMOTE_ADDR="10.9.8.7")
    action = first_legal(slug)
    first = client.post(f"/learn/{slug}/act/", {"version": version(slug), **_form(slug, action)})
    assert first.status_code == 302
    second = {"version": version(slug, [action]), **_form(slug, first_legal(slug, [action]))}
    refused = client.post(f"/learn/{slug}/act/", second)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert client.session[f"learn-{slug}"] == [action]
    forget_hits("action", "learn:10.9.8.7")


@pytest.mark.parametrize("slug", KINDS)
def test_a_member_plays_under_their_own_name(django_user_model, slug):
    user = django_user_model.objects.create_user("brother_cadfael", password="x")
    client = Client()
    client.force_login(user)
    text = text_of(client.get(f"/learn/{slug}/").content.decode())
    assert "brother_cadfael" in text and "Apprentice" not in text
    assert "Apprentice" in text_of(Client().get(f"/learn/{slug}/").content.decode())
