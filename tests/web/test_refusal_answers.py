"""How a refusal reads wherever a page says it (`errors.sentence`, `games.web.refused`): the
services and the access rule word their refusals as clauses; every page, message, fragment and
plain 429 makes the same sentence of one."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.test import RequestFactory
from django.urls import reverse

from biblios_site import errors, ratelimit
from games import web
from tests.play import started_game


def test_a_refusal_reads_as_a_sentence():
    assert errors.sentence(errors.Conflict("this table is full")) == "This table is full."
    assert errors.sentence("this table is private: use its invite link") == (
        "This table is private: use its invite link."
    )
    assert errors.sentence(ratelimit.RateLimited(7)) == "Too many requests; try again in 7 s."


@pytest.mark.django_db
def test_the_refusal_page_says_the_sentence_with_the_status():
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    page = web.refused(request, errors.NotFound("there is no game 9"))
    assert page.status_code == 404
    assert "There is no game 9." in page.content.decode()
    page = web.refused(request, "this table does not allow spectators", 403)
    assert page.status_code == 403
    assert "This table does not allow spectators." in page.content.decode()


@pytest.mark.django_db
def test_a_table_action_refused_flashes_the_sentence(users, clients):
    """A waiting-room POST the service refuses (here: joining a started game) lands back on the
    table with the refusal as its message."""
    game = started_game(users[:2], 2)
    answer = clients[users[3].pk].post(reverse("game_join", args=[game.pk]))
    assert answer.status_code == 302
    said = [str(message) for message in get_messages(answer.wsgi_request)]
    assert said == ["This game has already started."]


@pytest.mark.django_db
def test_a_missing_table_is_the_refusal_page(users, clients):
    answer = clients[users[0].pk].post(reverse("game_start", args=[987654]))
    assert answer.status_code == 404
    assert "There is no game 987654." in answer.content.decode()
