"""Ex Libris through the doors that are not the HTML board: API clients, games played by people
and bots, and the secrecy checks every payload, frame, replay step and record goes through (X77).

What a reader may know is worked out from the engine's own views: every card named in
`view(state, reader)` and `events_for(state, reader)` at any step so far (`helpers.Knowledge`),
and, at the end, what the engine opens (`open_hands_view`, `public_setup`). On top of that, from
the raw state and independently of the views, the cards hidden from a reader right now: the deck,
the other seats' hands (`secret_cards`), the face-down cards of tiles it did not look at and the
cards under the other seats' shelved books, but for those everyone saw there face up before the
Mummy covered them (`Knowledge.seen_shelved`, X56).
"""

import json
import random
import re

from django.test import Client

from accounts.models import ApiToken
from games.kinds.exlibris import engine
from games.models import Game
from tests.kinds.exlibris.site.helpers import cards_in, play_bot, secret_cards

# A seed no payload can hold by chance (a card count, a version or a price is never this big).
SEED = 7_394_151


class ApiClient:
    """Calls the board API with one bearer token; every answer must be JSON."""

    def __init__(self, user):
        self.user = user
        self.client = Client(headers={"Authorization": f"Bearer {ApiToken.issue(user)[1]}"})

    def get(self, path: str):
        return self._checked(self.client.get(path))

    def post(self, path: str, body=None):
        data = "" if body is None else json.dumps(body)
        return self._checked(self.client.post(path, data, content_type="application/json"))

    @staticmethod
    def _checked(response):
        assert response["Content-Type"] == "application/json", response.content[:300]
        assert response.status_code < 500, response.content[:300]
        response.data = response.json()
        if response.status_code >= 400:
            assert isinstance(response.data["error"], str) and response.data["error"]
        return response

    def board(self, game_id: int) -> dict:
        response = self.get(f"/api/games/{game_id}")
        assert response.status_code == 200, response.data
        return response.data

    def act(self, game_id: int, version: int, action: dict):
        return self.post(f"/api/games/{game_id}/actions", {"version": version, "action": action})


def api_table(host: ApiClient, guests, num_players: int, *, bots=(), **table) -> int:
    """A started Ex Libris table opened, joined and started through the API only: `host` at
    seat 0, then `bots` (levels), then `guests`; its seed fixed to SEED unless bots took every
    other seat (that table started as it was opened, from a seed of its own)."""
    body = {"kind": "exlibris", "num_players": num_players, "bots": list(bots), **table}
    opened = host.post("/api/tables", body)
    assert opened.status_code == 201, opened.data
    game_id = opened.data["id"]
    Game.objects.filter(pk=game_id, status=Game.Status.OPEN).update(seed=SEED)
    for guest in guests:
        joined = guest.post(f"/api/tables/{game_id}/join")
        assert joined.status_code == 200, joined.data
    if opened.data["status"] == Game.Status.OPEN:
        started = host.post(f"/api/tables/{game_id}/start")
        assert started.status_code == 200, started.data
    return game_id


def state_of(game_id: int):
    return Game.objects.get(pk=game_id).engine_state()


def play_bots_on_turn(game_id: int, rng: random.Random):
    """Let the turn worker play while a bot seat is to act; yields the state after each move."""
    game = Game.objects.get(pk=game_id)
    while game.status == Game.Status.ACTIVE:
        to_act = engine.to_act(game.engine_state())
        if not game.seats.get(position=to_act[0]).bot_level:
            return
        game = play_bot(game, rng)
        yield game.engine_state()


def hidden_now(state, reader, seen_shelved=frozenset()) -> set[str]:
    """Card ids hidden from `reader` (a seat, or None: a spectator) in `state`, read off the raw
    state (X77): `secret_cards` (the deck; the other seats' hands until the end), the face-down
    cards of tiles it has not looked at, and, until the end, what lies under the other seats'
    books or face down on them, but for `seen_shelved` (`Knowledge.seen_shelved`: cards
    everyone saw face up there, that the Mummy covered, X56)."""
    hidden = secret_cards(state, reader)
    for tile in state["tiles"].values():
        if reader not in tile.get("looked", []):
            hidden |= {slot["card"] for slot in tile["cards"] if not slot["up"]}
    if state["phase"] != "over":
        for record in state["seats"]:
            if record["seat"] == reader:
                continue
            for stack in record["bookshelf"].values():
                hidden |= {stack["under"]} - {None} - seen_shelved
                if not stack["up"]:
                    hidden |= {stack["top"]} - seen_shelved
    return hidden


def json_keys(value, key: str):
    """Every value stored under `key` anywhere in a JSON payload."""
    if isinstance(value, dict):
        for name, item in value.items():
            if name == key:
                yield item
            yield from json_keys(item, key)
    elif isinstance(value, list):
        for item in value:
            yield from json_keys(item, key)


def assert_view_keeps_secrets(
    payload: dict, view: dict, state, reader, where: str, seen_shelved=frozenset()
) -> None:
    """A JSON payload carrying `view` (a board, a socket frame): no seed, no deck order, no
    other seat's focus before the end, and the view itself (its events aside, which name the
    cards the last move moved) shows no card hidden from `reader` now (X77; `hidden_now`)."""
    text = json.dumps(payload)
    assert not list(json_keys(payload, "seed")), f"{where} names a seed"
    assert not re.search(rf"(?<!\d){SEED}(?!\d)", text), f"{where} holds the seed"
    for deck in json_keys(payload, "deck"):
        assert isinstance(deck, int), f"{where} lists a deck: {deck!r}"
    for pile in json_keys(payload, "out"):
        assert isinstance(pile, int), f"{where} names what is out of the game: {pile!r}"
    if state["phase"] != "over":
        for seat in view["seats"]:
            if seat["seat"] != reader:
                assert seat["focus"] is None and seat["hand"] is None, (
                    f"{where} shows seat {seat['seat']}'s focus or hand to {reader}"
                )
    shown = cards_in(json.dumps({**view, "events": []})) & hidden_now(state, reader, seen_shelved)
    assert not shown, f"{where} shows {sorted(shown)}, hidden from {reader} now"
