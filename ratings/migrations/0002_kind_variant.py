"""Ratings are kept per (kind, variant) of the game registry instead of per Biblios edition;
every stored rating and rating change was Biblios, its edition the variant."""

from django.db import migrations, models
from django.db.models import F

RATED_MODELS = ("Rating", "RatingChange")


def edition_to_kind_and_variant(apps, schema_editor):
    for name in RATED_MODELS:
        apps.get_model("ratings", name).objects.update(kind="biblios", variant=F("edition"))


def kind_and_variant_to_edition(apps, schema_editor):
    for name in RATED_MODELS:
        rows = apps.get_model("ratings", name).objects
        if rows.exclude(kind="biblios").exists():
            raise RuntimeError(
                "ratings of other kinds than Biblios exist: editions cannot hold them"
            )
        rows.update(edition=F("variant"))


def kind_and_variant(model_name: str) -> list:
    return [
        migrations.AddField(
            model_name=model_name,
            name="kind",
            field=models.CharField(default="", max_length=24),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name=model_name,
            name="variant",
            field=models.CharField(default="", max_length=32),
            preserve_default=False,
        ),
    ]


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]

    # The old keys go first so that, on the way back, they return only once the editions are.
    operations = [
        migrations.RemoveConstraint(model_name="rating", name="rating_user_edition_unique"),
        migrations.RemoveIndex(model_name="rating", name="rating_leaderboard"),
        migrations.RemoveIndex(model_name="ratingchange", name="ratings_rat_user_id_aa1f45_idx"),
        *kind_and_variant("rating"),
        *kind_and_variant("ratingchange"),
        migrations.RunPython(edition_to_kind_and_variant, kind_and_variant_to_edition),
        # A default for the way back, which adds the column again before refilling it.
        *(
            migrations.AlterField(
                model_name=model_name,
                name="edition",
                field=models.CharField(default="", max_length=24),
            )
            for model_name in ("rating", "ratingchange")
        ),
        migrations.RemoveField(model_name="rating", name="edition"),
        migrations.RemoveField(model_name="ratingchange", name="edition"),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.UniqueConstraint(
                fields=("user", "kind", "variant"), name="rating_user_kind_variant_unique"
            ),
        ),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(fields=["kind", "variant", "-rating"], name="rating_leaderboard"),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(
                fields=["user", "kind", "variant", "-created_at"], name="rating_change_history"
            ),
        ),
    ]
