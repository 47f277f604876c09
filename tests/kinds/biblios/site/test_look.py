"""The look of the board: card faces that read without colour, a banner naming who acts
and what is awaited, the end-of-game chart and tie-breaks, the rematch, the rules pages, the live
region for screen readers, and the board script served from our own static files.
"""

import random
import re
from html import unescape

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import translation

from biblios_site import errors
from games.access import Visitor
from games.kinds.biblios import card_faces, presentation, presenter
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine import scoring
from games.kinds.biblios.engine.cards import CARDS, CATEGORIES, CHURCH_DICE, category_name
from games.models import Game, Seat
from games.play import rendering, selectors
from games.play import services as play_services
from games.tables import services as tables_services
from tests.play import play_to_end, seated_users, started_game
from tests.web.helpers import by_id, parse_tree

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def text_of(html: str) -> str:
    """What a reader without colour or images gets: the text, tags dropped."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def finished_game(users):
    """A 3-player game played to its end through the services."""
    return play_to_end(started_game(users, 3, seed=21), random.Random(5))


# ---------------------------------------------------------------------------- card faces


@pytest.mark.parametrize("card_id", ["monks-A", "pigments-H", "forbidden_tomes-I"])
def test_a_category_card_shows_its_symbol_name_value_and_letter_as_text(card_id):
    card = CARDS[card_id]
    html = card_faces.card_face(card_id, "biblios")
    root = parse_tree(html).children[0]
    assert root.attrs["data-card"] == card_id
    # The category's own symbol from Biblios' own symbol sheet: a mask Biblios' board.css cuts
    # from the sheet beside it (a <view> per symbol) for the card's class, chip and tile alike.
    category = card["category"]
    assert f"card-{category}" in root.attrs["class"].split()
    with open(finders.find("biblios/board.css"), encoding="utf-8") as sheet:
        mask = f'--symbol: url("symbols.svg#{category}-view");'
        assert re.search(rf"\.card-{category}\b[^{{]*\{{ {re.escape(mask)} \}}", sheet.read())
    with open(finders.find("biblios/symbols.svg"), encoding="utf-8") as sheet:
        assert f'<view id="{category}-view"' in sheet.read()
    parts = {
        cls: text_of(html.split(f'class="{cls}">', 1)[1].split("</span>", 1)[0])
        for cls in ("card-name", "card-value", "card-letter")
    }
    assert parts == {
        "card-name": category_name(card["category"], "biblios"),
        "card-value": str(card["value"]),
        "card-letter": card["letter"],
    }


def test_scripts_and_scribes_cards_carry_that_editions_names():
    html = card_faces.card_face("monks-A", "scripts_and_scribes")
    assert ">Illuminators<" in html
    assert "Monks" not in html


def test_cached_card_faces_follow_each_readers_language():
    """Faces are built once per card, edition and language: one reader's words never reach
    another reader."""
    faces = {}
    for language in ("fr", "en", "es", "fr"):
        with translation.override(language):
            faces.setdefault(language, []).append(card_faces.card_face("monks-A", "biblios"))
    assert ">Moines<" in faces["fr"][0] and faces["fr"][0] == faces["fr"][1]
    assert ">Monks<" in faces["en"][0]
    assert ">Monjes<" in faces["es"][0]


def test_gold_and_church_cards_read_without_colour():
    gold = text_of(card_faces.card_face("gold-3-01"))
    assert gold == "Gold 3"
    for card_id, dice in CHURCH_DICE.items():
        html = card_faces.card_face(card_id, "biblios")
        assert html.count('class="die-icon"') == dice  # one die icon per die the card moves
        assert "Church" in text_of(html)
        assert re.search(r"(raise|lower)", text_of(html))  # the effect in words for readers
        assert re.search(r'card-effect" aria-hidden="true">[+−±]1<', html)


def test_bishop_cards_in_scripts_and_scribes_print_two_dice_as_2():
    """Spec §8: Bishop cards; the two-dice ones are printed +2/−2 (1 on each of two dice)."""
    for card_id, dice in CHURCH_DICE.items():
        html = card_faces.card_face(card_id, "scripts_and_scribes")
        assert "Bishop" in text_of(html)
        effect = html.split('class="card-effect" aria-hidden="true">', 1)[1].split("<", 1)[0]
        assert effect[1:] == ("2" if dice == 2 else "1")


def test_dice_are_drawn_with_as_many_pips_as_their_value():
    for value in range(1, 7):
        assert card_faces.die_face(value).count("<circle") == value


# ---------------------------------------------------------------------------- banner


def test_banner_names_the_player_awaited_and_the_decision(users):
    game = started_game(users, 3, seed=3)
    state = game.engine_state()
    seat, step = biblios.to_act(state)[0], biblios.view(state, None)["awaiting"]["step"]
    by_seat = seated_users(game)
    awaited_name = str(by_seat[seat])
    other = by_seat[(seat + 1) % 3]

    watcher_html = rendering.board_html(game, Visitor.of(game, other), oob=False)
    (banner,) = by_id(parse_tree(watcher_html), "board-banner")
    assert banner.attrs["data-mine"] == "0"
    assert banner.attrs["data-step"] == step
    banner_text = text_of(watcher_html.split('id="board-banner"', 1)[1].split("</div>", 1)[0])
    assert f"Waiting for {awaited_name} to {presenter.AWAITING_WORDS[step]}" in banner_text
    assert f"Gift phase: {str(by_seat[state.active])} draws and gives out cards" in banner_text

    mover_html = rendering.board_html(game, Visitor.of(game, by_seat[seat]), oob=False)
    (banner,) = by_id(parse_tree(mover_html), "board-banner")
    assert banner.attrs["data-mine"] == "1"
    assert "my-turn" in banner.attrs["class"]


def test_each_decision_has_help_pointing_at_a_rules_section(client):
    rules_html = client.get(reverse("rules", args=["biblios"])).content.decode()
    for step in ("place", "pick", "church", "bid", "pay", "give"):
        help_text = presentation.step_help(step)
        assert help_text["text"]
        assert f'id="{help_text["anchor"]}"' in rules_html, step


def test_the_move_region_shows_the_help_of_the_step(users):
    game = started_game(users, 2, seed=3)
    state = game.engine_state()
    seat = biblios.to_act(state)[0]
    html = rendering.board_html(game, Visitor.of(game, seated_users(game)[seat]), oob=False)
    step = biblios.view(state, seat)["awaiting"]["step"]
    anchor = presentation.step_help(step)["anchor"]
    actions = html.split('id="board-actions"', 1)[1]
    assert f'href="/rules/biblios/biblios/#{anchor}"' in actions
    assert str(presentation.step_help(step)["text"]) in unescape(actions)


# ---------------------------------------------------------------------------- end of the game


def test_the_final_chart_and_table_hold_every_players_category_totals(users, finished_game):
    html = rendering.board_html(finished_game, Visitor.of(finished_game, users[0]), oob=False)
    score = html.split('id="board-score"', 1)[1].split('id="board-log"', 1)[0]
    result = finished_game.result
    names = [str(users[seat]) for seat in range(3)]
    assert "<svg" in score and 'role="img"' in score  # drawn on the server, no JS library
    for entry in result["categories"]:
        label = category_name(entry["category"], "biblios")
        for seat, total in enumerate(entry["totals"]):
            assert f"<title>{names[seat]}: {label} {total}</title>" in score
        assert f"die {entry['die']}" in score
        row = score.split(f'<th scope="row">{label}</th>', 1)[1].split("</tr>", 1)[0]
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", row)
        assert [re.sub(r" \(.\)$", "", cell) for cell in cells[1:4]] == [
            str(total) for total in entry["totals"]
        ]


def test_tie_breaks_are_spelled_out_in_words():
    """R21: equal VP, then Gold value, then each category's total and letter."""
    # Each wins one category at 3 VP; Ann holds more Gold.
    result = scoring.score([["monks-A", "gold-3-01"], ["pigments-A", "gold-1-01"]], [3] * 5)
    lines = presentation.tie_break_lines(result, ["Ann", "Bob"], "biblios")
    assert lines == ["Ann and Bob both have 3 VP; Ann is ahead on Gold value: 3 against 1."]

    # Equal Gold (none), so the Monks total decides.
    on_monks = scoring.score([["monks-A"], ["pigments-A"]], [3] * 5)
    (line,) = presentation.tie_break_lines(on_monks, ["Ann", "Bob"], "biblios")
    assert line == (
        "Ann and Bob both have 3 VP; Ann is ahead on Monks total: 2 against 0. "
        "They were equal on Gold value (0)."
    )

    no_tie = scoring.score([["monks-A"], []], [3] * 5)
    assert presentation.tie_break_lines(no_tie, ["Ann", "Bob"], "biblios") == []


