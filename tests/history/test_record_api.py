"""`GET /api/games/<id>/record`: the whole record once finished, only a seat's share before.
A finished record's secrecy is checked through both its doors: the API and the page's download
(`/games/<id>/record/`)."""

import json
import random

import pytest
from django.test import Client

from accounts.models import ApiToken
from games.access import Visitor
from games.kinds.biblios import engine as biblios
from games.models import Game
from games.play import selectors, services
from tests.api.conftest import ApiClient
from tests.play import play_to_end, started_game
from tests.web.helpers import Knowledge, card_ids_in

pytestmark = pytest.mark.django_db


def api_for(user) -> ApiClient:
    return ApiClient(ApiToken.issue(user, "tests")[1], user)


def record(client: ApiClient, game_id: int):
    return client.get(f"/api/games/{game_id}/record")


def finished_records(user, game_id: int) -> dict:
    """A finished game's record as `user` reads it through each door, by door."""
    browser = Client()
    browser.force_login(user)
    downloaded = browser.get(f"/games/{game_id}/record/")
    assert downloaded.status_code == 200, downloaded.content[:300]
    return {
        "api": record(api_for(user), game_id).data,
        "download": json.loads(downloaded.content),
    }


def test_a_finished_record_replays_to_the_stored_game_for_staff(users):
    game = play_to_end(started_game(users, 2, seed=7), random.Random(7))
    users[3].is_staff = True
    users[3].save(update_fields=["is_staff"])
    response = record(api_for(users[3]), game.pk)
    assert response.status_code == 200
    data = response.data
    assert data["complete"] is True
    assert data["status"] == "finished" and data["result"] == game.result
    assert (data["kind"], data["variant"], data["options"]) == ("biblios", "biblios", game.options)
    assert [m["seq"] for m in data["moves"]] == list(range(1, game.version + 1))
    replayed = biblios.replay(data["setup"], [(m["seat"], m["action"]) for m in data["moves"]])
    assert biblios.dumps(replayed) == game.state
    assert [p["name"] for p in data["players"]] == ["Reader 0", "Reader 1"]
    # The result was copied onto the seats for the history filters.
    winners = set(game.result["winners"])
    assert {s.position for s in game.seats.filter(won=True)} == winners
    assert all(s.place == game.result["players"][s.position]["place"] for s in game.seats.all())


def test_a_running_record_holds_only_what_the_seat_knows(users):
    game = started_game(users, 3, seed=11)
    rng = random.Random(11)
    knowledge = Knowledge(3)
    knowledge.update(game.engine_state())
    by_seat = {s.position: s.user for s in game.seats.select_related("user")}
    for _ in range(60):
        game.refresh_from_db()
        seat = biblios.to_act(game.engine_state())[0]
        board = selectors.board_for(game, Visitor.of(game, by_seat[seat]))
        services.submit_action(
            game.pk, by_seat[seat], rng.choice(board["legal_actions"]), version=board["version"]
        )
        game.refresh_from_db()
        knowledge.update(game.engine_state())
    for seat, user in [*by_seat.items(), (None, users[3])]:
        data = record(api_for(user), game.pk).data
        assert data["status"] == "active"
        assert "moves" not in data and "setup" not in data and "result" not in data
        assert data["seat"] == seat
        assert len(data["events"]) == game.version + 1
        leaked = card_ids_in(json.dumps(data)) & knowledge.hidden(seat)
        assert not leaked, (seat, sorted(leaked))
    # Seats know different things, so their records differ.
    assert record(api_for(by_seat[0]), game.pk).data != record(api_for(by_seat[1]), game.pk).data


def test_record_refusals(users):
    private = started_game(users, 2, private=True)
    closed = started_game(users[2:], 2, spectators_allowed=False)
    outsider = api_for(users[3])  # seated only at the closed table
    assert record(outsider, private.pk).status_code == 403
    assert record(api_for(users[0]), private.pk).status_code == 200
    assert record(api_for(users[0]), closed.pk).status_code == 403
    assert record(outsider, 999999).status_code == 404
    assert record(ApiClient(None), private.pk).status_code == 401
    assert record(ApiClient("wrong"), private.pk).status_code == 401
    response = outsider.post(f"/api/games/{private.pk}/record", {})
    assert response.status_code == 405
    assert Game.objects.get(pk=private.pk).status == Game.Status.ACTIVE


def test_a_finished_public_record_hides_the_removed_cards_and_face_down_payments(users):
    """R1: removed cards are never shown, so no seed or deck; R12/R22: the card another player
    discarded face down for a Gold card stays theirs alone, even after the game."""
    game = play_to_end(started_game(users, 2, seed=7), random.Random(7))
    all_moves = list(game.moves.order_by("seq").values_list("seat", "action"))
    gives = [(seat, action["card"]) for seat, action in all_moves if action["type"] == "give"]
    assert gives, "this seed's game pays for a Gold card: pick another seed if the engine changed"
    removed = biblios.view(biblios.loads(game.state), "all")["zones"]["removed"]
    giver = game.seats.get(position=gives[0][0]).user
    for reader in (users[3], giver):
        for door, data in finished_records(reader, game.pk).items():
            assert data["complete"] is False, door
            assert "seed" not in data["setup"] and "deck" not in data["setup"], door
            text = json.dumps(data)
            assert not set(card_ids_in(text)) & set(removed), door
            shown = [m["action"]["card"] for m in data["moves"] if m["action"]["type"] == "give"]
            mine = [card for seat, card in gives if reader == giver and seat == gives[0][0]]
            assert [card for card in shown if card is not None] == mine, door
