"""A game is a (kind, variant) of the game registry instead of a Biblios edition.

Every stored game was Biblios, its edition the variant: the copy keeps each one as it was. The
player-count check moves to the services (each kind has its own range); bot levels, per kind
now, lose their choices.
"""

from django.db import migrations, models
from django.db.models import F


def edition_to_kind_and_variant(apps, schema_editor):
    apps.get_model("games", "Game").objects.update(kind="biblios", variant=F("edition"))


def kind_and_variant_to_edition(apps, schema_editor):
    games = apps.get_model("games", "Game").objects
    if games.exclude(kind="biblios").exists():
        raise RuntimeError("games of other kinds than Biblios exist: editions cannot hold them")
    games.update(edition=F("variant"))


class Migration(migrations.Migration):
    dependencies = [("games", "0006_bots_timers_rated")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="kind",
            field=models.CharField(default="", max_length=24),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="game",
            name="variant",
            field=models.CharField(default="", max_length=32),
            preserve_default=False,
        ),
        migrations.RunPython(edition_to_kind_and_variant, kind_and_variant_to_edition),
        migrations.RemoveField(model_name="game", name="edition"),
        migrations.RemoveConstraint(model_name="game", name="game_num_players_2_to_4"),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(("num_players__gte", 1)), name="game_num_players_at_least_1"
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="state",
            field=models.TextField(
                blank=True, help_text="Cached engine state (the engine's dumps)."
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="bot_level",
            field=models.CharField(
                blank=True,
                default="",
                help_text="The bot playing this seat now; empty when its user plays.",
                max_length=16,
            ),
        ),
    ]
