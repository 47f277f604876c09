"""The move from Biblios editions to (kind, variant) keeps every stored game, seat, move and
rating, on a database filled by the old schema, and migrates back.

Runs on whichever database the suite runs on, so CI checks it on SQLite and on PostgreSQL.
"""

import pytest
from django.db import IntegrityError

from tests.migrations.helpers import migrate

BEFORE = [("games", "0006_bots_timers_rated"), ("ratings", "0001_initial")]
AFTER = [("games", "0007_kind_variant"), ("ratings", "0002_kind_variant")]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def old_schema():
    """The apps before the kind/variant migrations; the latest schema again afterwards, as the
    other tests expect it."""
    yield migrate(BEFORE)
    migrate([])  # every app at its latest migration, later ones than AFTER included


def fill_old_database(apps) -> dict:
    """Two finished rated games (one per edition, bot seats among them), their moves and
    ratings, as the old schema stored them."""
    User = apps.get_model("accounts", "User")
    Game, Seat, Move = (apps.get_model("games", name) for name in ("Game", "Seat", "Move"))
    Rating, RatingChange = (apps.get_model("ratings", name) for name in ("Rating", "RatingChange"))
    ada = User.objects.create(username="ada", display_name="Ada")
    basil = User.objects.create(username="basil", display_name="Basil")
    games = {}
    for edition, options in (
        ("biblios", {"medieval_bluff": True, "forbid_uncoverable_bids": False}),
        ("scripts_and_scribes", {"medieval_bluff": False, "forbid_uncoverable_bids": True}),
    ):
        game = Game.objects.create(
            host=ada,
            edition=edition,
            num_players=3,
            options=options,
            status="finished",
            version=2,
            setup={"first_player": 0},
            state="{}",
            result={"players": [{"place": 1}, {"place": 2}, {"place": 3}], "winners": [0]},
            rated=True,
        )
        Seat.objects.create(game=game, user=ada, position=0, place=1, won=True)
        Seat.objects.create(game=game, user=basil, position=1, bot_level="scholar", abandoned=True)
        Seat.objects.create(game=game, user=None, position=2, bot_level="abbot", place=3)
        Move.objects.create(game=game, seq=1, seat=0, action={"type": "place", "to": "hand"})
        Move.objects.create(game=game, seq=2, seat=1, action={"type": "pass"}, played_by="bot")
        for user, before, after in ((ada, 1500, 1530), (basil, 1500, 1480)):
            Rating.objects.create(user=user, edition=edition, rating=after, games=1)
            RatingChange.objects.create(
                game=game, user=user, edition=edition, place=1, before=before, after=after
            )
        games[edition] = game.pk
    return games


def rows(apps, edition_field: str) -> dict:
    """Everything the migration must keep, with each row's edition as `edition_field` names it
    (old schema: the edition; new: "kind/variant")."""

    def edition_of(row) -> str:
        return row.edition if edition_field == "edition" else f"{row.kind}/{row.variant}"

    Game, Seat, Move = (apps.get_model("games", name) for name in ("Game", "Seat", "Move"))
    Rating, RatingChange = (apps.get_model("ratings", name) for name in ("Rating", "RatingChange"))
    return {
        "games": sorted(
            (g.pk, edition_of(g), g.num_players, g.options, g.status, g.result, g.rated)
            for g in Game.objects.all()
        ),
        "seats": sorted(
            Seat.objects.values_list("game_id", "position", "user_id", "bot_level", "abandoned")
        ),
        "moves": sorted(Move.objects.values_list("game_id", "seq", "seat", "played_by")),
        "ratings": sorted(
            (r.user_id, edition_of(r), r.rating, r.games) for r in Rating.objects.all()
        ),
        "changes": sorted(
            (c.game_id, c.user_id, edition_of(c), c.before, c.after)
            for c in RatingChange.objects.all()
        ),
    }


def as_kind_variant(found: dict) -> dict:
    """The old rows as the new schema must show them: each edition is a Biblios variant."""
    edition_at = {"games": 1, "ratings": 1, "changes": 2}

    def moved(row: tuple, at: int) -> tuple:
        return (*row[:at], f"biblios/{row[at]}", *row[at + 1 :])

    return {
        table: sorted(moved(row, edition_at[table]) for row in table_rows)
        if table in edition_at
        else table_rows
        for table, table_rows in found.items()
    }


def test_editions_become_biblios_variants_and_nothing_is_lost_either_way(old_schema):
    games = fill_old_database(old_schema)
    before = rows(old_schema, "edition")

    new = migrate(AFTER)
    assert rows(new, "kind/variant") == as_kind_variant(before)
    Game = new.get_model("games", "Game")
    assert Game.objects.get(pk=games["scripts_and_scribes"]).variant == "scripts_and_scribes"
    assert set(Game.objects.values_list("kind", flat=True)) == {"biblios"}

    back = migrate(BEFORE)
    assert rows(back, "edition") == before


def test_ratings_are_unique_per_player_kind_and_variant_after_the_move(old_schema):
    fill_old_database(old_schema)
    new = migrate(AFTER)
    Rating = new.get_model("ratings", "Rating")
    ada = new.get_model("accounts", "User").objects.get(username="ada")
    Rating.objects.create(user=ada, kind="toy", variant="biblios", rating=1500, games=0)
    with pytest.raises(IntegrityError):
        Rating.objects.create(user=ada, kind="biblios", variant="biblios", rating=1500, games=0)
