"""Back up and restore as docs/deploy.md says: `pg_dump -Fc` of a site with games in progress,
`pg_restore` into a new database, and every game there is where it was, replays to its stored
state and takes its next move through the service layer (a person's, or a bot's due move)."""

import pytest

from accounts.models import User
from games.kinds import registry
from games.models import Game
from games.tables import services
from tests.deploy.conftest import run_site
from tests.deploy.site_games import one_more_move
from tests.play import make_users

pytestmark = pytest.mark.slow  # PostgreSQL's tools and a process of the site's code

# (kind, seats: None a person, else a bot level; seconds per move: 180 live, a day turn-based;
# moves made before the backup).
GAMES = (
    ("biblios", (None, None), 180, 6),
    ("biblios", (None, None, "novice"), 24 * 3600, 8),
    ("exlibris", (None, None), 24 * 3600, 5),
    ("exlibris", (None, "random"), 180, 4),
)


def games_in_progress(people: list[User]) -> list[Game]:
    """GAMES opened, filled and started through the services, their moves made by the services
    too; each stops on a bot's turn when it has one, so that a bot's move is due at the backup."""
    games = []
    for kind, seats, seconds, moves in GAMES:
        table = services.TableSettings(
            len(seats), kind=kind, turn_seconds=seconds, bots=tuple(bot for bot in seats if bot)
        )
        game = services.create_table(people[0], table)
        for person in people[1 : seats.count(None)]:
            services.join_table(game.pk, person, invited=True)
        if game.status == Game.Status.OPEN:  # a table of bots started as it was opened
            game = services.start_game(game.pk, people[0])
        for _ in range(moves):
            game = one_more_move(game)
        while any(seats) and not acting_seat(game).bot_level:
            game = one_more_move(game)
        games.append(game)
    return games


def acting_seat(game: Game):
    position = registry.of(game).engine.to_act(game.engine_state())[0]
    return game.seats.get(position=position)


def test_a_restored_backup_continues_every_game_from_its_last_move(
    postgres, transactional_db, tmp_path
):
    people = make_users(User, "keeper", 2)
    games = games_in_progress(people)
    assert all(game.status == Game.Status.ACTIVE for game in games)
    saved = {str(game.pk): (game.version, game.state) for game in Game.objects.all()}

    # docs/deploy.md's backup of the live database, restored into a new one.
    backup = tmp_path / "biblios.dump"
    postgres.dump(postgres.suite_database, backup)
    restored = postgres.create()
    postgres.restore(backup, restored)

    found = run_site(postgres.url(restored), "check")
    assert {number: (game["version"], game["state"]) for number, game in found.items()} == saved
    for number, game in found.items():
        assert game["replayed"], f"game {number} does not replay: {game['problem']}"
        assert game["version_after"] == game["version"] + 1, (number, game)
        assert game["problem_after"] == "", (number, game)
