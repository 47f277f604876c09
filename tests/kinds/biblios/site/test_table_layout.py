"""The board as a game table: the hand as cards grouped by category, the others'
seats, the card in play and the piles as face-down backs that carry no id, one message per
situation after somebody leaves, the page's h1, "Leave game" for a player who waited for the
start, the chat's empty state and report confirmation, a ranking numbered once, the board's
own colour tokens read at 4.5:1 in both themes, and the score chart's numbers unlocalized.
"""

import random
import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.access import Visitor
from games.chat import services as chat
from games.kinds.biblios import card_faces
from games.kinds.biblios import engine as biblios
from games.kinds.biblios.engine.cards import LETTER, VALUE, letter_rank
from games.models import Game, Seat
from games.play import rendering, selectors
from games.play import services as play_services
from games.tables import services as tables_services
from tests.play import play_to_end, seated_users, started_game
from tests.web.helpers import by_id, parse_tree

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
STATIC = Path(settings.BASE_DIR) / "static" / "css"
# The board's sheets: the one every game's board shares, and Biblios' own over it.
BOARD_SHEETS = (
    STATIC / "board.css",
    Path(settings.BASE_DIR) / "games" / "kinds" / "biblios" / "static" / "biblios" / "board.css",
)
TOKEN = re.compile(r"--([a-z_-]+):\s*light-dark\(\s*(#[0-9a-fA-F]{6})\s*,\s*(#[0-9a-fA-F]{6})\s*\)")
CATEGORY_INKS = ("monks", "pigments", "holy_books", "manuscripts", "forbidden_tomes", "gold")


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def region(html: str, region_id: str) -> str:
    """The markup of one region of a rendered board (up to the next region)."""
    rest = html.split(f'id="{region_id}"', 1)[1]
    return rest[rest.index(">") :].split('class="region ', 1)[0]


def play_until(game: Game, rng: random.Random, done) -> Game:
    """Random legal moves through the services until `done(state)` holds."""
    by_seat = seated_users(game)
    while not done(game.engine_state()):
        seat = biblios.to_act(game.engine_state())[0]
        board = selectors.board_for(game, Visitor.of(game, by_seat[seat]))
        play_services.submit_action(
            game.pk, by_seat[seat], rng.choice(board["legal_actions"]), version=board["version"]
        )
        game.refresh_from_db()
    return game


# ---------------------------------------------------------------------------- the hand


def test_the_hand_is_cards_grouped_by_category_sorted_with_totals(users):
    game = started_game(users, 3, seed=21)
    game = play_until(game, random.Random(2), lambda state: len(state.hands[0]) >= 5)
    hand = game.engine_state().hands[0]
    html = rendering.board_html(game, Visitor.of(game, users[0]), oob=False)
    mine = region(html, "board-hand")
    assert "<table" not in mine
    tiles = re.findall(r'class="card card-[a-z_]+ card-tile" data-card="([^"]+)"', mine)
    assert sorted(tiles) == sorted(hand)
    groups = re.findall(r'<div class="hand-group card-([a-z_]+)"><h3>(.*?)</h3>(.*?)</div>', mine)
    assert groups
    for category, head, cards_html in groups:
        held = re.findall(r'data-card="([^"]+)"', cards_html)
        assert held == sorted(held, key=lambda card: (-VALUE[card], letter_rank(LETTER[card])))
        assert f"total {sum(VALUE[card] for card in held)}" in text_of(head)
        if category != "gold":
            best = min((LETTER[card] for card in held), key=letter_rank)
            assert f"best letter {best}" in text_of(head)


