"""Tables opened before bots were numbered: their twin bots get numbers of their own, a lone
bot and a person's seat taken over by a bot keep their plain names.

Runs on whichever database the suite runs on, so CI checks it on SQLite and on PostgreSQL.
"""

import pytest

from tests.migrations.helpers import migrate

BEFORE = [("games", "0011_rematch_offer")]
AFTER = [("games", "0012_bot_number")]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def old_schema():
    yield migrate(BEFORE)
    migrate([])


def test_twin_bots_are_numbered_by_seat_and_the_others_keep_their_names(old_schema):
    User = old_schema.get_model("accounts", "User")
    Game, Seat = (old_schema.get_model("games", name) for name in ("Game", "Seat"))
    ada = User.objects.create(username="ada", display_name="Ada")
    basil = User.objects.create(username="basil", display_name="Basil")
    twins = Game.objects.create(host=ada, kind="exlibris", variant="friendly", num_players=4)
    # Seats stored out of order: the numbers follow the positions.
    for position, user, level in [(3, None, "greedy"), (0, ada, ""), (2, None, "random")]:
        Seat.objects.create(game=twins, user=user, position=position, bot_level=level)
    Seat.objects.create(game=twins, user=None, position=1, bot_level="greedy")
    mixed = Game.objects.create(host=basil, kind="biblios", variant="biblios", num_players=3)
    Seat.objects.create(game=mixed, user=basil, position=0)
    Seat.objects.create(game=mixed, user=ada, position=1, bot_level="scholar")  # taken over
    Seat.objects.create(game=mixed, user=None, position=2, bot_level="scholar")

    new = migrate(AFTER)
    numbers = new.get_model("games", "Seat").objects.values_list(
        "game_id", "position", "bot_number"
    )
    assert sorted(numbers) == [
        (twins.pk, 0, 0),
        (twins.pk, 1, 1),
        (twins.pk, 2, 0),
        (twins.pk, 3, 2),
        (mixed.pk, 0, 0),
        (mixed.pk, 1, 0),
        (mixed.pk, 2, 0),
    ]
    migrate(BEFORE)  # and back
