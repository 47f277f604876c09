"""Table chat: separate channels, flood and repeat limits, length, mute, reports, hiding."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.chat import services as chat
from games.models import ChatMessage, ModerationAction, Report
from games.moderation import services as moderation
from tests.moderation.conftest import run_action
from tests.play import started_game

pytestmark = pytest.mark.django_db


def browser(user):
    client = Client()
    client.force_login(user)
    return client


def say(user, game, text, *, htmx=True):
    headers = {"HX-Request": "true"} if htmx else {}
    return browser(user).post(reverse("game_chat", args=[game.pk]), {"text": text}, headers=headers)


def page(user, game) -> str:
    return browser(user).get(reverse("game", args=[game.pk])).content.decode()


def test_players_and_spectators_talk_apart_until_the_game_is_over(users, moderator):
    game = started_game(users, 2)
    assert say(users[0], game, "good luck").status_code == 200
    assert say(users[2], game, "seat 0 holds gold").status_code == 200
    assert ChatMessage.objects.get(text="good luck").channel == "players"
    assert ChatMessage.objects.get(text="seat 0 holds gold").channel == "spectators"
    player_page, watcher_page = page(users[1], game), page(users[3], game)
    assert "good luck" in player_page and "seat 0 holds gold" not in player_page
    assert "seat 0 holds gold" in watcher_page and "good luck" not in watcher_page
    assert "Message to the players" in player_page and "Message to the spectators" in watcher_page
    moderation.abort_game(game.pk, moderator, "test over")
    after = page(users[1], game)
    assert "good luck" in after and "seat 0 holds gold" in after


def test_flood_and_repeat_limits(users):
    game = started_game(users, 2)
    for text in ("a", "b"):
        assert say(users[0], game, text).status_code == 200
    refused = say(users[0], game, "a")
    assert refused.status_code == 400 and "You just said that." in refused.content.decode()
    for text in ("c", "a", "d"):  # "a" is no longer one of the last two
        assert say(users[0], game, text).status_code == 200
    flood = say(users[0], game, "e")
    assert (
        flood.status_code == 429 and "At most 5 messages per 10 seconds" in flood.content.decode()
    )
    assert ChatMessage.objects.count() == 5
    # Another user is not slowed down; ten seconds later the first may talk again.
    assert say(users[1], game, "e").status_code == 200
    ChatMessage.objects.filter(user=users[0]).update(
        created_at=timezone.now() - datetime.timedelta(seconds=11)
    )
    assert say(users[0], game, "e").status_code == 200


@pytest.mark.parametrize(
    "language, text",
    [
        ("fr", "Au plus 5 messages en 10 secondes ; patientez un instant."),
        ("es", "Como máximo 5 mensajes cada 10 segundos; espera un momento."),
    ],
)
def test_the_flood_refusal_speaks_the_readers_language(users, language, text):
    users[0].language = language
    users[0].save(update_fields=["language"])
    game = started_game(users, 2)
    for number in range(5):
        assert say(users[0], game, f"message {number}").status_code == 200
    flood = say(users[0], game, "one too many")
    assert flood.status_code == 429 and text in flood.content.decode()


def test_length_empty_and_plain_post(users):
    game = started_game(users, 2)
    long = say(users[0], game, "x" * (chat.MAX_LENGTH + 1))
    assert long.status_code == 400
    assert f"at most {chat.MAX_LENGTH} characters (yours has {chat.MAX_LENGTH + 1})" in (
        long.content.decode()
    )
    assert say(users[0], game, "   ").status_code == 400
    plain = say(users[0], game, "hello", htmx=False)
    assert plain.status_code == 302 and plain["Location"].endswith("#chat")
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["hello"]
    assert Client().post(reverse("game_chat", args=[game.pk]), {"text": "hi"}).status_code == 302
    private = started_game(users[2:], 2, private=True)
    assert say(users[0], private, "let me in").status_code == 403


def test_muted_users_are_told_and_cannot_post(users, moderator):
    game = started_game(users, 2)
    moderation.mute_user(users[0].pk, moderator, "1h", "rude")
    refused = say(users[0], game, "hello")
    assert refused.status_code == 403 and "A moderator muted you until" in refused.content.decode()
    follow = browser(users[0]).post(
        reverse("game_chat", args=[game.pk]), {"text": "hi"}, follow=True
    )
    assert "A moderator muted you until" in follow.content.decode()
    assert not ChatMessage.objects.exists()


def test_reports_record_game_and_move_and_reach_the_queue(users, moderator):
    game = started_game(users, 2)
    say(users[1], game, "you are bad")
    message = ChatMessage.objects.get()
    report_url = reverse("game_report", args=[game.pk])
    reporter = browser(users[0])
    answer = reporter.post(report_url, {"message": message.pk, "reason": "insult"})
    assert answer.status_code == 302
    answer = reporter.post(report_url, {"user": users[1].pk, "reason": "stalling"})
    first, second = Report.objects.order_by("pk")
    assert (first.message, first.reported_user, first.move_number) == (message, users[1], 0)
    assert (second.message, second.reported_user, second.game) == (None, users[1], game)
    for bad in (
        {"user": users[0].pk, "reason": "me"},
        {"reason": "nothing"},
        {"user": "x", "reason": "r"},
        {"message": message.pk, "user": users[1].pk, "reason": "both"},
        {"user": users[1].pk, "reason": ""},
    ):
        response = reporter.post(report_url, bad, headers={"HX-Request": "true"})
        assert response.status_code in (400, 404), bad
    # A spectator cannot report a message they could not read.
    assert (
        browser(users[2])
        .post(report_url, {"message": message.pk, "reason": "x"}, headers={"HX-Request": "true"})
        .status_code
        == 404
    )
    assert Report.objects.count() == 2
    admin = browser(moderator)
    queue = admin.get(reverse("admin:games_report_changelist"), {"status": "open"}).content.decode()
    inspect = reverse("admin:games_game_inspect", args=[game.pk])
    assert f"{inspect}?move=0" in queue
    run_action(admin, "admin:games_report_changelist", "resolve_reports", [first], reason="warned")
    first.refresh_from_db()
    assert first.status == Report.Status.RESOLVED
    assert ModerationAction.objects.get(kind="resolve_report").reason == "warned"
    user_page = admin.get(
        reverse("admin:accounts_user_change", args=[users[1].pk])
    ).content.decode()
    assert "2 against them" in user_page


def test_a_moderator_hides_a_message(users, moderator):
    game = started_game(users, 2)
    say(users[1], game, "something nasty")
    message = ChatMessage.objects.get()
    admin = browser(moderator)
    run_action(
        admin, "admin:games_chatmessage_changelist", "hide_messages", [message], reason="abuse"
    )
    message.refresh_from_db()
    assert message.hidden
    shown = page(users[0], game)
    assert "something nasty" not in shown and "hidden by a moderator" in shown
    action = ModerationAction.objects.get(kind="hide_message")
    assert (action.user, action.game, action.moderator) == (users[1], game, moderator)