def test_a_card_tile_keeps_its_id_and_reads_as_text_and_is_cached_per_language():
    tile = card_faces.card_tile("monks-A", "biblios")
    (root,) = parse_tree(tile).children
    assert root.attrs["data-card"] == "monks-A" and "card-tile" in root.attrs["class"]
    assert text_of(tile) == "Monks 2 A"
    assert "<svg" not in tile  # its illustration is biblios/board.css's, a few bytes a card
    with translation.override("fr"):
        assert text_of(card_faces.card_tile("monks-A", "biblios")) == "Moines 2 A"
        assert card_faces.card_tile("monks-A", "biblios") is card_faces.card_tile(
            "monks-A", "biblios"
        )
    assert ">Illuminators<" in card_faces.card_tile("monks-A", "scripts_and_scribes")
    church = card_faces.card_tile("church-up1-1", "scripts_and_scribes")
    assert "Bishop" in text_of(church) and 'data-card="church-up1-1"' in church


def test_face_down_cards_are_backs_without_any_card_id(users):
    game = started_game(users, 3, seed=4)
    state = game.engine_state()
    drawer = seated_users(game)[state.active]
    other = next(user for seat, user in seated_users(game).items() if seat != state.active)
    theirs = rendering.board_html(game, Visitor.of(game, other), oob=False)
    in_play = region(theirs, "board-auction")
    assert 'class="card-back"' in in_play and "data-card" not in in_play
    assert f"{drawer.display_name} drew a card and decides where it goes." in text_of(in_play)
    assert state.drawing not in theirs
    piles = region(theirs, "board-dice").split('class="piles"', 1)[1]
    # The draw pile is a back; the auction pile, empty at the start, only its place.
    assert piles.count('class="card-back"') == 1 and 'class="pile-slot"' in piles
    assert "data-card" not in piles
    # The one who drew sees the card itself, big, in the middle of the table.
    own = region(rendering.board_html(game, Visitor.of(game, drawer), oob=False), "board-auction")
    assert f'data-card="{state.drawing}"' in own and "card-tile" in own


# ---------------------------------------------------------------------------- the seats


def test_seats_say_bot_for_a_bot_and_plain_words_for_the_active_player(users):
    game = started_game(users, 3, seed=4)
    Seat.objects.filter(game=game, position=2).update(user=None, bot_level="novice")
    html = rendering.players_html(game, Visitor.of(game, users[0]), connected={0, 1})
    seats = {
        node.attrs["data-seat"]: node
        for node in parse_tree(html).walk()
        if "data-seat" in node.attrs
    }
    bot_seat = html.split('data-seat="2"', 1)[1].split("</li>", 1)[0]
    assert ">bot<" in bot_seat and "connected" not in bot_seat
    assert "is-bot" in seats["2"].attrs["class"]
    assert html.count(">connected<") == 2 and ">not connected<" not in html
    assert "deals the cards" in html
    assert "allocating" not in html and "auctioning" not in html


def test_after_a_player_leaves_each_reader_gets_one_message(users):
    game = started_game(users, 3, seed=4)
    play_services.leave_game(game.pk, users[1])
    leaver = region(
        rendering.board_html(game, Visitor.of(game, users[1]), oob=False), "board-banner"
    )
    assert "Take my seat back" in leaver
    assert "who left the game" not in leaver
    other = region(
        rendering.board_html(game, Visitor.of(game, users[0]), oob=False), "board-banner"
    )
    assert f"A bot plays for {users[1].display_name}, who left the game." in text_of(other)
    assert "Take my seat back" not in other and "plays your seat" not in other


# ---------------------------------------------------------------------------- the page


def test_the_game_page_has_one_h1_naming_the_table_and_the_game(users, clients):
    game = started_game(users, 2, variant="scripts_and_scribes")
    page = clients[users[0].pk].get(reverse("game", args=[game.pk])).content.decode()
    headings = re.findall(r"<h1[^>]*>(.*?)</h1>", page, re.S)
    assert [text_of(heading) for heading in headings] == [f"Table {game.pk} · Scripts & Scribes"]
    # The pushed board carries it too, so the page keeps it after the takeover of a waiting room.
    pushed = rendering.board_html(game, Visitor.of(game, users[0]), oob=True)
    assert pushed.count("<h1") == 1


