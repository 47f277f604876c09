"""A ban hands the banned player's tables on, as if they had left each one: the stand-in bot
takes their seats in running games (which go on, the turn worker moving for it, each log
saying so in every language), their waiting tables close and their seats at others' open
tables free up. The banned person is told at log-in why (only with the right password), and a
muted player is told why and until when."""

import html
import importlib
import random
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.template import Context
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.access import Visitor
from games.kinds import registry
from games.models import Game, ModerationAction, Move
from games.moderation import services as moderation
from games.play import seat_notes
from games.play import selectors as play_selectors
from games.play import services as play_services
from games.tables import selectors as tables_selectors
from games.tables import services as tables_services
from notifications import texts
from notifications.models import Notification
from tests.moderation.conftest import run_action
from tests.play import started_game
from tests.turns.conftest import quick_bots  # noqa: F401  (bots move at once)
from tests.turns.helpers import acting_seat, bot_table, play_until_idle

pytestmark = pytest.mark.django_db

SUSPENDED = {
    "en": "Monk 1's account was suspended: a bot plays their seat.",
    "fr": "Le compte de Monk 1 a été suspendu : un bot joue à sa place.",
    "es": "La cuenta de Monk 1 fue suspendida: un bot juega en su lugar.",
}


def waiting_on(game: Game, user, rng: random.Random) -> Game:
    """Play random moves of the others until `game` waits on `user` (the ban's moment)."""
    while (seat := acting_seat(game)).user != user:
        board = play_selectors.board_for(game, Visitor.of(game, seat.user))
        action = rng.choice(board["legal_actions"])
        play_services.submit_action(game.pk, seat.user, action, version=game.version)
    return game


def log_lines(game: Game, reader, language: str) -> list[str]:
    """The lines of the game's log page as `reader` reads it in `language`, newest first."""
    client = Client(headers={"accept-language": language})
    client.force_login(reader)
    page = client.get(reverse("game_log", args=[game.pk]))
    assert page.status_code == 200
    lines = re.findall(r"<li>(.*?)</li>", page.content.decode().split('class="log"')[1], re.S)
    return [
        html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", line))).strip() for line in lines
    ]


@pytest.fixture
def tables(users):
    """Monk 1's tables when the moderators ban him: a live untimed game and a turn-based game,
    each waiting on his move; a game against a bot, stuck on his move; a table he hosts that
    has not started, and another's open table where he sits."""
    ada, banned, basil, clio = users
    rng = random.Random(4)
    live = waiting_on(started_game([ada, banned], 2, seed=4), banned, rng)
    turn_based = waiting_on(
        started_game([banned, basil], 2, seed=5, turn_seconds=86400), banned, rng
    )
    against_bot = bot_table(banned, ["novice"], seed=2)
    play_until_idle()
    against_bot.refresh_from_db()
    hosted = tables_services.create_table(banned, tables_services.TableSettings(3))
    tables_services.join_table(hosted.pk, clio)
    elsewhere = tables_services.create_table(clio, tables_services.TableSettings(3))
    tables_services.join_table(elsewhere.pk, banned)
    return {
        "banned": banned,
        "live": live,
        "turn_based": turn_based,
        "against_bot": against_bot,
        "hosted": hosted,
        "elsewhere": elsewhere,
    }


def test_a_ban_hands_the_seats_to_the_bot_and_the_games_go_on(tables, moderator):
    banned = tables["banned"]
    stuck = tables["against_bot"]
    assert stuck.status == Game.Status.ACTIVE and stuck.due_at is None  # waits on him for good
    lobby = tables_selectors.lobby_tables(None)
    assert stuck in lobby["games_in_progress"] and tables["hosted"] in lobby["open_tables"]

    moderation.ban_user(banned.pk, moderator, "cheating")

    games = [tables[name] for name in ("live", "turn_based", "against_bot")]
    versions = {}
    for game in games:
        game.refresh_from_db()
        seat = game.seats.get(user=banned)
        assert seat.bot_level == registry.of(game).stand_in and seat.taken_over
        assert game.due_at is not None, f"game {game.pk}: nobody moves for him"
        versions[game.pk] = game.version
    assert play_until_idle() >= 3  # the turn worker plays his seats
    for game in games:
        game.refresh_from_db()
        seat = game.seats.get(user=banned)
        assert game.version > versions[game.pk], f"game {game.pk}: the bot did not move"
        first = game.moves.get(seq=versions[game.pk] + 1)
        assert (first.seat, first.played_by) == (seat.position, Move.PlayedBy.TAKEOVER)
    assert play_selectors.your_turn_count(banned) == 0
    # The game against the bot played itself out; the lobby no longer lists it in progress.
    stuck.refresh_from_db()
    assert stuck.status == Game.Status.FINISHED
    lobby = tables_selectors.lobby_tables(None)
    assert stuck not in lobby["games_in_progress"]
    # His waiting table is closed (as its host leaving closes it), his seat elsewhere free.
    hosted, elsewhere = tables["hosted"], tables["elsewhere"]
    hosted.refresh_from_db()
    elsewhere.refresh_from_db()
    assert hosted.status == Game.Status.ABORTED and hosted not in lobby["open_tables"]
    assert elsewhere.status == Game.Status.OPEN and not elsewhere.seats.filter(user=banned)
    assert elsewhere in lobby["open_tables"]
    # One record of the ban, and one per game whose seat the bot took (its log's source).
    records = ModerationAction.objects.filter(kind=ModerationAction.Kind.BAN, user=banned)
    assert sorted(records.exclude(game=None).values_list("game_id", flat=True)) == sorted(
        tables[name].pk for name in ("live", "turn_based", "against_bot")
    )
    assert records.filter(game=None).count() == 1


