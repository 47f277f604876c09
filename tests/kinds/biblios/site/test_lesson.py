"""Biblios' guided game (games/kinds/biblios/tutorial.py) played through its pages without an
account: every guided step is met and said, the moves it teaches are legal in the engine, a
wrong move changes nothing, and the end explains the engine's own score."""

import dataclasses

import pytest
from django.test import Client

from games.kinds import registry
from games.kinds.biblios import engine as biblios
from games.kinds.biblios import tutorial
from games.learn import lessons as learn
from tests.learn.helpers import play_through, text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def kind():
    return registry.get("biblios")


def test_the_deal_is_fixed_and_the_learner_starts(kind):
    first = learn.play(kind, []).view()
    again = learn.play(kind, []).view()
    assert first == again
    assert first["to_act"] == [tutorial.LEARNER]
    assert first["gift"]["drawing"] == tutorial.OPENING[0]
    assert tutorial.SETUP["deck"][: len(tutorial.OPENING)] == tutorial.OPENING


def test_a_visitor_plays_the_guided_game_to_the_end(kind):
    """Every step's words appear when it is the learner's move, in order, and the game ends
    with the score explained by the engine's own result."""
    client = Client()
    said = []

    def check(html, run):
        step = run.step()
        if step is not None:
            text = text_of(html)
            words = learn.step_words(kind.lesson, step.say, run.view())
            assert words in text
            assert learn.step_words(kind.lesson, step.why, run.view()) in text
            assert f"Step {len(run.done) + 1} of {len(kind.lesson.steps)}" in text
            said.append(kind.lesson.steps.index(step))

    html, moves = play_through(client, kind, on_page=check)
    # Each step once; the first ten (the gift phase) in order, the auction's as they come.
    assert sorted(said) == list(range(len(kind.lesson.steps)))
    assert said[:10] == list(range(10))
    final = learn.play(kind, moves)
    assert final.over
    # The stored moves are the engine's: the learner's moves and the Novice's replay to the end.
    assert client.session["learn-biblios"] == moves
    result = final.view()["result"]
    text = text_of(html)
    assert "The score, explained" in text
    for line in tutorial.ending(final.view()):
        assert line in text
    players = result["players"]
    assert f"You scored {players[0]['vp']} victory points, the Novice {players[1]['vp']}." in text
    assert "Final score" in text  # the board's own score table
    assert 'href="/learn/biblios/scoring/"' in html
    assert 'href="/accounts/signup/"' in html
    # Nothing left to play.
    assert 'action="/learn/biblios/act/"' not in html


def test_the_lesson_is_a_plain_game_of_the_engine(kind):
    """The path the play-through takes, the Novice's answers included, is a game the engine's
    own replay accepts and ends where the lesson ends."""
    _html, moves = play_through(Client(), kind)
    run = learn.play(kind, moves)
    replayed = biblios.replay(tutorial.SETUP, run.history)
    assert biblios.dumps(replayed) == biblios.dumps(run.state)
    assert replayed.phase == "over"
    assert [action for seat, action in run.history if seat == tutorial.LEARNER] == moves


def test_a_legal_move_the_step_does_not_teach_is_nudged_and_changes_nothing(kind):
    client = Client()
    client.get("/learn/biblios/")
    response = client.post(
        "/learn/biblios/act/",
        {"version": 0, "type": "place", "to": "public"},
        HTTP_HX_REQUEST="true",
    )
    text = text_of(response.content.decode())
    assert "Not quite: that move is allowed" in text
    assert "Keep it for yourself" in text
    assert client.session.get("learn-biblios", []) == []
    assert 'data-version="0"' in response.content.decode()


