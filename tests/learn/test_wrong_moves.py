"""A wrong move in a lesson is answered with what was wrong, not with the step's instruction a
second time (the page shows the instruction just below the answer): over every guided step of
every kind's lesson, in each language, a legal move the step does not teach."""

import json

import pytest
from django.test import Client
from django.utils import translation

from games.kinds import registry
from games.learn import lessons as learn
from tests.kinds.exlibris.site import test_lesson as exlibris_lesson
from tests.web.helpers import action_forms

from . import helpers
from .helpers import query, text_of

pytestmark = pytest.mark.django_db


def offered_moves(kind: registry.GameKind, html: str) -> list[tuple[dict, dict]]:
    """(action, posted data) of every move the lesson's page offers: Ex Libris' forms hold
    many buttons, each a move; `action_forms` gives Biblios' a move each."""
    if kind.slug == "exlibris":
        return [
            (action, form.data(action=json.dumps(action)))
            for form, action in exlibris_lesson.buttons(html)
        ]
    forms = [form for form in action_forms(html) if form.action.startswith("/learn/")]
    return [(kind.parse_action(query(form.data())), form.data()) for form in forms]


PLAY_THROUGH = {"biblios": helpers.play_through, "exlibris": exlibris_lesson.play_through}


@pytest.mark.parametrize("language", ["en", "fr", "es"])
@pytest.mark.parametrize("slug", ["biblios", "exlibris"])
def test_a_wrong_move_never_repeats_the_steps_instruction(slug, language):
    kind = registry.get(slug)
    client = Client(headers={"accept-language": language})
    answered = []

    def try_a_wrong_move(html: str, run: learn.Run) -> None:
        step = run.step()
        if step is None:
            return
        wrong = [
            data for action, data in offered_moves(kind, html) if not learn.teaches(step, action)
        ]
        if not wrong:
            return  # every move on the board is one the step teaches
        response = client.post(f"/learn/{slug}/act/", wrong[0], HTTP_HX_REQUEST="true")
        text = text_of(response.content.decode())
        with translation.override(language):
            say = text_of(learn.step_words(kind.lesson, step.say, run.view()))
            nudge = learn.nudge_text()
        assert nudge in text, text[:300]
        assert text.count(say) == 1, (say, text[:600])
        answered.append(step)

    PLAY_THROUGH[slug](client, kind, on_page=try_a_wrong_move)
    # The steps that offer another legal move (Ex Libris' shelving steps offer only shelving).
    assert answered, "no guided step offered a move it does not teach"
