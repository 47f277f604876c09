"""Tables with bots, and games moved on by people and by the turn worker."""

import random
from datetime import timedelta

from django.utils import timezone

from games.access import Visitor
from games.kinds import registry
from games.models import Game
from games.play import selectors, turns
from games.play import services as play_services
from games.tables import services as tables_services


def bot_table(host, bots, *, others=(), seed: int = 7, **table) -> Game:
    """A started table: `host` at seat 0, then `bots` (levels, or None for the next of `others`)."""
    game = tables_services.create_table(
        host, tables_services.TableSettings(len(bots) + 1, bots=tuple(bots), **table), seed=seed
    )
    if not others:  # every other seat a bot's: the table started at once
        return game
    for person in others:
        tables_services.join_table(game.pk, person, invited=True)
    return tables_services.start_game(game.pk, host)


def acting_seat(game: Game):
    """The seat the game's engine asks next (any kind), or None once it is over."""
    game.refresh_from_db()
    to_act = registry.of(game).engine.to_act(game.engine_state())
    return game.seats.select_related("user").get(position=to_act[0]) if to_act else None


def play_with_bots(game: Game, rng: random.Random, *, max_steps: int = 2000) -> Game:
    """People pick random legal moves from their own view; the worker plays every bot turn."""
    for _ in range(max_steps):
        seat = acting_seat(game)
        if seat is None:
            return game
        if seat.bot_level:
            assert turns.play_due() == 1, f"the worker did not play seat {seat.position}"
            continue
        board = selectors.board_for(game, Visitor.of(game, seat.user))
        play_services.submit_action(
            game.pk, seat.user, rng.choice(board["legal_actions"]), version=game.version
        )
    raise AssertionError("the game did not finish")


def play_until_idle() -> int:
    """Poll the turn worker until nothing is due (a table of bots plays itself out); how many
    moves it applied."""
    played = 0
    while moved := turns.play_due():
        played += moved
    return played


def after_deadline(game: Game, seconds: float = 1):
    """A moment `seconds` after the game's current due time (time injection, no sleeping)."""
    game.refresh_from_db()
    return game.due_at + timedelta(seconds=seconds)


def before_deadline(game: Game):
    game.refresh_from_db()
    return min(timezone.now(), game.due_at - timedelta(seconds=1))
