"""The replay viewer: every step matches the engine; perspectives keep secrets; controls."""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.access import Visitor
from games.history import replay
from games.kinds.biblios import engine as biblios
from games.tables import services
from tests.play import play_to_end, started_game
from tests.web.helpers import Knowledge, card_ids_in

from .conftest import finished_game

pytestmark = pytest.mark.django_db

SAMPLE = 8  # pages fetched per game; the views themselves are checked at every step


def url(game, **query) -> str:
    tail = "&".join(f"{key}={value}" for key, value in query.items())
    return reverse("game_replay", args=[game.pk]) + (f"?{tail}" if tail else "")


def moves_of(game):
    return list(game.moves.order_by("seq").values_list("seat", "action"))


def board_part(html: str) -> str:
    """The replayed board without the log beside it (the log covers the whole game)."""
    start = html.index('<div class="board replay-board"')
    return html[start : html.index('<section class="region replay-log"')]


def knowledge_by_step(game) -> list[Knowledge]:
    """What each seat (and a spectator) was entitled to know after each step."""
    state = biblios.replay(game.setup, [])
    knowledge = Knowledge(game.num_players)
    knowledge.update(state)
    snapshots = [_copy(knowledge)]
    for seat, action in moves_of(game):
        state = biblios.apply_action(state, seat, action)
        knowledge.update(state)
        snapshots.append(_copy(knowledge))
    return snapshots


def _copy(knowledge: Knowledge) -> Knowledge:
    copied = Knowledge(0)
    copied.known = {seat: set(cards) for seat, cards in knowledge.known.items()}
    return copied


