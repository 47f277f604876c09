"""Notifications and their outbox.

A `Notification` is what a user sees in the site's list; each way it also goes out (an e-mail,
a place in the daily digest, a Web Push) is a `Delivery` of the outbox. Both are written by
`services.notify` inside the transaction of the move, start or finish that causes them, so a
worker that dies loses nothing (the rows commit with the cause or not at all) and doubles
nothing (the unique constraints below refuse a second notification of the same cause, and a
delivery is marked sent right after it went).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy


class Notification(models.Model):
    class Event(models.TextChoices):
        YOUR_TURN = "your_turn", gettext_lazy("Your turn")
        GAME_STARTED = "game_started", gettext_lazy("Game started")
        GAME_FINISHED = "game_finished", gettext_lazy("Game over")
        INVITATION = "invitation", gettext_lazy("Invitation")
        REMATCH = "rematch", gettext_lazy("Rematch")
        MODERATOR = "moderator", gettext_lazy("Message from the moderators")
        FRIEND_REQUEST = "friend_request", gettext_lazy("Friend request")
        FRIEND_ACCEPTED = "friend_accepted", gettext_lazy("Friend request accepted")
        MUTED = "muted", gettext_lazy("Muted in table chats")
        TOURNEY_REGISTERED = "tourney_registered", gettext_lazy("Registered for a tournament")
        TOURNEY_ROUND = "tourney_round", gettext_lazy("Tournament round started")
        TOURNEY_WITHDRAWN = "tourney_withdrawn", gettext_lazy("Withdrawn from a tournament")
        TOURNEY_OVER = "tourney_over", gettext_lazy("Tournament over")
        TOURNEY_CANCELLED = "tourney_cancelled", gettext_lazy("Tournament cancelled")
        ORDER_STOPPED = "order_stopped", gettext_lazy("Standing order switched off")

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    event = models.CharField(max_length=20, choices=Event.choices)
    # Named by string, so this app's models import no other app's.
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # The tournament it tells of (registration, a round, the end), by string as `game`.
    tournament = models.ForeignKey(
        "games.Tournament", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # Only a moderator's words have text of their own (a message, a mute's reason); every other
    # text is rendered from the event, game and actor in the reader's language when it is shown
    # or sent.
    text = models.TextField(blank=True)
    # When what it tells of ends (a mute), shown in the reader's language.
    until = models.DateTimeField(null=True, blank=True)
    # What caused it (e.g. "g12v7": game 12 reached version 7): one notification per
    # (recipient, event, cause), whatever retries or races happen.
    cause = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "event", "cause"], name="one_notification_per_cause"
            )
        ]
        indexes = [
            models.Index(fields=["recipient", "-created_at"], name="notification_list"),
            models.Index(
                fields=["recipient"], condition=Q(read_at__isnull=True), name="notification_unread"
            ),
        ]

    def __str__(self):
        return f"{self.get_event_display()} for {self.recipient} ({self.cause})"


class Delivery(models.Model):
    """One way a notification leaves the site; the outbox the sending worker drains."""

    class Channel(models.TextChoices):
        EMAIL = "email", "E-mail"
        DIGEST = "digest", "Daily digest e-mail"
        PUSH = "push", "Web Push"

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(max_length=8, choices=Channel.choices)
    # When a worker may (next) try it: at once, after a failure's back-off, for a digest the
    # day's end; a worker that claims it moves it a lease ahead, so a dead worker's claim ends.
    due_at = models.DateTimeField(default=timezone.now)
    claimed_by = models.CharField(max_length=32, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["notification", "channel"], name="one_delivery_per_channel"
            )
        ]
        indexes = [
            models.Index(
                fields=["due_at"], condition=Q(sent_at__isnull=True), name="delivery_pending"
            )
        ]

    def __str__(self):
        return f"{self.get_channel_display()} of {self.notification}"


class Preference(models.Model):
    """A user's choice of e-mail; no row means the default (each notice) at version 0."""

    class Email(models.TextChoices):
        EACH = "each", gettext_lazy("An e-mail for each notice")
        DIGEST = "digest", gettext_lazy("One e-mail a day, a digest")
        NONE = "none", gettext_lazy("No e-mail")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="notification_preference",
    )
    email = models.CharField(max_length=8, choices=Email.choices, default=Email.EACH)
    # One more each time the choice is saved: an e-mail's unsubscribe link names the version it
    # was sent under and serves only that one, so it works once, and never after the player
    # chose again (notifications/tokens.py).
    email_version = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"{self.user}: {self.email}"
