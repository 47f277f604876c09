from collections import Counter, defaultdict

from django.db import migrations, models


def number_twin_bots(apps, schema_editor):
    """Tables opened before bots were numbered: two bots of one level get 1, 2… by seat."""
    Seat = apps.get_model("games", "Seat")
    bots = defaultdict(list)
    for seat in Seat.objects.filter(user__isnull=True).order_by("game_id", "position"):
        bots[seat.game_id].append(seat)
    for seats in bots.values():
        counts = Counter(seat.bot_level for seat in seats)
        seen = Counter()
        for seat in seats:
            if counts[seat.bot_level] > 1:
                seen[seat.bot_level] += 1
                Seat.objects.filter(pk=seat.pk).update(bot_number=seen[seat.bot_level])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_rematch_offer"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="bot_number",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Among the table's bots of this level; 0 when it is the only one.",
            ),
        ),
        migrations.RunPython(number_twin_bots, migrations.RunPython.noop),
    ]
