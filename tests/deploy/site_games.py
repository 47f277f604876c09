"""The site's code on a database of a deployment test's own: run as
`python -m tests.deploy.site_games COMMAND [ARGUMENT]` with DATABASE_URL naming that database
(tests/deploy/conftest.py `run_site`); prints its findings as JSON.

- `release NODES`: migrate the fresh database to the migrations NODES (a JSON list of
  [app, migration]: the last release's leaf nodes of the project's apps; every other app at its
  latest), then fill it with games in progress, written through the models of that migration
  state as that release stored them: people's and bots' moves of both kinds, live and
  turn-based tables, a bot's move due.
- `check`: every game in progress loads, replays to its stored state
  (`moderation.check_integrity`), takes one more move through the service layer (a person's, or
  the move due from a bot as the turn worker plays it) and replays again.
"""

import hashlib
import json
import random
import sys
from datetime import timedelta

import django
from django.apps import apps

if not apps.ready:  # run as a script (a test importing RELEASE_GAMES has Django set up)
    django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.migrations.executor import MigrationExecutor  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.kinds import registry  # noqa: E402
from games.models import Game  # noqa: E402
from games.moderation import services as moderation  # noqa: E402
from games.play import services, turns  # noqa: E402

# What each table of the release's database is: kind, variant and its options as that release
# stored them, its seats (None: a person; else a bot level), its time per move (180 s: live;
# a day: turn-based) and how many moves were made at it.
RELEASE_GAMES = (
    ("biblios", "biblios", {"medieval_bluff": False, "forbid_uncoverable_bids": False},
     (None, None), 180, 7),
    ("biblios", "biblios", {"medieval_bluff": True, "forbid_uncoverable_bids": False},
     (None, None, "novice"), 24 * 3600, 9),
    ("exlibris", "standard", {"owner_wide_powers": False}, (None, None), 24 * 3600, 6),
    ("exlibris", "standard", {"owner_wide_powers": False}, (None, "random"), 180, 5),
)  # fmt: skip


def migrate_to(nodes: list) -> object:
    """Migrate to `nodes` (every app they do not name at its latest); that state's models."""
    executor = MigrationExecutor(connection)
    named = {app for app, _ in nodes}
    leaves = executor.loader.graph.leaf_nodes()
    plan = [tuple(node) for node in nodes] + [node for node in leaves if node[0] not in named]
    executor.migrate(plan)
    executor.loader.build_graph()
    return executor.loader.project_state(plan).apps


def fill_release(apps, rng: random.Random) -> int:
    """RELEASE_GAMES, started and played through the release's models: rows as its services
    wrote them (setup, cached state, version, move log with each state's hash, seats on turn, due
    time), the moves random legal ones from each seat's own view."""
    User = apps.get_model("accounts", "User")
    GameRow, Seat, Move = (apps.get_model("games", name) for name in ("Game", "Seat", "Move"))
    people = [
        User.objects.create(username=f"release{n}", display_name=f"Release {n}", password="!")
        for n in range(2)
    ]
    now = timezone.now()
    for slug, variant, options, seats, turn_seconds, moves in RELEASE_GAMES:
        engine = registry.get(slug).engine
        seed = rng.randrange(2**62)
        state = engine.new_game(len(seats), seed=seed, variant=variant, options=options)
        game = GameRow.objects.create(
            host=people[0], kind=slug, variant=variant, num_players=len(seats), options=options,
            seed=seed, status="active", setup=engine.setup_of(state), started_at=now,
            turn_seconds=turn_seconds,
        )  # fmt: skip
        for position, bot in enumerate(seats):
            user = None if bot else people[position]
            Seat.objects.create(game=game, user=user, bot_level=bot or "", position=position)
        for _ in range(moves):
            position = engine.to_act(state)[0]
            action = rng.choice(engine.view(state, position)["legal_actions"])
            state = engine.apply_action(state, position, action)
            Move.objects.create(
                game=game, seq=state.version, seat=position, action=action,
                state_hash=hashlib.sha256(engine.dumps(state).encode()).hexdigest(),
                played_by="bot" if seats[position] else "player",
            )  # fmt: skip
        to_act = engine.to_act(state)
        assert to_act, f"the release's {slug} game ended within {moves} moves"
        bot_to_act = seats[to_act[0]] is not None
        game.state, game.version = engine.dumps(state), state.version
        delay = settings.BOT_MOVE_DELAY_S if bot_to_act else turn_seconds
        game.due_at = now + timedelta(seconds=delay)
        game.save()
        Seat.objects.filter(game=game, position__in=to_act).update(on_turn=True)
    return GameRow.objects.count()


def one_more_move(game: Game) -> Game:
    """The next move of `game` through the service layer: the person to act plays their first
    legal move, or the turn worker plays a bot's due move."""
    engine = registry.of(game).engine
    state = game.engine_state()
    position = engine.to_act(state)[0]
    seat = game.seats.select_related("user").get(position=position)
    if seat.bot_level:
        due = max(timezone.now(), game.due_at) + timedelta(seconds=1)
        moved = turns.play_turn(game.pk, now=due, rng=random.Random(game.pk))
        assert moved is not None, f"game {game.pk}: the bot to act did not move"
        return moved
    action = engine.view(state, position)["legal_actions"][0]
    return services.submit_action(game.pk, seat.user, action, version=game.version)


def check() -> dict:
    """What each active game was, replayed, and after one more move."""
    found = {}
    for game in Game.objects.filter(status=Game.Status.ACTIVE).order_by("pk"):
        before = moderation.check_integrity(game)
        entry = {
            "kind": game.kind,
            "turn_seconds": game.turn_seconds,
            "version": game.version,
            "state": game.state,
            "replayed": before.ok,
            "problem": before.problem,
        }
        if before.ok:
            moved = Game.objects.get(pk=one_more_move(game).pk)
            after = moderation.check_integrity(moved)
            entry.update(version_after=moved.version, problem_after=after.problem)
        found[str(game.pk)] = entry
    return found


def main(command: str, *arguments: str) -> None:
    if command == "release":
        games = fill_release(migrate_to(json.loads(arguments[0])), random.Random(7))
        print(json.dumps({"games": games}))
    elif command == "check":
        print(json.dumps(check()))
    else:
        raise SystemExit(f"unknown command {command!r}: release or check")


if __name__ == "__main__":
    main(*sys.argv[1:])