def test_the_log_and_chat_drawer_opens_without_javascript(users, clients):
    """On a phone a button in the banner opens the log and the chat: a checkbox's labels, with
    the checkbox outside every swapped region so a live push never closes the drawer."""
    game = started_game(users, 2)
    page = clients[users[0].pk].get(reverse("game", args=[game.pk])).content.decode()
    root = parse_tree(page)
    (toggle,) = by_id(root, "side-panel-toggle")
    assert toggle.tag == "input" and toggle.attrs["type"] == "checkbox"
    (live,) = by_id(root, "game-live")
    assert live not in toggle.ancestors()
    labels = [node for node in root.walk() if node.attrs.get("for") == "side-panel-toggle"]
    (banner,) = by_id(root, "board-banner")
    assert any(banner in label.ancestors() for label in labels)  # the open button
    (chat_panel,) = by_id(root, "chat")
    side = chat_panel.parent
    assert "game-side" in side.attrs["class"]
    assert any(side in label.ancestors() for label in labels)  # the close button
    (log,) = by_id(root, "board-log")
    assert log.attrs["class"].split()[:2] == ["region", "board-log"]


def test_a_player_waiting_when_the_host_starts_can_leave_the_game(users, clients):
    """The takeover push swaps the board in without reloading: "Leave game" must be on the page
    already (board.css shows it once the running board is in), and work once the game runs."""
    game = tables_services.create_table(users[0], tables_services.TableSettings(2))
    tables_services.join_table(game.pk, users[1])
    waiting = clients[users[1].pk].get(reverse("game", args=[game.pk])).content.decode()
    root = parse_tree(waiting)
    (live,) = by_id(root, "game-live")
    leave_forms = [
        node
        for node in root.walk()
        if node.tag == "form"
        and node.attrs.get("action") == reverse("game_leave_game", args=[game.pk])
    ]
    assert len(leave_forms) == 1
    assert live not in leave_forms[0].ancestors()  # outside the swapped board: stays open
    assert 'class="leave-game"' in waiting
    spectator = clients[users[4].pk].get(reverse("game", args=[game.pk])).content.decode()
    assert "Yes, leave the game" not in spectator

    tables_services.start_game(game.pk, users[0])
    started = Game.objects.get(pk=game.pk)
    pushed = rendering.board_html(started, Visitor.of(started, users[1]), oob=True)
    assert 'data-status="active"' in pushed.split(">", 1)[0]  # what board.css shows it on
    answer = clients[users[1].pk].post(reverse("game_leave_game", args=[game.pk]))
    assert answer.status_code == 302
    assert game.seats.get(user=users[1]).taken_over


def test_an_empty_chat_says_so_without_a_list_item(users, clients):
    game = started_game(users, 2)
    page = clients[users[0].pk].get(reverse("game", args=[game.pk])).content.decode()
    panel = page.split('id="chat"', 1)[1]
    assert '<p class="chat-empty">No messages yet.</p>' in panel
    assert "<li>No messages yet." not in panel and 'class="chat-messages"' not in panel


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_reporting_a_message_is_confirmed(users, clients, htmx):
    game = started_game(users, 2)
    message = chat.post_message(game.pk, users[1], "rude words")
    url = reverse("game_report", args=[game.pk])
    data = {"message": message.pk, "reason": "insult"}
    thanks = "Thank you: the moderators will look at your report."
    if htmx:
        answer = clients[users[0].pk].post(url, data, **HTMX)
        assert answer.status_code == 200
        assert f'<p role="status" class="chat-notice">{thanks}</p>' in answer.content.decode()
    else:
        answer = clients[users[0].pk].post(url, data)
        assert answer.status_code == 302
        assert answer.url == reverse("game", args=[game.pk]) + "#messages"
        page = clients[users[0].pk].get(answer.url).content.decode()
        assert 'id="messages"' in page and thanks in page
    refused = clients[users[0].pk].post(url, {"message": message.pk, "reason": ""}, **HTMX)
    assert "chat-notice" not in refused.content.decode()