def test_a_complete_tie_is_said_to_be_shared():
    result = scoring.score([["gold-1-01"], ["gold-1-02"]], [3] * 5)
    (line,) = presentation.tie_break_lines(result, ["Ann", "Bob"], "biblios")
    assert "share their place" in line


# ---------------------------------------------------------------------------- rematch


def test_rematch_opens_a_like_table_and_the_others_join_it(users):
    game = started_game(users, 3, seed=21, private=True, options={"medieval_bluff": True})
    game = play_to_end(game, random.Random(5))
    new_game = tables_services.rematch(game.pk, users[1])
    assert (new_game.variant, new_game.num_players, new_game.options, new_game.private) == (
        game.variant,
        3,
        game.options,
        True,
    )
    assert new_game.host == users[1] and new_game.status == Game.Status.OPEN
    assert list(new_game.seats.values_list("user_id", "position")) == [(users[1].pk, 0)]

    assert tables_services.rematch(game.pk, users[2]).pk == new_game.pk  # the one-click join
    assert (
        tables_services.rematch(game.pk, users[1]).pk == new_game.pk
    )  # asking twice changes nothing
    assert sorted(new_game.seats.values_list("user_id", flat=True)) == [users[1].pk, users[2].pk]
    assert Game.objects.count() == 2


