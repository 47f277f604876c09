"""Ex Libris played on the site only through its board: every move is a button the
page or the partial it got back renders, chosen at random, posted as htmx or as a plain form,
with bots in the other seats or several people, solo and at 2, 3 and 4 players, to the scored
end. At every step the buttons are exactly the engine's legal actions (X86), and every page and
partial is checked against what its reader may know (X77)."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import Client

from games.kinds.exlibris import engine
from games.models import Game

from .helpers import (
    HTMX,
    Knowledge,
    assert_board_keeps_secrets,
    canonical,
    live_board,
    moves_in,
    open_table,
    play_bot,
)

pytestmark = pytest.mark.django_db

# Every this many moves, every reader's board is scanned, not only the mover's.
SCAN_EVERY = 10


@pytest.fixture
def people():
    users = [
        get_user_model().objects.create_user(f"reader{i}", display_name=f"Reader {i}")
        for i in range(4)
    ]
    browsers = []
    for user in users:
        browser = Client()
        browser.force_login(user)
        browsers.append(browser)
    return users, browsers


def play_through_the_board(game, users, browsers, *, htmx: bool, rng) -> Knowledge:
    """Play `game` to its end: a person's move is a button of the board they last got (the
    page, the partial their post returned, or the live push after a bot's move), a bot's the
    turn worker's. Returns what each seat was shown."""
    seats = {seat.position: seat for seat in game.seats.all()}
    by_user = {user.pk: (user, browser) for user, browser in zip(users, browsers, strict=False)}
    knowledge = Knowledge(game.num_players)
    state = game.engine_state()
    knowledge.update(state)
    boards = {}  # seat -> the board its person last received, while still current
    page = f"/games/{game.pk}/"
    while state["phase"] != "over":
        seat = engine.to_act(state)[0]
        if seats[seat].bot_level:
            game = play_bot(game, rng)
            boards.clear()
        else:
            user, browser = by_user[seats[seat].user_id]
            html = boards.get(seat)
            if html is None:
                html = (
                    live_board(game, user)
                    if rng.random() < 0.5
                    else browser.get(page).content.decode()
                )
            moves = moves_in(html)
            assert canonical(m.action for m in moves) == canonical(
                engine.legal_actions(state, seat)
            ), f"seat {seat}'s board at v{state['version']} offers other moves than the engine"
            move = rng.choice(moves)
            if htmx:
                response = browser.post(move.url, move.data(), **HTMX)
            else:
                response = browser.post(move.url, move.data())
                assert response.status_code == 302, response.content[:300]
                if rng.random() < 0.25:  # the page the redirect leads to, or its live push
                    response = browser.get(response["Location"])
                else:
                    game.refresh_from_db()
                    response = HttpResponse(live_board(game, user))
            assert response.status_code == 200, response.content.decode()[:500]
            html = response.content.decode()
            assert 'role="alert"' not in html, html[:2000]
            boards = {seat: html}
        game.refresh_from_db()
        before, state = state["version"], game.engine_state()
        assert state["version"] == before + 1
        knowledge.update(state)
        scanned = dict(boards)
        if state["version"] % SCAN_EVERY == 0:  # every reader's push, a spectator's included
            readers = [(p.position, by_user[p.user_id][0]) for p in seats.values() if p.user_id]
            for reader, user in [*readers, (None, AnonymousUser())]:
                scanned[reader] = live_board(game, user)
        for reader, html in scanned.items():
            knowledge.assert_no_leak(html, reader, f"seat {reader}'s board at v{state['version']}")
            assert_board_keeps_secrets(html, state, reader, f"seat {reader} at v{state['version']}")
    return knowledge


@pytest.mark.parametrize(
    ("players", "bots", "htmx", "table"),
    [
        (1, (), True, {"options": {"difficulty": 3}}),
        (2, (), False, {}),
        (3, ("greedy", "random"), True, {}),
        (4, ("random", "greedy"), True, {"variant": "friendly"}),
    ],
    ids=["solo-htmx", "2p-people-plain", "3p-bots-htmx", "4p-people-and-bots-htmx"],
)
@pytest.mark.slow(seconds=10)  # a whole game through the board: ~450 posts at 2 people
def test_a_whole_game_through_the_board_reaches_the_scored_end(people, players, bots, htmx, table):
    """X86: the board offers exactly the engine's choices at every step; X67–X76: the game ends
    on the inspection, shown to every seat and to a spectator."""
    users, browsers = people
    game = open_table(users, players, bots=bots, seed=100 + players, **table)
    knowledge = play_through_the_board(game, users, browsers, htmx=htmx, rng=random.Random(players))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    state = game.engine_state()
    result = engine.result(state)
    browser_of = {user.pk: browser for user, browser in zip(users, browsers, strict=True)}
    readers = [
        (seat.position, browser_of[seat.user_id]) for seat in game.seats.all() if seat.user_id
    ]
    for seat, browser in [*readers, (None, Client())]:
        html = browser.get(f"/games/{game.pk}/").content.decode()
        knowledge.assert_no_leak(html, seat, f"seat {seat}'s final page")
        assert 'id="board-score"' in html and "Inspection" in html
        assert not moves_in(html), "a finished board offers no move"
        totals = [player["total"] for player in result["players"]]
        form = html.split('id="board-score"')[1].split("</section>")[0]
        assert all(f">{total}</td>" in form for total in totals)
