"""Players, and finished games made cheaply (rows only, never played) for history tests."""

import datetime

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Seat
from tests.play import make_users


@pytest.fixture
def users(django_user_model):
    return make_users(django_user_model, "reader")


@pytest.fixture
def browser(users):
    client = Client()
    client.force_login(users[0])
    return client


def bulk_games(players, count, *, status=Game.Status.FINISHED, winner=0, days_ago=0, **fields):
    """`count` Biblios games of `players` (seats in order) with a result where seat `winner`
    won (`fields` may name another variant).

    Written with bulk_create: history pages only read these rows, so nothing is played.
    """
    now = timezone.now() - datetime.timedelta(days=days_ago)
    finished = status == Game.Status.FINISHED
    n = len(players)
    result = {
        "winners": [winner],
        "players": [
            {"seat": s, "vp": 5 if s == winner else 2, "place": 1 if s == winner else 2}
            for s in range(n)
        ],
    }
    games = Game.objects.bulk_create(
        Game(
            host=players[0],
            num_players=n,
            status=status,
            version=40 + i,
            setup={"num_players": n, "seed": i},
            result=result if finished else None,
            started_at=now - datetime.timedelta(minutes=30),
            finished_at=now if finished else None,
            **{"kind": "biblios", "variant": "biblios", **fields},
        )
        for i in range(count)
    )
    Seat.objects.bulk_create(
        Seat(
            game=game,
            user=user,
            position=position,
            won=finished and position == winner,
            place=(1 if position == winner else 2) if finished else None,
        )
        for game in games
        for position, user in enumerate(players)
    )
    # created_at is auto_now_add: move the rows to the wanted day afterwards.
    Game.objects.filter(pk__in=[g.pk for g in games]).update(created_at=now)
    return games
