"""Racing submissions: exactly one applies, the other is refused and nothing is doubled."""

import threading

import pytest
from django.db import connection

from biblios_site import errors
from games import moderation, services
from games.engine import biblios
from games.models import Move
from tests.play import started_game


def submit_together(calls):
    """Run each (game_id, user, action, version) at the same instant; returns outcomes."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(i, call):
        game_id, user, action, version = call
        try:
            barrier.wait()
            services.submit_action(game_id, user, action, version=version)
            outcomes[i] = "applied"
        except errors.ServiceError as refusal:
            outcomes[i] = refusal
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("repeat", range(3))
def test_the_same_move_sent_twice_at_once_applies_once(django_user_model, repeat):
    players = [django_user_model.objects.create_user(f"p{i}", password="x") for i in range(3)]
    game = started_game(players)
    seat = biblios.to_act(game.engine_state())[0]
    user = game.seats.get(position=seat).user
    action = {"type": "place", "to": "public"}
    outcomes = submit_together([(game.pk, user, action, 0), (game.pk, user, action, 0)])
    assert sorted(map(str, outcomes)).count("applied") == 1
    refused = next(outcome for outcome in outcomes if outcome != "applied")
    assert isinstance(refused, errors.StaleVersion) and refused.current_version == 1
    assert list(Move.objects.filter(game=game).values_list("seq", flat=True)) == [1]
    game.refresh_from_db()
    assert game.version == 1 and moderation.check_integrity(game).problem == ""


@pytest.mark.django_db(transaction=True)
def test_two_players_moving_at_once_only_the_expected_one_applies(django_user_model):
    players = [django_user_model.objects.create_user(f"p{i}", password="x") for i in range(3)]
    game = started_game(players)
    seat = biblios.to_act(game.engine_state())[0]
    mover = game.seats.get(position=seat).user
    other = game.seats.exclude(position=seat).first().user
    outcomes = submit_together(
        [
            (game.pk, mover, {"type": "place", "to": "self"}, 0),
            (game.pk, other, {"type": "place", "to": "self"}, 0),
        ]
    )
    assert outcomes[0] == "applied"
    assert isinstance(outcomes[1], errors.IllegalMove | errors.StaleVersion)
    assert Move.objects.filter(game=game).count() == 1