def test_rematch_copies_the_bot_seats(users, finished_game):
    Seat.objects.filter(game=finished_game, position=2).update(user=None, bot_level="abbot")
    new_game = tables_services.rematch(finished_game.pk, users[0])
    assert list(new_game.seats.order_by("position").values_list("user_id", "bot_level")) == [
        (users[0].pk, ""),
        (None, "abbot"),
    ]


def test_rematch_is_refused_to_outsiders_and_before_the_end(users, finished_game):
    with pytest.raises(errors.NotAllowed):
        tables_services.rematch(finished_game.pk, users[4])
    running = started_game(users, 2)
    with pytest.raises(errors.Conflict):
        tables_services.rematch(running.pk, users[0])
    assert not Game.objects.filter(status=Game.Status.OPEN).exists()


def test_rematch_by_plain_post_and_htmx_and_the_offer_on_the_others_board(
    users, clients, finished_game
):
    url = reverse("game_rematch", args=[finished_game.pk])
    page = clients[users[0].pk].get(reverse("game", args=[finished_game.pk])).content.decode()
    assert f'action="{url}"' in page and "Play again with the same players" in page

    answer = clients[users[0].pk].post(url)
    new_game = Game.objects.get(status=Game.Status.OPEN)
    assert answer.status_code == 302 and answer.url == reverse("game", args=[new_game.pk])

    other_page = clients[users[1].pk].get(reverse("game", args=[finished_game.pk]))
    offer = text_of(other_page.content.decode())
    assert f"{users[0]} offers a rematch (2 seats free)." in offer and "Join the rematch" in offer

    answer = clients[users[1].pk].post(url, **HTMX)
    assert answer.status_code == 200
    assert answer["HX-Redirect"] == reverse("game", args=[new_game.pk])
    assert new_game.seats.filter(user=users[1]).exists()
    seated_page = clients[users[1].pk].get(reverse("game", args=[finished_game.pk]))
    assert "You are seated at the rematch." in seated_page.content.decode()

    refused = clients[users[4].pk].post(url)  # not a player of that game
    assert refused.status_code == 302
    assert Game.objects.filter(status=Game.Status.OPEN).count() == 1
    assert not new_game.seats.filter(user=users[4]).exists()


