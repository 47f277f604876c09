"""The service layer: tables, starting, and submit_action's guarantees."""

import random

import pytest

from games import errors, moderation, services
from games.engine import biblios
from games.models import Game, Move
from tests.play import play_to_end, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"player{i}", password="x") for i in range(4)]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_a_full_game_through_the_service_is_its_move_log(players, num_players):
    game = play_to_end(started_game(players, num_players), random.Random(num_players))
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"]
    assert game.moves.count() == game.version
    assert moderation.check_integrity(game).problem == ""


def test_stale_version_is_refused_and_changes_nothing(players):
    game = started_game(players)
    state = game.engine_state()
    seat = biblios.to_act(state)[0]
    user = game.seats.get(position=seat).user
    action = biblios.legal_actions(state, seat)[0]
    services.submit_action(game.pk, user, action, version=0)
    with pytest.raises(errors.StaleVersion) as refused:
        services.submit_action(game.pk, user, action, version=0)
    assert refused.value.current_version == 1
    assert Move.objects.filter(game=game).count() == 1


def test_illegal_action_names_the_rule_and_changes_nothing(players):
    game = started_game(players)
    seat = biblios.to_act(game.engine_state())[0]
    user = game.seats.get(position=seat).user
    with pytest.raises(errors.IllegalMove, match="R3: a 'bid' action is not possible now"):
        services.submit_action(game.pk, user, {"type": "bid", "amount": 2}, version=0)
    game.refresh_from_db()
    assert game.version == 0 and not game.moves.exists()


def test_only_seated_players_may_move(players, django_user_model):
    game = started_game(players)
    outsider = django_user_model.objects.create_user("outsider", password="x")
    with pytest.raises(errors.NotAllowed):
        services.submit_action(game.pk, outsider, {"type": "place", "to": "self"}, version=0)
    not_their_turn = next(
        seat.user
        for seat in game.seats.all()
        if seat.position not in biblios.to_act(game.engine_state())
    )
    with pytest.raises(errors.IllegalMove, match="turn"):
        services.submit_action(game.pk, not_their_turn, {"type": "place", "to": "self"}, version=0)


def test_table_lifecycle_rules(players):
    game = services.create_table(players[0], services.TableSettings(2))
    with pytest.raises(errors.Conflict, match="needs 2 players"):
        services.start_game(game.pk, players[0])
    services.join_table(game.pk, players[1])
    with pytest.raises(errors.Conflict, match="full"):
        services.join_table(game.pk, players[2])
    with pytest.raises(errors.NotAllowed):
        services.start_game(game.pk, players[1])
    services.remove_player(game.pk, players[0], user_id=players[1].pk)
    services.join_by_invite(game.invite_code, players[2])
    game = services.start_game(game.pk, players[0])
    assert game.status == Game.Status.ACTIVE
    assert sorted(game.seats.values_list("position", flat=True)) == [0, 1]
    with pytest.raises(errors.ServiceError):
        services.create_table(
            players[0],
            services.TableSettings(3, edition="scripts_and_scribes", medieval_bluff=True),
        )
