"""Games set up and played through the service layer, shared by the tests of every edge."""

import random

from games.access import Visitor
from games.kinds.biblios import engine as biblios
from games.models import Game
from games.play import selectors
from games.play import services as play_services
from games.tables import services as tables_services


def started_game(users, num_players: int = 3, *, seed: int | None = None, **table) -> Game:
    """A started game of users[:num_players], seated in that order, host first (the host's
    invitees: a private table seats them too).

    A fixed `seed` keeps a test's deal the same from run to run.
    """
    game = tables_services.create_table(
        users[0], tables_services.TableSettings(num_players, **table), seed=seed
    )
    if game.status == Game.Status.ACTIVE:  # the other seats all bots: started at once
        return game
    for user in users[1:num_players]:
        tables_services.join_table(game.pk, user, invited=True)
    return tables_services.start_game(game.pk, users[0])


def make_users(user_model, name: str, count: int = 4, *, password: str = "x") -> list:
    """`count` accounts `<name>0`, `<name>1`… shown as "<Name> 0"…: the players most tests need."""
    return [
        user_model.objects.create_user(
            f"{name}{i}", password=password, display_name=f"{name.title()} {i}"
        )
        for i in range(count)
    ]


def seated_users(game: Game) -> dict:
    return {seat.position: seat.user for seat in game.seats.select_related("user")}


def play_to_end(game: Game, rng: random.Random) -> Game:
    """Random legal moves through submit_action, each player choosing from their own view."""
    by_seat = seated_users(game)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        seat = biblios.to_act(game.engine_state())[0]
        board = selectors.board_for(game, Visitor.of(game, by_seat[seat]))
        action = rng.choice(board["legal_actions"])
        play_services.submit_action(game.pk, by_seat[seat], action, version=board["version"])


def choose_quickly(view: dict, rng) -> dict:
    """A random legal action, mostly passing on bids and never refusing to pay when one can,
    so that a game ends in a couple of hundred moves."""
    legal = view["legal_actions"]
    passes = [action for action in legal if action["type"] == "pass"]
    if passes and rng.random() < 0.8:
        return passes[0]
    paying = [action for action in legal if action["type"] != "refuse"]
    return rng.choice(paying or legal)
