"""Whole games played in the browser's way: only through the forms each page renders.

One run sends htmx requests (the board partial comes back), the other plain POSTs (a redirect
to the page); both end on the score breakdown, and every page met on the way is checked for
cards its seat may not know.
"""

import random

import pytest

from games.kinds.biblios import engine as biblios
from games.models import Game
from tests.play import started_game
from tests.web.helpers import Knowledge, action_forms, assert_no_leak, state_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def choose(forms, rng):
    """A plausible player: mostly pays, often passes, sometimes refuses.

    Returns the form to submit and the fields to change in it.
    """
    by_kind = {}
    for form in forms:
        by_kind.setdefault(form.kind, []).append(form)
    if "bid" in by_kind or "pass" in by_kind:
        if "bid" in by_kind and (rng.random() < 0.45 or "pass" not in by_kind):
            form = by_kind["bid"][0]
            (_name, _value, low, high) = form.numbers[0]
            return form, {"amount": rng.randint(low, min(high, low + 2))}
        return by_kind["pass"][0], {}
    for paying in ("pay", "give"):
        if paying in by_kind:
            if "refuse" in by_kind and rng.random() < 0.1:
                return by_kind["refuse"][0], {}
            return rng.choice(by_kind[paying]), {}
    if "refuse" in by_kind:  # a winner who cannot pay has nothing else
        return by_kind["refuse"][0], {}
    return rng.choice(forms), {}


def play_through_pages(game, clients, *, htmx: bool, rng: random.Random):
    """Play `game` to its end through the pages; returns every final page by viewer."""
    by_seat = {seat.position: clients[seat.user_id] for seat in game.seats.all()}
    page_url = f"/games/{game.pk}/"
    state = state_of(game)
    knowledge = Knowledge(game.num_players)
    knowledge.update(state)
    seen = None  # (seat, html): the board the last actor got back, still current
    while state.phase != "over":
        seat = biblios.to_act(state)[0]
        browser = by_seat[seat]
        if seen and seen[0] == seat:
            html = seen[1]
        else:
            response = browser.get(page_url)
            assert response.status_code == 200
            html = response.content.decode()
        assert_no_leak(html, knowledge, seat, f"seat {seat}'s board at v{state.version}")
        forms = action_forms(html)
        assert forms, f"seat {seat} must act but its page offers no move"
        form, overrides = choose(forms, rng)
        if htmx:
            response = browser.post(form.action, form.data(**overrides), **HTMX)
        else:
            response = browser.post(form.action, form.data(**overrides), follow=True)
        assert response.status_code == 200, response.content.decode()[:500]
        html = response.content.decode()
        assert 'role="alert"' not in html, html
        before, state = state.version, state_of(game)
        assert state.version == before + 1
        knowledge.update(state)
        assert_no_leak(html, knowledge, seat, f"seat {seat}'s answer at v{state.version}")
        seen = (seat, html)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    final = {}
    for seat, browser in [*by_seat.items(), (None, clients[None])]:
        html = browser.get(page_url).content.decode()
        assert_no_leak(html, knowledge, seat, f"final page of seat {seat}")
        assert not action_forms(html)
        final[seat] = html
    return final


@pytest.mark.parametrize(
    ("num_players", "htmx", "table"),
    [
        (2, True, {}),
        (
            2,
            False,
            {"variant": "scripts_and_scribes", "options": {"forbid_uncoverable_bids": True}},
        ),
        (3, False, {"options": {"medieval_bluff": True}}),
        (4, True, {"variant": "scripts_and_scribes"}),
    ],
    ids=["2p-htmx", "2p-plain-s&s", "3p-plain-bluff", "4p-htmx-s&s"],
)
def test_full_game_through_the_pages_ends_on_the_score(users, clients, num_players, htmx, table):
    game = started_game(users, num_players, **table)
    final = play_through_pages(game, clients, htmx=htmx, rng=random.Random(num_players))
    game.refresh_from_db()
    names = {seat.position: str(seat.user) for seat in game.seats.all()}
    for html in final.values():
        assert "Final score" in html
        assert 'id="board-score"' in html
        for winner in game.result["winners"]:
            assert names[winner] in html.split('id="board-score"')[1]
        for player in game.result["players"]:
            assert f"{player['vp']} VP, {player['gold']} Gold" in html
