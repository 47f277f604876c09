"""Seats say whether the engine waits on them ("Your turn" list and count).

The services keep `Seat.on_turn` with every state they save; the games already in progress get
it here from their stored state, through their kind's engine (the one place that knows whose
turn it is). A game of a kind no longer installed is left unmarked: it cannot be played anyway.
"""

from django.db import migrations, models


def mark_seats_on_turn(apps, schema_editor):
    from games.kinds import registry

    Game, Seat = apps.get_model("games", "Game"), apps.get_model("games", "Seat")
    for game in Game.objects.filter(status="active").only("pk", "kind", "state").iterator():
        try:
            engine = registry.get(game.kind, include_alpha=True).engine
        except registry.UnknownKind:
            continue
        to_act = engine.to_act(engine.loads(game.state))
        Seat.objects.filter(game_id=game.pk, position__in=to_act).update(on_turn=True)


class Migration(migrations.Migration):
    dependencies = [("games", "0007_kind_variant")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="on_turn",
            field=models.BooleanField(
                default=False, help_text="The engine waits on this seat's move in an active game."
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=models.Q(on_turn=True), fields=["user"], name="seat_on_turn"
            ),
        ),
        migrations.RunPython(mark_seats_on_turn, migrations.RunPython.noop),
    ]
