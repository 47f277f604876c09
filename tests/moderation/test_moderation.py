"""Moderation in the admin: ban, mute, abort, the inspector and its integrity check, the trail."""

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken
from biblios_site import errors
from games.kinds.biblios import engine as biblios
from games.models import Game, ModerationAction, Move
from games.moderation import services as moderation
from games.play import rendering
from games.play import services as play_services
from tests.play import play_to_end, started_game
from tests.web.helpers import card_ids_in

from .conftest import run_action

pytestmark = pytest.mark.django_db

USERS = "admin:accounts_user_changelist"
GAMES = "admin:games_game_changelist"


def logged(kind, **filters) -> list[ModerationAction]:
    return list(ModerationAction.objects.filter(kind=kind, **filters))


def test_ban_closes_the_web_the_login_and_the_api(users, moderator, admin_browser):
    player = users[1]
    browser = Client()
    browser.force_login(player)
    _, token = ApiToken.issue(player, "bot")
    assert browser.get(reverse("my_games")).status_code == 200
    response = run_action(admin_browser, USERS, "ban_users", [player], reason="cheating")
    assert "Ban users: done for 1" in response.content.decode()
    player.refresh_from_db()
    assert not player.is_active and player.ban_reason == "cheating"
    [action] = logged(ModerationAction.Kind.BAN, user=player)
    assert action.moderator == moderator and action.reason == "cheating"
    # The old session no longer counts, a new log in fails, the token is refused.
    assert browser.get(reverse("my_games")).status_code == 302
    login = Client().post(
        reverse("accounts:login"), {"username": player.username, "password": "pw-monk"}
    )
    assert login.status_code == 200 and "_auth_user_id" not in login.client.session
    api = Client().get("/api/tables", headers={"Authorization": f"Bearer {token}"})
    assert api.status_code == 401
    # Lifting the ban is logged too and lets the player back in.
    run_action(admin_browser, USERS, "unban_users", [player], reason="appeal accepted")
    player.refresh_from_db()
    assert player.is_active and player.ban_reason == ""
    assert len(logged(ModerationAction.Kind.UNBAN, user=player)) == 1


def test_an_action_without_a_reason_changes_nothing(users, admin_browser):
    response = run_action(admin_browser, USERS, "ban_users", [users[1]], reason="  ")
    assert "This field is required" in response.content.decode()
    users[1].refresh_from_db()
    assert users[1].is_active and not ModerationAction.objects.exists()


def test_moderators_cannot_ban_themselves_or_non_staff_moderate(users, moderator):
    with pytest.raises(errors.ServiceError):
        moderation.ban_user(moderator.pk, moderator, "oops")
    with pytest.raises(errors.NotAllowed):
        moderation.ban_user(users[1].pk, users[0], "not a moderator")
    assert not ModerationAction.objects.exists()


def test_mute_for_a_period_and_unmute(users, moderator, admin_browser):
    run_action(admin_browser, USERS, "mute_users", [users[1]], reason="insults", period="24h")
    users[1].refresh_from_db()
    remaining = users[1].muted_until - timezone.now()
    assert 23.9 * 3600 < remaining.total_seconds() <= 24 * 3600 and users[1].muted()
    [action] = logged(ModerationAction.Kind.MUTE, user=users[1])
    assert action.detail["until"] == users[1].muted_until.isoformat()
    muted = admin_browser.get(reverse(USERS), {"muted": "yes"}).content.decode()
    assert users[1].username in muted and users[2].username not in muted
    bad = run_action(admin_browser, USERS, "mute_users", [users[2]], reason="x", period="9y")
    assert "Select a valid choice" in bad.content.decode()
    run_action(admin_browser, USERS, "unmute_users", [users[1]], reason="served")
    users[1].refresh_from_db()
    assert not users[1].muted() and len(logged(ModerationAction.Kind.UNMUTE)) == 1


def test_abort_a_game_in_progress(users, moderator, admin_browser):
    game = started_game(users, 2, seed=3)
    finished = play_to_end(started_game(users[2:], 2, seed=3), random.Random(3))
    response = run_action(admin_browser, GAMES, "abort_games", [game, finished], reason="dispute")
    html = response.content.decode()
    assert "Abort games: done for 1" in html and "finished already" in html
    game.refresh_from_db()
    finished.refresh_from_db()
    assert game.status == Game.Status.ABORTED and finished.status == Game.Status.FINISHED
    [action] = logged(ModerationAction.Kind.ABORT_GAME)
    assert action.game == game and action.moderator == moderator and action.reason == "dispute"
    player = Client()
    player.force_login(users[0])
    page = player.get(reverse("game", args=[game.pk])).content.decode()
    assert str(rendering.ABORTED_TEXT) in page and "/act/" not in page
    with pytest.raises(errors.Conflict):
        play_services.submit_action(
            game.pk, users[1], {"type": "place", "to": "self"}, version=game.version
        )


