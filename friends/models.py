"""Friend requests, friendships and blocks between players.

A platform app: it knows users only, never a game; `games` asks it who is whose friend (the
lobby, friends-only tables, invitations) and whom a reader blocked (the chat).
"""

from django.conf import settings
from django.db import models
from django.db.models.functions import Greatest, Least


class Friendship(models.Model):
    """A friend request from `sender` to `receiver` and, once accepted, their friendship.

    One row per pair of users whoever asked first (the unique pair below), so two people asking
    each other at once end with one row: the second request becomes an acceptance. Refusing,
    cancelling and removing a friend delete the row.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Request pending"
        ACCEPTED = "accepted", "Friends"

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests_sent"
    )
    receiver = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="friend_requests_received",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["receiver", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(sender=models.F("receiver")), name="friendship_not_self"
            ),
            models.UniqueConstraint(
                Least("sender", "receiver"), Greatest("sender", "receiver"), name="friendship_pair"
            ),
        ]

    def __str__(self):
        return f"{self.sender} → {self.receiver} ({self.get_status_display()})"


class Block(models.Model):
    """`blocker` blocked `blocked`: no requests or invitations from them, no chat of theirs."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
        ]

    def __str__(self):
        return f"{self.blocker} blocked {self.blocked}"
