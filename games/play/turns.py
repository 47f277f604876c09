"""The turn worker: bots' moves and the moves of players whose time ran out, off the request path.

Why this shape:
- The database says what is due, nothing lives only in memory. `Game.due_at` (indexed) is written
  in the same transaction as every move, the start, and every change of who plays a seat: a bot's
  turn is due after BOT_MOVE_DELAY_S (readable), a timed person's turn at its deadline. The worker
  plays the active games whose due time has passed, so after a restart the first poll finds the
  same rows and the bot whose turn it was plays. Between polls it sleeps until the next due time
  it read, woken sooner by a commit of its own process that schedules a sooner move
  (`services.turn_alarm`): a bot moves on time without a fast poll, and an idle worker looks at
  most every TURN_WORKER_POLL_S (for what other processes schedule).
- It runs inside every daphne process, as a task on daphne's own event loop (started from
  biblios_site/asgi.py once the reactor runs: biblios_site/background.py), so `make run` and the
  tests' daphne servers get it with nothing else to start; TURN_WORKER=0 turns it off.
  Broadcasting from daphne's loop also reaches the in-memory channel layer of a single
  development process.
- Any number of workers may race on one game. A bot thinks outside any transaction, from the
  version it read (Abbot may think for a second: no row stays locked meanwhile); then
  `services.play_due_turn` locks the row and applies the move only if that version is still
  current and the move still due, so exactly one move applies and the other workers are refused.
- Bots think off daphne's event loop: a poll runs in a thread of its own (`run_forever`), so
  the loop keeps serving requests and pushes while a searching bot spends its budget. A process
  thinks for one bot at a time (a poll plays its due games in turn), which bounds the CPU bots
  take from the players' requests; more processes think for more tables at once.
- Moves go through the service layer like people's: same checks, Move log, broadcast after commit.
- Honest bots: the bot sees its seat's view, and its memory is rebuilt from the events its seat
  was shown at each step of the move log (`selectors.game_steps`, the engine's per-seat filter);
  never from the raw state.
"""

import logging
import random
import secrets
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from biblios_site import errors
from games.history import selectors
from games.kinds import registry
from games.models import Game
from games.play import services

logger = logging.getLogger(__name__)

BATCH = 20  # due games handled per poll, oldest due first


def due_game_ids(now: datetime, *, limit: int = BATCH) -> list[int]:
    """Active games with a move due by `now`, the longest overdue first."""
    due = Game.objects.filter(status=Game.Status.ACTIVE, due_at__lte=now).order_by("due_at")
    return list(due.values_list("pk", flat=True)[:limit])


def bot_action(game: Game, position: int, level: str, rng: random.Random) -> dict:
    """What a bot of `level` plays for `position`, from that seat's view and its own log; the
    game's kind brings the bots (`registry.of(game).bots`)."""
    kind = registry.of(game)
    memory = kind.bots.new_memory(position, game.num_players)
    for version, events in enumerate(selectors.game_steps(game, position)):
        kind.bots.observe(memory, {"version": version, "events": events})
    view = kind.engine.view(game.engine_state(), position)
    return kind.bots.choose(level, view, memory, rng, budget_s=settings.BOT_BUDGET_S)


def bot_rng(game: Game) -> random.Random:
    """Where a bot's move draws its randomness: a daily deal's game from its seed and step, so
    every player of the deal meets bots that draw alike (`games.daily`); any other afresh."""
    if game.daily_deal_id is not None:
        return random.Random(f"{game.seed}/{game.version}")
    return random.Random(secrets.randbits(64))


def play_turn(game_id: int, *, now: datetime | None = None, rng: random.Random | None = None):
    """Play the due move of one game, if any; the Game after the move, or None."""
    now = now or timezone.now()
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is None or game.due_at is None or now < game.due_at:
        return None
    kind = registry.of(game)
    to_act = kind.engine.to_act(game.engine_state())
    if not to_act:
        return None
    seat = game.seats.get(position=to_act[0])
    rng = rng or bot_rng(game)
    try:
        action = bot_action(game, seat.position, seat.bot_level or kind.stand_in, rng)
        return services.play_due_turn(game.pk, action, version=game.version, now=now)
    except errors.ServiceError as refusal:
        if not isinstance(refusal, errors.IllegalMove):
            return None  # another worker moved first, the player came back, or the game ended
        failure = "refused"
    except Exception:
        failure = "failed"
    # A bot bug must not stall the table: log it and play a random legal move instead.
    logger.exception("bot move %s in game %s at version %s", failure, game.pk, game.version)
    legal = kind.engine.view(game.engine_state(), seat.position)["legal_actions"]
    try:
        return services.play_due_turn(game.pk, rng.choice(legal), version=game.version, now=now)
    except errors.ServiceError:
        return None


def play_due(*, now: datetime | None = None, rng: random.Random | None = None) -> int:
    """One poll: play every move due by `now`; how many applied."""
    now = now or timezone.now()
    return sum(play_turn(game_id, now=now, rng=rng) is not None for game_id in due_game_ids(now))


def next_due_at(after: datetime) -> datetime | None:
    """When the next move falls due after `after` (a poll's time), if any game waits."""
    later = Game.objects.filter(status=Game.Status.ACTIVE, due_at__gt=after).order_by("due_at")
    return later.values_list("due_at", flat=True).first()


def poll_once() -> tuple[int, datetime | None]:
    """One round of the worker: the moves it played, and when the next one falls due (None
    after playing, when it looks again at once)."""
    now = timezone.now()
    played = play_due(now=now)
    return played, None if played else next_due_at(now)


async def run_forever() -> None:
    """Play what is due until the process ends, sleeping until the next due time it read, or
    until a commit of this process makes one sooner (`services.turn_alarm`); at most
    TURN_WORKER_POLL_S, for what other processes schedule. An error is logged and it goes on."""
    poll = database_sync_to_async(poll_once, thread_sensitive=False)
    with services.turn_alarm.armed():
        while True:
            try:
                played, due = await poll()
            except Exception:
                logger.exception("turn worker poll failed")
                played, due = 0, None
            if played:
                continue
            now = timezone.now()
            wait = settings.TURN_WORKER_POLL_S
            if due is not None:
                wait = min(wait, (due - now).total_seconds())
            await services.turn_alarm.sleep(wait, until=now + timedelta(seconds=wait))
