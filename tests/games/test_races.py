"""Racing submissions: exactly one applies, the other is refused and nothing is doubled."""

import pytest

from biblios_site import errors
from games.kinds.biblios import engine as biblios
from games.models import Move
from games.moderation import services as moderation
from games.play import services
from tests.at_once import at_once
from tests.play import started_game


def submit_together(calls):
    """Submit each (game_id, user, action, version) at the same instant: "applied" or the
    refusal, for each."""

    def submit(game_id, user, action, version):
        services.submit_action(game_id, user, action, version=version)
        return "applied"

    return at_once(*(lambda call=call: submit(*call) for call in calls))


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