def test_each_games_log_says_the_bot_took_the_seat_in_every_language(tables, moderator, users):
    banned, live = tables["banned"], tables["live"]
    other = users[0]
    before = log_lines(live, other, "en")
    moderation.ban_user(banned.pk, moderator, "cheating")
    for language, line in SUSPENDED.items():
        assert log_lines(live, other, language)[0] == line
    assert log_lines(live, other, "en")[1:] == before
    assert "cheating" not in " ".join(log_lines(live, other, "en"))
    play_until_idle()  # the bot's move comes after the line, newest first
    lines = log_lines(live, other, "en")
    assert SUSPENDED["en"] in lines and lines[0] != SUSPENDED["en"]


def test_unbanned_they_may_take_a_seat_back(tables, moderator):
    banned, turn_based = tables["banned"], tables["turn_based"]
    moderation.ban_user(banned.pk, moderator, "cheating")
    moderation.unban_user(banned.pk, moderator, "appeal accepted")
    banned.refresh_from_db()
    play_services.take_seat_back(turn_based.pk, banned)
    assert not turn_based.seats.get(user=banned).bot_level


# ------------------------------------------------------------------------ logging in


def log_in(username: str, password: str, language: str = "en") -> str:
    client = Client(headers={"accept-language": language})
    page = client.post(reverse("accounts:login"), {"username": username, "password": password})
    assert page.status_code == 200 and "_auth_user_id" not in client.session
    return re.sub(r"\s+", " ", page.content.decode())


USUAL = "Please enter a correct username and password"


def test_a_banned_player_is_told_why_at_log_in_only_with_the_right_password(users, moderator):
    banned = users[1]
    moderation.ban_user(banned.pk, moderator, "Insulting players <again>")
    page = log_in(banned.username, "pw-monk")
    assert "This account is suspended: Insulting players &lt;again&gt;" in page
    assert "The suspension has no end date: it lasts until the moderators lift it." in page
    assert USUAL not in page
    french = log_in(banned.username, "pw-monk", "fr")
    assert "Ce compte est suspendu : Insulting players &lt;again&gt;" in french
    assert "elle dure jusqu’à ce que les modérateurs la lèvent" in french
    # A wrong password, or a name nobody has, gets the usual answer and says nothing more.
    for username, password in ((banned.username, "wrong"), ("nobody", "pw-monk")):
        page = log_in(username, password)
        assert USUAL in page and "suspended" not in page and "Insulting" not in page


def test_the_right_password_of_a_player_not_banned_still_logs_in(users):
    client = Client()
    client.post(reverse("accounts:login"), {"username": users[2].username, "password": "pw-monk"})
    assert int(client.session["_auth_user_id"]) == users[2].pk


# ---------------------------------------------------------------------------- muting


def test_a_muted_player_is_told_why_and_until_when(
    users, moderator, admin_browser, django_capture_on_commit_callbacks
):
    player = users[2]
    player.email, player.language = "monk2@example.org", "fr"
    player.save()
    with django_capture_on_commit_callbacks(execute=True):
        run_action(
            admin_browser,
            "admin:accounts_user_changelist",
            "mute_users",
            [player],
            reason="Spam in the chat",
            period="24h",
        )
    player.refresh_from_db()
    (notice,) = Notification.objects.filter(recipient=player)
    assert notice.event == Notification.Event.MUTED and notice.read_at is None
    assert notice.text == "Spam in the chat" and notice.until == player.muted_until
    assert player.muted_until - timezone.now() > timedelta(hours=23)
    with translation.override("en"):
        english = texts.text_of(notice)
    until = player.muted_until
    assert english.title == "You are muted in table chats"
    assert re.fullmatch(
        rf"A moderator muted you in table chats until \w+\.? {until.day}, {until.year}, "
        r"[\d:]+ [ap]\.m\. \(UTC\)\. Reason: Spam in the chat",
        english.body,
    ), english.body
    french = texts.render(notice)  # her language, as her e-mail
    assert french.title == "Vous êtes réduit au silence dans les discussions des tables"
    assert "Motif : Spam in the chat" in french.body
    assert [m.subject for m in mail.outbox] == [french.title]


@pytest.mark.parametrize("kind", ["biblios", "exlibris"])
def test_every_kinds_log_says_it_alike(kind):
    """The line is the platform's: each kind's log tag hands it over, escaped."""
    tags = importlib.import_module(f"games.kinds.{kind}.templatetags.{kind}_board")
    event = {"type": seat_notes.SUSPENDED, "seat": 1}
    context = Context({"names": ["Ada", "<b>Eve</b>"], "me": 0, "game": Game(variant=kind)})
    with translation.override("en"):
        line = tags.log_line(context, event)
    assert line == "&lt;b&gt;Eve&lt;/b&gt;&#x27;s account was suspended: a bot plays their seat."
