"""`/api/games/<id>/analysis`: asking for a finished game's review and reading it (docs/api.md).

The best move each graded decision names was legal in its state; another seat's actions are
shown as the finished game's record shows them (a card given face down stays hidden, R22)."""

import json
import random

import pytest

from games.analysis import worker
from games.kinds.biblios import engine
from games.models import Analysis, Game
from tests.play import play_to_end, started_game

pytestmark = pytest.mark.django_db(transaction=True)
FIELDS = {"move", "seat", "action", "best", "best_hidden", "made_result", "best_result", "loss"}
FIELDS |= {"error", "grade"}


@pytest.fixture(autouse=True)
def quick(settings):
    settings.ANALYSIS_ROUNDS = 2


def finished(players, seed: int) -> Game:
    users = [player.user for player in players]
    return play_to_end(started_game(users, 2, seed=seed), random.Random(seed))


def test_a_player_asks_for_the_review_watches_it_queue_and_reads_every_graded_decision(players):
    game = finished(players, 11)
    path = f"/api/games/{game.pk}/analysis"
    missing = players[0].get(path)
    assert missing.status_code == 404 and "asked" in missing.data["error"]

    asked = players[0].post(path)
    assert asked.status_code == 202, asked.data
    assert asked.data["status"] == "queued" and asked.data["queue_position"] == 1
    assert players[1].post(path).data["status"] == "queued"  # the same analysis, not another
    assert Analysis.objects.count() == 1

    worker.drain()
    done = players[1].get(path)
    assert done.status_code == 200 and done.data["status"] == "done", done.data
    assert done.data["progress"]["done"] == done.data["progress"]["total"] > 0
    assert done.data["measure"] == "expected place"
    assert {seat["seat"] for seat in done.data["seats"]} == {0, 1}

    moves = list(game.moves.order_by("seq").values_list("seat", "action"))
    states = list(engine.steps(game.setup, moves))
    hidden_gifts = shown_best = 0
    for decision in done.data["decisions"]:
        assert set(decision) == FIELDS
        state, (seat, action) = states[decision["move"] - 1], moves[decision["move"] - 1]
        assert decision["seat"] == seat
        legal = engine.legal_actions(state, seat)
        if seat == 1:  # the reader's own decisions, whole
            assert decision["action"] == action and decision["best"] in legal
        else:  # another's: as the record shows them to this reader
            assert decision["best_hidden"] == (decision["best"] is None)
            shown_best += decision["best"] is not None
            for shown in filter(None, (decision["action"], decision["best"])):
                assert shown == engine.public_action(seat, shown, 1)
                if shown["type"] == "give":
                    hidden_gifts += 1
                    assert shown["card"] is None
                else:
                    assert shown in legal
    assert hidden_gifts, "no gift by the other seat was graded: the redaction went untested"
    assert shown_best, "no best move of the other seat was shown at all"
    record = players[1].get(f"/api/games/{game.pk}/record").data
    assert record["analysis"] == done.data  # the export carries the review, read alike


def test_a_review_of_a_game_not_over_is_refused_and_changes_nothing(players):
    game = started_game([player.user for player in players], 2, seed=12)
    assert "analysis" not in players[0].get(f"/api/games/{game.pk}/record").data
    refused = players[0].post(f"/api/games/{game.pk}/analysis")
    assert refused.status_code == 409 and "finished" in refused.data["error"]
    assert not Analysis.objects.exists()
    assert players[0].post("/api/games/999999/analysis").status_code == 404


def test_another_seats_best_move_naming_a_card_never_shown_is_withheld(players):
    """A best move found was never played, so it may name what the game never showed (R1, R22):
    another reader gets null and `best_hidden`; its own seat reads it whole."""
    game = finished(players, 13)
    removed = engine.replay(game.setup, [])
    never_seen = removed.removed[0]  # R1: no player ever sees it
    made = game.moves.get(seq=3)
    decision = {
        "move": 3,
        "seat": made.seat,
        "action": made.action,
        "best": {"type": "pay", "cards": [never_seen]},
        "made_result": 1.5,
        "best_result": 1.0,
        "loss": 0.5,
        "error": 0.1,
        "grade": "blunder",
    }
    Analysis.objects.create(
        game=game,
        status=Analysis.Status.DONE,
        rounds=1,
        result={"measure": "expected place", "seats": [], "decisions": [decision]},
    )
    path = f"/api/games/{game.pk}/analysis"
    other = players[1 - made.seat].get(path).data["decisions"][0]
    assert other["best"] is None and other["best_hidden"] is True
    assert never_seen not in json.dumps(players[1 - made.seat].get(path).data)
    own = players[made.seat].get(path).data["decisions"][0]
    assert own["best"] == decision["best"] and own["best_hidden"] is False