# ---------------------------------------------------------------------------- rules pages


@pytest.mark.parametrize(
    ("edition", "names", "absent"),
    [
        ("biblios", ["Monks", "Forbidden Tomes", "Church", "Scriptorium"], "Illuminators"),
        ("scripts_and_scribes", ["Illuminators", "Scrolls", "Bishop", "Value Board"], "Monks"),
    ],
)
def test_a_rules_page_per_edition_in_its_names(client, edition, names, absent):
    page = client.get(reverse("rules", args=["biblios", edition]))
    assert page.status_code == 200
    text = text_of(page.content.decode())
    for name in names:
        assert name in text
    assert absent not in text
    for anchor in ("gift", "church", "auction", "paying", "scoring", "tie-breaks"):
        assert f'id="{anchor}"' in page.content.decode()


def test_rules_pages_are_linked_and_unknown_editions_are_not_found(client, users, clients):
    assert client.get(reverse("rules", args=["ex_libris"])).status_code == 404
    assert client.get(reverse("rules", args=["biblios", "ex_libris"])).status_code == 404
    for default in ("/rules/", reverse("rules", args=["biblios"])):  # Biblios' first edition
        assert 'data-edition="biblios"' in client.get(default).content.decode()
    assert 'href="/rules/"' in client.get(reverse("home")).content.decode()
    game = started_game(users, 2, variant="scripts_and_scribes")
    page = clients[users[0].pk].get(reverse("game", args=[game.pk])).content.decode()
    assert 'href="/rules/biblios/scripts_and_scribes/"' in page


def test_the_rules_pages_of_the_editions_before_game_kinds_lead_to_their_new_address(client):
    old = client.get("/rules/scripts_and_scribes/")
    assert old.status_code == 301 and old["Location"] == "/rules/biblios/scripts_and_scribes/"
    assert client.get("/rules/biblios/").status_code == 200  # a kind, not an old edition
    assert client.get("/rules/scripts_and_scribes/biblios/").status_code == 404


# ---------------------------------------------------------------------------- live region, JS


def test_the_live_region_carries_the_newest_log_line_and_is_fed_after_a_move(users, clients):
    game = started_game(users, 2, seed=8)
    mover = seated_users(game)[biblios.to_act(game.engine_state())[0]]
    page = clients[mover.pk].get(reverse("game", args=[game.pk])).content.decode()
    (announcer,) = by_id(parse_tree(page), "move-announcer")
    assert announcer.attrs["aria-live"] == "polite"
    announced = text_of(page.split('id="move-announcer"', 1)[1].split("</div>", 1)[0])
    newest = text_of(page.split("data-announce>", 1)[1].split("</p>", 1)[0])
    assert announced.endswith(newest) and newest

    board = selectors.board_for(game, Visitor.of(game, mover))
    play_services.submit_action(game.pk, mover, board["legal_actions"][0], version=board["version"])
    game.refresh_from_db()
    pushed = rendering.board_html(game, Visitor.of(game, mover), oob=True)
    log_region = pushed.rsplit('id="board-log"', 1)[1]  # the region swapped in, not the skeleton
    assert log_region.startswith(f' class="region board-log" data-version="{game.version}"')
    fed = log_region.split("data-announce>", 1)[1].split("</p>", 1)[0]
    first_line = log_region.split("<li>", 1)[1].split("</li>", 1)[0]
    assert text_of(fed) == text_of(first_line)
    # the newest event: the next draw
    drawn = selectors.board_for(game, Visitor.of(game, mover))["gift"]["drawing"]
    assert f'data-card="{drawn}"' in fed


