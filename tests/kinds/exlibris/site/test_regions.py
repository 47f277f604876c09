"""Ex Libris' board regions for every reader (a seat, a spectator, a replay's perspectives and
the admin's inspector with every card), and the refusals of moves the board never offers: each
is refused with a message that says why, and changes nothing (X86)."""

import json
import random
import re
from collections import Counter
from html import escape

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.kinds.exlibris import engine, names
from games.kinds.exlibris.card_faces import CODES, card_name
from games.kinds.exlibris.engine.cards import CARDS
from games.models import Game
from games.play import services as play_services
from games.tables import services as tables_services

from .helpers import (
    HTMX,
    assert_board_keeps_secrets,
    cards_in,
    live_board,
    moves_in,
    open_table,
)

pytestmark = pytest.mark.django_db

BOARD_REGIONS = (
    'id="board"',
    'id="board-banner"',
    'id="board-players"',
    'id="board-town"',
    'id="board-tiles"',
    'id="board-actions"',
    'id="board-mine"',
    'id="board-shelves"',
    'id="board-score"',
    'id="board-log"',
)
STEP_REGIONS = ('id="board-banner"', 'id="board-town"', 'id="board-tiles"', 'id="board-shelves"')


@pytest.fixture
def table():
    """Two people at a table, a spectator, a moderator; the game 60 moves in."""
    model = get_user_model()
    users = [model.objects.create_user(f"reader{i}", display_name=f"Reader {i}") for i in (0, 1)]
    staff = model.objects.create_user("curator", is_staff=True, is_superuser=True)
    game = open_table(users, 2, seed=7)
    browsers = {}
    for user in [*users, staff]:
        browsers[user.pk] = Client()
        browsers[user.pk].force_login(user)
    play(game, users, random.Random(7), moves=60)
    return game, users, staff, browsers


def play(game: Game, users, rng, *, moves: int) -> Game:
    """Random legal moves through the services (this file tests the board, not the moves)."""
    for _ in range(moves):
        game.refresh_from_db()
        state = game.engine_state()
        if state["phase"] == "over":
            break
        seat = engine.to_act(state)[0]
        action = rng.choice(engine.legal_actions(state, seat))
        play_services.submit_action(game.pk, users[seat], action, version=state["version"])
    game.refresh_from_db()
    return game


def page(browser, url: str) -> str:
    response = browser.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def test_every_region_renders_for_each_reader_and_keeps_secrets(table):
    """X77: each seat's page shows its hand and focus and nobody else's; a spectator sees no
    hand; the inspector shows every hand and the deck; the live push carries every region."""
    game, users, staff, browsers = table
    state = game.engine_state()
    url = f"/games/{game.pk}/"
    readers = [(0, browsers[users[0].pk]), (1, browsers[users[1].pk]), (None, Client())]
    for seat, browser in readers:
        html = page(browser, url)
        assert all(region in html for region in BOARD_REGIONS), f"seat {seat}'s page"
        assert_board_keeps_secrets(html, state, seat, f"seat {seat}'s page")
        if seat is not None:
            hand = set(state["seats"][seat]["hand"])
            assert hand <= cards_in(html), "a seat sees its whole hand"
            focus = html.split('<p class="xl-focus">')[1].split("</p>")[0]
            assert escape(names.category(state["seats"][seat]["focus"])) in focus, "its focus"
            assert html.count('class="xl-focus"') == 1, "and no other"
        else:
            assert "xl-focus" not in html and "hands and foci stay hidden" in html
    for seat, user in enumerate(users):
        pushed = live_board(game, user)
        assert all(region in pushed for region in BOARD_REGIONS[1:])
        assert pushed.count('hx-swap-oob="true"') >= len(BOARD_REGIONS) - 1
        assert_board_keeps_secrets(pushed, state, seat, f"seat {seat}'s push")

    inspector = page(browsers[staff.pk], f"/admin/games/game/{game.pk}/inspect/")
    assert all(region in inspector for region in STEP_REGIONS)
    assert set(state["deck"]) <= cards_in(inspector), "the inspector lists the deck"
    for record in state["seats"]:
        assert set(record["hand"]) <= cards_in(inspector), "and every hand"
    assert 'data-zone="deck"' in inspector
    drawn = next(
        step
        for step in range(1, game.version + 1)
        if any("secret" in event for event in states_at(game, step)["events"])
    )
    at_draw = page(browsers[staff.pk], f"/admin/games/game/{game.pk}/inspect/?move={drawn}")
    assert set(states_at(game, drawn)["deck"]) <= cards_in(at_draw), "a step with a secret draw"


