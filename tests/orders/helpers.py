"""Turn-based Biblios tables brought to an auction, for the standing orders' tests."""

import random

from games.access import Visitor
from games.kinds import registry
from games.kinds.biblios.engine.cards import KIND
from games.models import Game
from games.play import selectors, services
from tests.play import seated_users, started_game

DAY = 24 * 3600


def turn_based_game(users, num_players: int = 3, *, seed: int = 11, **table) -> Game:
    return started_game(users, num_players, seed=seed, turn_seconds=DAY, **table)


def acting(game: Game) -> int:
    game.refresh_from_db()
    return registry.of(game).engine.to_act(game.engine_state())[0]


def board(game: Game, user) -> dict:
    game.refresh_from_db()
    return selectors.board_for(game, Visitor.of(game, user))


def play(game: Game, user, action: dict) -> None:
    game.refresh_from_db()
    services.submit_action(game.pk, user, action, version=game.version)


def to_a_fresh_auction(game: Game, rng: random.Random) -> dict:
    """Random moves by the seated people until a card that is not Gold is up for auction and
    nobody has bid on it yet (R9); the view of the seat asked first."""
    people = seated_users(game)
    for _ in range(2000):
        view = board(game, people[acting(game)])
        auction = view["auction"]
        if view["phase"] == "auction" and view["awaiting"]["step"] == "bid":
            if KIND[auction["card"]] != "gold" and not auction["bids"]:
                return view
            action = {"type": "pass"}  # a Gold card: everyone passes it by
        else:
            legal = [a for a in view["legal_actions"] if a["type"] != "refuse"]
            action = rng.choice(legal or view["legal_actions"])
        play(game, people[view["seat"]], action)
    raise AssertionError("no auction came")