def test_an_illegal_move_gets_the_engines_message_and_changes_nothing(kind):
    client = Client()
    client.get("/learn/biblios/")
    response = client.post(
        "/learn/biblios/act/", {"version": 0, "type": "bid", "amount": 3}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    with pytest.raises(biblios.IllegalAction) as refusal:
        biblios.apply_action(learn.play(kind, []).state, 0, {"type": "bid", "amount": 3})
    assert str(refusal.value) in text_of(html)
    assert client.session.get("learn-biblios", []) == []


def test_a_plain_form_post_redirects_and_the_page_says_why(kind):
    client = Client()
    response = client.post("/learn/biblios/act/", {"version": 0, "type": "place", "to": "auction"})
    assert response.status_code == 302 and response.url == "/learn/biblios/"
    text = text_of(client.get("/learn/biblios/").content.decode())
    assert "Not quite: that move is allowed" in text
    response = client.post("/learn/biblios/act/", {"version": 0, "type": "place", "to": "self"})
    assert response.status_code == 302
    assert client.session["learn-biblios"] == [{"type": "place", "to": "self"}]
    text = text_of(client.get("/learn/biblios/").content.decode())
    assert "Step 2 of" in text and "Put it on the auction pile" in text


def test_restart_starts_from_the_deal(kind):
    client = Client()
    client.post("/learn/biblios/act/", {"version": 0, "type": "place", "to": "self"})
    response = client.post("/learn/biblios/restart/", HTTP_HX_REQUEST="true")
    assert client.session["learn-biblios"] == []
    assert "Step 1 of" in text_of(response.content.decode())


# ----------------------------------------------------------------------------- scoring demo


def demo_result(dice):
    return biblios.result(dataclasses.replace(tutorial.demo_state(), dice=dice))


def test_the_demo_is_a_finished_game_of_the_engine():
    final = tutorial.demo_state()
    assert final.phase == "over" and not biblios.to_act(final)
    assert biblios.replay(biblios.setup_of(final), []) is not None


@pytest.mark.parametrize("dice", [None, [1, 1, 1, 1, 1], [6, 1, 6, 1, 6], [2, 5, 3, 6, 4]])
def test_the_demo_shows_the_engines_score_for_any_dice(dice):
    final = tutorial.demo_state()
    dice = dice or final.dice
    url = "/learn/biblios/scoring/?dice=" + "-".join(map(str, dice))
    html = Client().get(url).content.decode()
    text = text_of(html)
    result = demo_result(dice)
    for seat, name in enumerate(["Player A", "Player B"]):
        player = result["players"][seat]
        assert f"{name}: {player['vp']} VP, {player['gold']} Gold" in text
    for index, category in enumerate(biblios.CATEGORIES):
        assert f'data-category="{category}"' in html
        assert f'data-value="{dice[index]}"' in html
    winner = ["Player A", "Player B"][result["winners"][0]] if not result["shared_win"] else ""
    assert winner in text


def test_a_category_is_explained_from_the_engines_result():
    final = tutorial.demo_state()
    for category in biblios.CATEGORIES:
        html = Client().get(f"/learn/biblios/scoring/?category={category}").content.decode()
        entry = next(e for e in demo_result(final.dice)["categories"] if e["category"] == category)
        text = text_of(html)
        for total in entry["totals"]:
            assert f"total {total}" in text
        if entry["winner"] is not None:
            assert ["Player A", "Player B"][entry["winner"]] + " holds" in text


def test_a_moved_die_changes_the_winner_the_engine_says():
    """A link moves one die by 1, and the VP shown follow the engine."""
    final = tutorial.demo_state()
    html = Client().get("/learn/biblios/scoring/").content.decode()
    raised = [min(6, final.dice[0] + 1), *final.dice[1:]] if final.dice[0] < 6 else None
    if raised:
        link = "?dice=" + "-".join(map(str, raised))
        assert link in html
        page = text_of(Client().get("/learn/biblios/scoring/" + link).content.decode())
        vp = demo_result(raised)["players"][0]["vp"]
        assert f"Player A: {vp} VP" in page


@pytest.mark.parametrize(
    "bad", ["dice=9", "dice=1-2-3", "dice=0-1-2-3-4", "dice=a-b-c-d-e", "category=dragons"]
)
def test_bad_demo_input_gets_a_message_not_an_error(bad):
    response = Client().get(f"/learn/biblios/scoring/?{bad}")
    assert response.status_code == 200
    assert 'class="lesson-message"' in response.content.decode()


@pytest.mark.parametrize(
    "language, say, why",
    [
        (
            "fr",
            "Vous avez pioché Moines 4 (H). Gardez-la pour vous",
            "Pendant la phase de Dons, vous piochez trois cartes",
        ),
        (
            "es",
            "Has robado Monjes 4 (H). Quédatela",
            "En la fase de regalos robas tres cartas",
        ),
    ],
)
def test_the_steps_read_in_french_and_spanish(language, say, why):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    text = text_of(client.get("/learn/biblios/").content.decode())
    assert say in text and why in text
    client.post("/learn/biblios/act/", {"version": 0, "type": "place", "to": "public"})
    nudge = text_of(client.get("/learn/biblios/").content.decode())
    assert {"fr": "Pas tout à fait", "es": "No exactamente"}[language] in nudge
    scoring = text_of(client.get("/learn/biblios/scoring/?category=monks").content.decode())
    assert {"fr": "Joueur B", "es": "Jugador B"}[language] in scoring