def test_the_finished_board_shows_the_inspection_to_everyone(table):
    """X68–X76: the end shows each player's form (every line, the tie-break in words), the
    chart, and every hand and focus (X77: after the game they are shown)."""
    game, users, staff, browsers = table
    game = play(game, users, random.Random(8), moves=2000)
    assert game.status == Game.Status.FINISHED
    state = game.engine_state()
    result = engine.result(state)
    for browser in (browsers[users[0].pk], Client(), browsers[staff.pk]):
        html = page(browser, f"/games/{game.pk}/")
        score = html.split('id="board-score"')[1].split("</section>")[0]
        for line in ("A1 alphabetical order", "A2 books:", "B1 stability", "B2 Prominent"):
            assert line in score
        for line in ("B3 Banned", "B4 diversity", "B5 focus", "Pre-scoring flips", "Total"):
            assert line in score
        assert '<svg viewBox="0 0 ' in score and "chart-group" in score
        assert "Ranking" in score
        for player in result["players"]:
            assert f">{player['total']}</td>" in score
        for record in state["seats"]:
            for card in record["hand"]:  # a face, or by name in the ranking's final hands
                named = re.search(rf"(?<![\w-]){card_name(card)}(?![\w-])", score)
                shown = card in cards_in(html) or named
                assert shown, f"X77: hands are shown after the game ({card})"
    for step in (0, 1, 40, game.version // 2, game.version):
        for perspective in ("mine", "open"):
            url = f"/games/{game.pk}/replay/?as={perspective}&move={step}"
            replay = page(browsers[users[0].pk], url)
            assert all(region in replay for region in STEP_REGIONS), url
            assert not moves_in(replay), "a replay offers no move"
            if perspective == "mine" and step < game.version:
                assert_board_keeps_secrets(replay, states_at(game, step), 0, url)
    open_replay = page(
        browsers[users[1].pk], f"/games/{game.pk}/replay/?as=open&move={game.version}"
    )
    for record in state["seats"]:
        assert set(record["hand"]) <= cards_in(open_replay), "hands open after the game"
    inspector = page(browsers[staff.pk], f"/admin/games/game/{game.pk}/inspect/")
    assert 'id="board-score"' in inspector


def states_at(game: Game, step: int):
    moves = game.moves.order_by("seq").values_list("seat", "action")[:step]
    return engine.replay(game.setup, moves)


def post(browser, game, data, *, htmx=True):
    extra = HTMX if htmx else {}
    return browser.post(f"/games/{game.pk}/act/", data, **extra)


def test_moves_the_board_never_offers_are_refused_and_change_nothing(table):
    """Not JSON, a shape no move has, a cell that is not legal, a stale version and another
    seat's decision: each refused with its message, the game unchanged (X86)."""
    game, users, _staff, browsers = table
    state = game.engine_state()
    seat = engine.to_act(state)[0]
    other = 1 - seat
    mover, waiter = browsers[users[seat].pk], browsers[users[other].pk]
    legal = engine.legal_actions(state, seat)
    version = str(state["version"])
    refusals = [
        (mover, {"version": version, "action": "take the bookshop"}, 400, "could not be read"),
        (mover, {"version": version}, 400, "Choose one of the moves"),
        (mover, {"version": version, "action": '["cell", [0, 1]]'}, 400, "could not be read"),
        (
            mover,
            {"version": version, "action": json.dumps({"type": "cell", "cell": [0, 1, 2]})},
            400,
            "not one the board offers",
        ),
        (mover, {"version": version, "action": json.dumps({"type": "x" * 400})}, 400, "too long"),
        (
            mover,
            {"version": version, "action": json.dumps({"type": "cell", "cell": [7, 7]})},
            400,
            "not a legal",
        ),
        (
            mover,
            {"version": str(state["version"] - 1), "action": json.dumps(legal[0])},
            409,
            "The board changed",
        ),
        (waiter, {"version": version, "action": json.dumps(legal[0])}, 400, "not asked"),
    ]
    for browser, data, status, words in refusals:
        response = post(browser, game, data)
        html = response.content.decode()
        assert response.status_code == status, (data, response.status_code)
        assert 'role="alert"' in html and words in html, (data, html[:600])
        game.refresh_from_db()
        assert game.version == state["version"], f"{data} changed the game"
    response = post(mover, game, {"version": version, "action": "{"}, htmx=False)
    assert response.status_code == 302
    follow = page(mover, response["Location"])
    assert "could not be read" in follow
    game.refresh_from_db()
    assert game.engine_state() == state


def test_only_ex_libris_pages_load_its_stylesheet(table):
    """GameKind.stylesheet: the game page, its replay, whole log and the inspector link
    exlibris/board.css, not Biblios' sheet; a Biblios board does not carry it."""
    game, users, staff, browsers = table
    player = browsers[users[0].pk]

    def links_its_own_sheet_only(browser, url: str) -> None:
        html = page(browser, url)
        assert "exlibris/board.css" in html and "biblios/board.css" not in html, url

    links_its_own_sheet_only(player, f"/games/{game.pk}/")
    links_its_own_sheet_only(browsers[staff.pk], f"/admin/games/game/{game.pk}/inspect/")
    play(game, users, random.Random(9), moves=2000)
    links_its_own_sheet_only(player, f"/games/{game.pk}/replay/?as=mine&move=3")
    links_its_own_sheet_only(player, f"/games/{game.pk}/log/")
    biblios = tables_services.create_table(
        users[0], tables_services.TableSettings(2, kind="biblios")
    )
    tables_services.join_table(biblios.pk, users[1])
    tables_services.start_game(biblios.pk, users[0])
    assert "exlibris/board.css" not in page(player, f"/games/{biblios.pk}/")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ("Plateau Cité", "Votre Collection", "Spécialité")),
        ("es", ("Tablero de la ciudad", "Tu estantería", "especialidad")),
    ],
)
def test_the_board_reads_in_french_and_spanish(table, language, words):
    """The board's words are translated; French uses the rulebook's terms (Collection,
    Spécialité), Spanish the project's."""
    game, users, _staff, browsers = table
    html = browsers[users[0].pk].get(f"/games/{game.pk}/", HTTP_ACCEPT_LANGUAGE=language)
    text = html.content.decode()
    assert all(word in text for word in words), language
    assert "Town board" not in text and "Your bookshelf" not in text


