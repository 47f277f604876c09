"""The join rule lives in the join service: called directly, as a tournament or any future caller
would, `services.join_table` refuses a private table without its invite, a friends-only table to
a stranger, a full table and a banned account, and seats nobody for it."""

import pytest

from biblios_site import errors
from friends import services as friends
from games.models import Game
from games.moderation import services as moderation
from games.tables import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    names = ("host", "guest", "third", "mod")
    made = {n: django_user_model.objects.create_user(n, password="x") for n in names}
    made["mod"].is_staff = True
    made["mod"].save()
    return made


def table(host, players: int = 2, **settings) -> Game:
    return services.create_table(host, services.TableSettings(players, **settings))


def seated(game: Game) -> set[str]:
    return set(game.seats.values_list("user__username", flat=True))


def test_a_private_table_needs_its_invite(people):
    game = table(people["host"], private=True)
    with pytest.raises(errors.NotAllowed, match="private"):
        services.join_table(game.pk, people["guest"])
    assert seated(game) == {"host"}
    services.join_table(game.pk, people["guest"], invited=True)
    assert seated(game) == {"host", "guest"}


def test_a_friends_only_table_seats_the_hosts_friends_alone(people):
    game = table(people["host"], players=3, friends_only=True)
    with pytest.raises(errors.NotAllowed, match="friends only"):
        services.join_table(game.pk, people["guest"], invited=True)  # an invite is no friendship
    assert seated(game) == {"host"}
    friends.send_request(people["host"], people["guest"])
    friends.accept(people["guest"], people["host"])
    services.join_table(game.pk, people["guest"])
    assert seated(game) == {"host", "guest"}


def test_a_full_table_seats_nobody_more(people):
    game = table(people["host"])
    services.join_table(game.pk, people["guest"])
    with pytest.raises(errors.Conflict, match="full"):
        services.join_table(game.pk, people["third"])
    assert seated(game) == {"host", "guest"}


def test_an_account_already_seated_is_not_seated_twice(people):
    game = table(people["host"], players=3)
    with pytest.raises(errors.Conflict, match="already seated"):
        services.join_table(game.pk, people["host"])
    assert game.seats.count() == 1


def test_a_banned_account_takes_no_seat(people):
    game = table(people["host"])
    moderation.ban_user(people["guest"].pk, people["mod"], "spam in every chat")
    people["guest"].refresh_from_db()
    with pytest.raises(errors.NotAllowed):
        services.join_table(game.pk, people["guest"], invited=True)
    assert seated(game) == {"host"}


def test_a_given_company_is_seated_in_order_through_the_rule(people):
    """`seat_players` seats the host and then each given player, as invited (a private table
    takes them), in the order given."""
    settings = services.TableSettings(3, private=True)
    game = services.seat_players(people["host"], settings, [people["third"], people["guest"]])
    order = list(game.seats.order_by("position").values_list("user__username", flat=True))
    assert order == ["host", "third", "guest"]


@pytest.mark.parametrize("refused", ["stranger", "banned", "too many"])
def test_a_company_the_rule_refuses_opens_no_table(people, refused):
    """One player the join rule refuses (a stranger at a friends-only table, a banned account)
    or more players than seats, and no table is opened at all."""
    friends.send_request(people["host"], people["guest"])
    friends.accept(people["guest"], people["host"])
    company = [people["guest"]]
    settings = services.TableSettings(3, friends_only=True)
    if refused == "stranger":
        company.append(people["third"])
    elif refused == "banned":
        moderation.ban_user(people["guest"].pk, people["mod"], "spam")
        people["guest"].refresh_from_db()
    else:
        settings = services.TableSettings(2)
        company.append(people["third"])
    opened = Game.objects.count()
    with pytest.raises(errors.ServiceError):
        services.seat_players(people["host"], settings, company)
    assert Game.objects.count() == opened
