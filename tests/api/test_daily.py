"""`/api/daily`: today's deals as the caller may see them, and `POST /api/daily/<game>` to play
one, once (docs/api.md): the same rules as the page, whichever door asks first."""

import random

import pytest

from games.models import Game
from tests.api.conftest import ApiClient
from tests.daily.test_daily_deal import finish

pytestmark = pytest.mark.django_db


def test_a_player_plays_a_deal_once_and_reads_the_standings_after_their_game(players):
    first, second = players[0], players[1]
    before = first.get("/api/daily")
    assert before.status_code == 200
    deals = {deal["game"]: deal for deal in before.data["deals"]}
    assert set(deals) == {"biblios", "exlibris"}
    assert deals["biblios"]["played"] == 0 and deals["biblios"]["standings"] is None

    day = {"day": before.data["deals"][0]["day"]}
    assert first.post("/api/daily/biblios").status_code == 400  # which day's deal?
    assert first.post("/api/daily/biblios", {"day": "2000-01-01"}).status_code == 409
    started = first.post("/api/daily/biblios", day)
    assert started.status_code == 201, started.data
    again = first.post("/api/daily/biblios", day)
    assert again.status_code == 409 and "already played" in again.data["error"]
    assert Game.objects.filter(host=first.user).count() == 1

    finish(Game.objects.get(pk=started.data["game"]), random.Random(3))
    mine = {deal["game"]: deal for deal in first.get("/api/daily").data["deals"]}["biblios"]
    assert mine["over"] and mine["my_game"] == started.data["game"]
    assert [row["game"] for row in mine["standings"]] == [started.data["game"]]
    assert sum(row["players"] for row in mine["spread"]) == 1
    theirs = {deal["game"]: deal for deal in second.get("/api/daily").data["deals"]}["biblios"]
    assert theirs["played"] == 1 and theirs["standings"] is None and theirs["spread"] is None
    record = second.get(f"/api/games/{started.data['game']}/record")
    assert record.status_code == 403  # the deal's cards, before they have played it


def test_bad_requests_are_refused(players):
    assert players[0].post("/api/daily/chess", {"day": "2026-11-29"}).status_code == 404
    assert players[0].get("/api/daily/biblios").status_code == 405
    assert ApiClient(None).post("/api/daily/biblios", {"day": "2026-11-29"}).status_code == 401
    assert not Game.objects.exists()