@pytest.mark.look  # a leak scan: what a reader is sent is the same on any services
@pytest.mark.parametrize("num_players, seed", [(2, 21), (3, 5)])
def test_every_step_matches_the_engine_and_keeps_each_seats_secrets(
    users, browsers, num_players, seed
):
    game = finished_game(users, num_players, seed, options={"medieval_bluff": num_players == 3})
    moves = moves_of(game)
    states = replay.states_of(game)
    assert len(states) == game.version + 1
    final = biblios.loads(game.state)
    shown_at_end = biblios.revealed_cards(states)
    for step, state in enumerate(states):
        assert state == biblios.replay(game.setup, moves[:step])
        for seat in range(num_players):
            mine = replay.step_view(biblios, states, step, replay.Perspective("mine", "", seat))
            expected = biblios.view(state, seat)
            assert mine == {**expected, "legal_actions": []}
        opened = replay.step_view(biblios, states, step, replay.Perspective("open", "", None))
        for seat, hand in enumerate(opened["open_hands"]):
            assert set(hand["cards"]) == set(state.hands[seat]) & shown_at_end
            assert hand["hidden"] == len(state.hands[seat]) - len(hand["cards"])
    assert states[-1] == final

    knowledge = knowledge_by_step(game)
    removed = set(final.removed)
    steps = sorted({*range(0, game.version + 1, max(1, game.version // SAMPLE)), game.version})
    for step in steps:
        state = states[step]
        for index in range(num_players):
            response = browsers[index].get(url(game, move=step))
            assert response.status_code == 200
            html = response.content.decode()
            assert f'data-step="{step}" data-perspective="mine"' in html
            board = board_part(html)
            dice = dict(re.findall(r'data-category="(\w+)" data-value="(\d+)"', board))
            assert [int(dice[c]) for c in biblios.CATEGORIES] == list(state.dice)
            assert f'data-version="{step}"' in board
            # The board shows only what this seat knew then; the log, what it learnt by the end.
            leaked = card_ids_in(board) & knowledge[step].hidden(index)
            assert not leaked, (step, index, sorted(leaked))
            leaked = card_ids_in(html) & knowledge[-1].hidden(index)
            assert not leaked, (step, index, sorted(leaked))
        opened = browsers[None].get(url(game, move=step)).content.decode()
        assert 'data-perspective="open"' in opened
        # Open hands show what the whole table learnt by the end, never the removed cards.
        assert not card_ids_in(opened) & knowledge[-1].hidden(None), step
        assert not card_ids_in(opened) & removed, step


def test_the_final_open_step_shows_every_final_hand(users, browsers):
    game = finished_game(users, 2, 8)
    html = browsers[None].get(url(game, move=game.version)).content.decode()
    final = biblios.loads(game.state)
    for hand in final.hands:
        assert set(hand) <= card_ids_in(board_part(html))
    assert "Final score" in html


def test_who_may_replay_what(users, browsers, django_user_model):
    finished = finished_game(users, 2, 4)
    running = started_game(users[2:], 2, seed=4)
    staff = django_user_model.objects.create_user("mod", password="x", is_staff=True)
    browsers["staff"] = browsers[None].__class__()
    browsers["staff"].force_login(staff)

    def status(who, game, **query):
        return browsers[who].get(url(game, **query)).status_code

    # Nobody but staff replays a game in progress, not even its players.
    assert status(None, running) == 403
    assert status(0, running) == 403
    assert status(2, running) == 403
    assert status("staff", running) == 200
    staff_page = browsers["staff"].get(url(running, **{"as": "seat-1"})).content.decode()
    assert 'data-perspective="seat-1"' in staff_page
    # A finished game: its players from their seat or open; everyone else open only.
    assert status(0, finished) == 200 and status(0, finished, **{"as": "open"}) == 200
    assert status(3, finished) == 200
    for key in ("mine", "seat-0", "bogus"):
        assert status(3, finished, **{"as": key}) == 400
        assert status(None, finished, **{"as": key}) == 400
    page = browsers[3].get(url(finished)).content.decode()
    assert 'data-perspective="open"' in page and "As I saw it" not in page


def test_bad_steps_and_unstarted_or_private_games_are_refused(users, browsers):
    game = finished_game(users, 2, 6)
    for move in ("-1", "abc", str(game.version + 1), "1e3", "99999999999"):
        response = browsers[0].get(url(game, move=move))
        assert response.status_code == 400, move
        assert "move must be a whole number" in response.content.decode()
    private = finished_game(users, 2, 6, private=True)
    assert browsers[3].get(url(private)).status_code == 403
    assert browsers[0].get(url(private)).status_code == 200
    table = services.create_table(users[0], services.TableSettings(2))
    assert browsers[0].get(url(table)).status_code == 404
    assert browsers[0].get(reverse("game_replay", args=[987654])).status_code == 404


def test_controls_links_and_highlighted_log(users, browsers):
    game = finished_game(users, 2, 9)
    html = browsers[0].get(url(game, move=5)).content.decode()
    for step, target in (("first", 0), ("prev", 4), ("next", 6), ("last", game.version)):
        assert f'href="?as=mine&amp;move={target}" data-step="{step}"' in html
    assert f'type="range" name="move" min="0" max="{game.version}" value="5"' in html
    assert 'class="replay-link"' in html and "js/replay.js" in html
    current = re.findall(r'<li id="move-(\d+)" class="current" aria-current="step">', html)
    assert current == ["5"]
    assert len(re.findall(r'<li id="move-\d+"', html)) == game.version + 1
    # No action forms: a replay is history.
    assert "/act/" not in html
    first = browsers[0].get(url(game, move=0)).content.decode()
    assert 'data-step="prev"' not in first
    last = browsers[0].get(url(game, move=game.version)).content.decode()
    assert 'data-step="next"' not in last and f'data-step="{game.version}"' in last
    # Without a move asked for, the replay opens at the deal, where the arrow keys step on.
    opened = browsers[0].get(url(game)).content.decode()
    assert 'data-step="prev"' not in opened and 'data-step="0"' in opened
    assert 'data-step="next"' in opened


def test_history_and_finished_games_link_to_the_replay(users, browsers):
    game = finished_game(users, 2, 10)
    assert url(game) in browsers[0].get(reverse("my_games")).content.decode()
    assert url(game) in browsers[3].get(reverse("game", args=[game.pk])).content.decode()
    running = started_game(users[2:], 2)
    assert url(running) not in browsers[2].get(reverse("game", args=[running.pk])).content.decode()


def test_a_moderator_seated_at_a_running_game_sees_only_their_own_seat(users, django_user_model):
    """Staff perspectives (another seat, every hand, the inspector) are for games that are over
    or for staff not seated at them: seated, a moderator plays like everyone else."""
    moderator = django_user_model.objects.create_superuser("abbot", password="x")
    game = started_game([moderator, users[1]], 2, seed=4)
    opponent = f"seat-{1 - Visitor.of(game, moderator).seat}"
    seated, unseated = Client(), Client()
    seated.force_login(moderator)
    unseated.force_login(django_user_model.objects.create_superuser("prior", password="x"))
    inspector = reverse("admin:games_game_inspect", args=[game.pk])

    def replays_as(browser, key) -> bool:
        page = browser.get(url(game, **{"as": key}))
        return page.status_code == 200 and f'data-perspective="{key}"' in page.content.decode()

    for query in ({}, {"as": "mine"}, {"as": "open"}, {"as": opponent}):
        assert seated.get(url(game, **query)).status_code == 403
    assert seated.get(inspector).status_code == 403
    # Staff not seated at it still take any seat while it runs.
    assert replays_as(unseated, opponent) and replays_as(unseated, "open")
    assert unseated.get(inspector).status_code == 200
    # Once it is over, the seated moderator may too.
    play_to_end(game, random.Random(4))
    assert replays_as(seated, opponent) and replays_as(seated, "open")
    assert seated.get(inspector).status_code == 200
