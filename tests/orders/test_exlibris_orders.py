"""Ex Libris' standing orders at a turn-based table: an answer given in advance to what other
players' moves ask of you, for the round: pass at their Yard Sales (X51). Played through the
service layer, the order answers every Yard Sale its player is offered, and ends with its
round, its player telling it again for the next."""

import random

import pytest

from games.kinds import registry
from games.models import Game, Move
from games.play import services
from tests.orders.helpers import DAY, board
from tests.play import make_users, seated_users, started_game

pytestmark = pytest.mark.django_db


@pytest.mark.slow(seconds=25)
def test_pass_at_yard_sales_answers_every_offer_and_ends_with_its_round(django_user_model):
    users = make_users(django_user_model, "reader", count=3)
    game = started_game(users, 3, seed=6, kind="exlibris", turn_seconds=DAY)
    engine = registry.of(game).engine
    by_seat = seated_users(game)
    rng = random.Random(6)
    asked_in_person = 0
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        holding = set(game.standing_orders.filter(ended_at=None).values_list("seat", flat=True))
        for seat in set(by_seat) - holding:  # each round, every player says it again
            services.give_order(game.pk, by_seat[seat], "yard_pass", {}, version=game.version)
        seat = engine.to_act(game.engine_state())[0]
        view = board(game, by_seat[seat])
        asked_in_person += (view["pending"] or {}).get("kind") == "yard_claim"
        action = rng.choice(view["legal_actions"])
        services.submit_action(game.pk, by_seat[seat], action, version=game.version)
    played = list(game.moves.filter(played_by=Move.PlayedBy.ORDER).values_list("action", flat=True))
    assert played and all(action == {"type": "pass"} for action in played)
    assert asked_in_person == 0, "a Yard Sale asked a player whose order was on"
    ends = set(game.standing_orders.values_list("end_reason", flat=True))
    assert ends == {"round_over", "game_over"}
