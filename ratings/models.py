"""Ratings per player and game variant, and the change each rated game made (the history).

Both tables are written only by `ratings.services.rate_game`, inside the transaction that
finishes the game, so a finished rated game and its rating changes exist together or not at all.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.kinds import registry
from games.models import Game
from ratings import elo


class Rating(models.Model):
    """A player's current rating in one variant of a game kind (Biblios, Scripts & Scribes are
    rated apart), and how many rated games made it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(max_length=24)
    variant = models.CharField(max_length=32)
    rating = models.FloatField(default=elo.START_RATING)
    games = models.PositiveIntegerField(default=0, help_text=_("Rated games finished."))

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "variant"], name="rating_user_kind_variant_unique"
            )
        ]
        indexes = [models.Index(fields=["kind", "variant", "-rating"], name="rating_leaderboard")]

    def __str__(self):
        return f"{self.user}: {self.rating:.0f} in {registry.of(self).variant_name(self.variant)}"

    @property
    def provisional(self) -> bool:
        return self.games < elo.PROVISIONAL_GAMES


class RatingChange(models.Model):
    """What one rated game did to one player's rating; at most one per (game, player)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    # The game's kind and variant, copied so a player's history is one indexed query.
    kind = models.CharField(max_length=24)
    variant = models.CharField(max_length=32)
    place = models.PositiveSmallIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once_per_game")
        ]
        indexes = [
            models.Index(
                fields=["user", "kind", "variant", "-created_at"], name="rating_change_history"
            )
        ]

    def __str__(self):
        return f"{self.user} in game {self.game_id}: {self.before:.0f} → {self.after:.0f}"

    @property
    def delta(self) -> float:
        return self.after - self.before