# ---------------------------------------------------------------------------- the end


def test_the_ranking_is_numbered_once(users):
    game = play_to_end(started_game(users, 3, seed=21), random.Random(5))
    html = rendering.board_html(game, Visitor.of(game, users[0]), oob=False)
    ranking = html.split('class="ranking"', 1)[1].split("</section>", 1)[0]
    assert '<ol class="ranking"' not in html
    places = re.findall(r'<span class="place">(\d)\.</span>', ranking)
    assert places == sorted(str(player["place"]) for player in game.result["players"])
    assert not re.search(r"\d\.\s*\d\.", text_of(ranking))


def test_every_number_of_the_score_chart_is_unlocalized_in_french(users):
    game = play_to_end(started_game(users, 3, seed=21), random.Random(5))
    with translation.override("fr"):
        html = rendering.board_html(game, Visitor.of(game, users[0]), oob=False)
    chart = html.split('<figure class="score-chart">', 1)[1].split("</figure>", 1)[0]
    numbers = re.findall(r'\s(?:x|y|x1|x2|y1|y2|dy|width|height|viewBox|cx|cy|r)="([^"]*)"', chart)
    assert numbers
    for value in numbers:
        for number in value.split():
            assert re.fullmatch(r"-?\d+(\.\d+)?", number), f"{value!r} is not an SVG number"
    for name, value in re.findall(r'data-([a-z-]+)="([^"]*)"', html):
        if name in {"version", "value", "seat"}:
            assert re.fullmatch(r"\d+", value), f"data-{name}={value!r}"


# ---------------------------------------------------------------------------- colours


def board_tokens() -> dict[str, tuple[str, str]]:
    tokens = {}
    for sheet in (STATIC / "site.css", *BOARD_SHEETS):
        tokens.update(
            {name: (light, dark) for name, light, dark in TOKEN.findall(sheet.read_text())}
        )
    return tokens


BOARD_TEXT_ON = [
    ("card-text", "card-paper"),
    *(("card-text", f"tint-{kind}") for kind in (*CATEGORY_INKS, "church")),
    *(("on-ink", f"ink-{kind}") for kind in (*CATEGORY_INKS, "church")),
    ("text", "felt"),
    ("text-muted", "felt"),
]


def contrast(one: str, other: str) -> float:
    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted(map(luminance, (one, other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize(("text", "background"), BOARD_TEXT_ON)
def test_the_boards_text_colours_read_at_aa_contrast_in_both_themes(text, background, theme):
    side = 0 if theme == "light" else 1
    tokens = board_tokens()
    ratio = contrast(tokens[text][side], tokens[background][side])
    assert ratio >= 4.5, f"--{text} on --{background} in the {theme} theme: {ratio:.2f}:1"


@pytest.mark.parametrize("sheet", BOARD_SHEETS, ids=lambda sheet: sheet.parent.name)
def test_the_board_sheets_have_no_colour_outside_their_tokens(sheet):
    css = sheet.read_text()
    root = re.search(r":root\s*\{.*?\n\}", css, re.S)
    rest = css[: root.start()] + css[root.end() :]
    assert re.findall(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(", rest) == []


@pytest.mark.parametrize("sheet", BOARD_SHEETS, ids=lambda sheet: sheet.parent.name)
def test_hover_transitions_are_short_and_only_for_readers_who_welcome_motion(sheet):
    css = sheet.read_text()
    outside = re.sub(
        r"@media \(prefers-reduced-motion: no-preference\)\s*\{.*?\n\}", "", css, flags=re.S
    )
    assert "transition" not in outside and "animation" not in outside
    for duration in re.findall(r"(\d+)ms", css):
        assert int(duration) < 400
