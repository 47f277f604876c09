"""Games set up and played as the service layer plays them, shared by the tests of every edge."""

import random

from django.db import transaction
from django.utils import timezone

from games.kinds import registry
from games.models import Game, Move
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
    """Random legal moves, each player choosing from their own view, until the game ends; the
    last through `submit_action`, so the game ends, is rated and tells its players as every
    game does (`play_until_last_move`)."""
    game.refresh_from_db()
    if game.status != Game.Status.ACTIVE:
        return game
    user, action, version = play_until_last_move(game, rng)
    play_services.submit_action(game.pk, user, action, version=version)
    game.refresh_from_db()
    return game


def play_until_last_move(game: Game, rng: random.Random) -> tuple:
    """Random legal moves, each player choosing from their own view, until the next one would
    end the game; returns that move as (user, action, version) for `submit_action`.

    The moves are applied by the engine and stored as `submit_action` stores them (each with
    its state's hash; the state, its version and the seats on turn), in one write: through the
    service one at a time, they were most of the time of the many tests that need a game
    played to its end."""
    game.refresh_from_db()
    by_seat = seated_users(game)
    engine = registry.of(game).engine
    state, played = game.engine_state(), []
    while True:
        seat = engine.to_act(state)[0]
        action = rng.choice(engine.view(state, seat)["legal_actions"])
        after = engine.apply_action(state, seat, action)
        if not engine.to_act(after):
            break
        played.append(Move(
            game=game, seq=after.version, seat=seat, action=action,
            state_hash=play_services.state_hash(game, after), played_by=Move.PlayedBy.PLAYER,
        ))  # fmt: skip
        state = after
    if played:
        with transaction.atomic():
            Move.objects.bulk_create(played)
            due_at = play_services.due_time(game, state, timezone.now())
            saved = play_services._save_state(  # as the service saves a move's state
                game, state, previous_version=game.version, due_at=due_at
            )
            assert saved, "the game moved while it was being played"
    return by_seat[seat], action, state.version


def choose_quickly(view: dict, rng) -> dict:
    """A random legal action, mostly passing on bids and never refusing to pay when one can,
    so that a game ends in a couple of hundred moves."""
    legal = view["legal_actions"]
    passes = [action for action in legal if action["type"] == "pass"]
    if passes and rng.random() < 0.8:
        return passes[0]
    paying = [action for action in legal if action["type"] != "refuse"]
    return rng.choice(paying or legal)