def test_the_board_script_is_ours_and_loaded_from_our_static_files(users, clients):
    game = started_game(users, 2)
    page = clients[users[0].pk].get(reverse("game", args=[game.pk])).content.decode()
    sources = re.findall(r'<script[^>]*src="([^"]+)"', page)
    assert "/static/js/board.js" in sources
    assert all(source.startswith("/static/") for source in sources), sources
    assert not re.search(r'(href|src)="(https?:)?//', page)  # nothing from outside the site
    with open(finders.find("js/board.js"), encoding="utf-8") as file:
        script = file.read()
    for needed in ("document.title", "localStorage", "AudioContext", "move-announcer"):
        assert needed in script
    assert 'id="turn-sound"' in page and 'aria-pressed="false"' in page
    assert 'class="skip-link" href="#main"' in page


def test_only_the_pages_drawing_biblios_cards_load_its_stylesheet(
    users, clients, finished_game, django_user_model
):
    """GameKind.stylesheet: the game page, its replay, whole log and inspector, the lesson, the
    scoring demo and the rules (its categories drawn as cards) link biblios/board.css; an Ex
    Libris board and its rules do not carry it."""
    staff = django_user_model.objects.create_user("abbot", is_staff=True, is_superuser=True)
    clients[staff.pk] = Client()
    clients[staff.pk].force_login(staff)
    player, running = clients[users[0].pk], started_game(users, 2)
    pages = [
        (player, f"/games/{running.pk}/"),
        (player, f"/games/{finished_game.pk}/"),
        (player, f"/games/{finished_game.pk}/replay/?move=3"),
        (player, f"/games/{finished_game.pk}/log/"),
        (clients[staff.pk], f"/admin/games/game/{finished_game.pk}/inspect/"),
        (clients[None], "/learn/biblios/"),
        (clients[None], "/learn/biblios/scoring/"),
        (clients[None], "/rules/biblios/scripts_and_scribes/"),
    ]
    for browser, url in pages:
        response = browser.get(url)
        assert response.status_code == 200, url
        assert 'href="/static/biblios/board.css"' in response.content.decode(), url
    exlibris = tables_services.create_table(
        users[0], tables_services.TableSettings(2, kind="exlibris")
    )
    tables_services.join_table(exlibris.pk, users[1])
    tables_services.start_game(exlibris.pk, users[0])
    for url in (f"/games/{exlibris.pk}/", "/rules/exlibris/"):
        assert "biblios/board.css" not in player.get(url).content.decode(), url


def test_colour_is_never_the_only_signal_on_the_board(users):
    """Every card on a board has its name in text; every die its category name and number."""
    game = started_game(users, 2, seed=13)
    rng = random.Random(13)
    for _move in range(12):
        mover = seated_users(game)[biblios.to_act(game.engine_state())[0]]
        board = selectors.board_for(game, Visitor.of(game, mover))
        play_services.submit_action(
            game.pk, mover, rng.choice(board["legal_actions"]), version=board["version"]
        )
        game.refresh_from_db()
    html = rendering.board_html(game, Visitor.of(game, users[0]), oob=False)
    faces = re.findall(r'<span class="card card-[^"]+" data-card="[^"]+".*?</span></span>', html)
    assert faces
    for face in faces:
        assert re.search(r'class="card-name"[^>]*>[^<]+<', face), face
    dice = html.split('id="board-dice"', 1)[1].split("</section>", 1)[0]
    for category in CATEGORIES:
        assert f">{category_name(category, 'biblios')}<" in dice