def test_the_other_bookshelves_count_their_face_up_books_per_category(table):
    """X6, X72: another seat's bookshelf is public, and what a reader weighs it by is its books
    per category: the smaller shelf says them as numbers beside the symbols (face-down cards
    count for nobody), while the reader's own large shelf has its cards' books spoken."""
    game, users, _, browsers = table
    state = game.engine_state()
    html = page(browsers[users[0].pk], f"/games/{game.pk}/")
    shelves = html.split('id="board-shelves"')[1].split("</section>")[0]
    theirs = shelves.split('data-seat="1"')[1]
    mine = shelves.split('data-seat="1"')[0]
    expected = Counter(
        category
        for stack in state["seats"][1]["bookshelf"].values()
        if stack["up"]
        for category in CARDS[stack["top"]].books
    )
    assert sum(expected.values()), "60 moves in, the other seat has shelved face-up books"
    counted = {
        code: int(number)
        for code, number in re.findall(r'class="xl-book-count k-(\w+)">.*?</i>(\d+)</span>', theirs)
    }
    assert counted == {CODES[category]: books for category, books in expected.items()}
    assert "xl-book-count" not in mine
    assert 'aria-labelledby="xn-' not in theirs.split("<table")[1], "their cards: symbols only"
    assert 'aria-labelledby="xn-' in mine.split("<table")[1], "your cards: books named"