def test_the_trail_shows_on_the_user_and_the_game(users, moderator, admin_browser):
    game = started_game(users, 2)
    moderation.abort_game(game.pk, moderator, "players asked to stop")
    moderation.mute_user(users[1].pk, moderator, "1h", "spam in chat")
    user_page = admin_browser.get(reverse("admin:accounts_user_change", args=[users[1].pk]))
    assert "spam in chat" in user_page.content.decode() and "Muted" in user_page.content.decode()
    assert f"seats__user__id__exact={users[1].pk}" in user_page.content.decode()
    game_page = admin_browser.get(reverse("admin:games_game_change", args=[game.pk]))
    assert "players asked to stop" in game_page.content.decode()
    trail = admin_browser.get(reverse("admin:games_moderationaction_changelist"))
    assert trail.status_code == 200 and "spam in chat" in trail.content.decode()


def test_game_list_filters_and_read_only_moves(users, admin_browser):
    game = play_to_end(started_game(users, 2, seed=2), random.Random(2))
    other = started_game(users[2:], 2)
    listing = admin_browser.get(reverse(GAMES), {"status": "finished"}).content.decode()
    assert f"/admin/games/game/{game.pk}/change/" in listing
    assert f"/admin/games/game/{other.pk}/change/" not in listing
    by_player = admin_browser.get(reverse(GAMES), {"seats__user__id__exact": users[2].pk})
    assert f"/admin/games/game/{other.pk}/change/" in by_player.content.decode()
    page = admin_browser.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "Inspect every move" in page and 'name="moves-0-action"' not in page
    before = Move.objects.filter(game=game).count()
    admin_browser.post(reverse("admin:games_game_change", args=[game.pk]), {"status": "open"})
    assert Move.objects.filter(game=game).count() == before
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


# ----------------------------------------------------------------------------- inspector


def inspect_url(game, **query):
    url = reverse("admin:games_game_inspect", args=[game.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_inspector_is_for_staff_and_shows_every_card(users, admin_browser):
    game = play_to_end(started_game(users, 2, seed=5), random.Random(5))
    assert Client().get(inspect_url(game)).status_code == 302
    player = Client()
    player.force_login(users[0])
    assert player.get(inspect_url(game)).status_code == 302
    html = admin_browser.get(inspect_url(game, move=3)).content.decode()
    state = moderation.check_integrity(game).states[3]
    assert "integrity-ok" in html and 'aria-current="step"' in html
    # Everything: the removed cards, the draw pile in order, every hand.
    assert set(state.removed) <= card_ids_in(html)
    assert set(state.draw_pile) <= card_ids_in(html)
    for hand in state.hands:
        assert set(hand) <= card_ids_in(html)
    assert admin_browser.get(inspect_url(game, move="zz")).status_code == 200
    assert admin_browser.get(reverse("admin:games_game_inspect", args=[99999])).status_code == 404


def _other_legal_action(game, seq):
    """A different action, legal at the step before move `seq`, by the same seat."""
    moves = list(game.moves.order_by("seq").values_list("seat", "action"))
    state = biblios.replay(game.setup, moves[: seq - 1])
    seat, played = moves[seq - 1]
    return next((a for a in biblios.legal_actions(state, seat) if a != played), None)


def test_integrity_check_finds_the_first_tampered_move(users, admin_browser):
    game = play_to_end(started_game(users, 2, seed=6), random.Random(6))
    assert moderation.check_integrity(game).ok
    seq = next(s for s in range(10, game.version) if _other_legal_action(game, s))
    Move.objects.filter(game=game, seq=seq).update(action=_other_legal_action(game, seq))
    found = moderation.check_integrity(game)
    assert not found.ok and found.first_divergence == seq
    assert len(found.states) == seq  # the deal and the moves before it
    html = admin_browser.get(inspect_url(game)).content.decode()
    assert f"Move {seq} diverges" in html
    # An illegal action is caught by the engine itself.
    Move.objects.filter(game=game, seq=seq).update(action={"type": "bid", "amount": 99})
    found = moderation.check_integrity(game)
    assert found.first_divergence == seq and "refuses" in found.problem


def test_integrity_check_finds_a_tampered_state_or_a_missing_move(users):
    game = play_to_end(started_game(users, 2, seed=6), random.Random(6))
    Game.objects.filter(pk=game.pk).update(state=game.state.replace('"dice":[', '"dice":[6,', 1))
    game.refresh_from_db()
    found = moderation.check_integrity(game)
    assert found.problem == "the stored state differs from the replayed log"
    Move.objects.filter(game=game, seq=7).delete()
    found = moderation.check_integrity(game)
    assert found.first_divergence == 7 and "missing" in found.problem
