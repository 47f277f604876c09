"""User accounts.

The user model is custom from the first migration because swapping it later is painful.
"""

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.models import AbstractUser
from django.db import models, transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy


class Theme(models.TextChoices):
    """The site's colours: the device's preference (prefers-color-scheme), or one forced."""

    AUTO = "auto", gettext_lazy("Automatic")
    LIGHT = "light", gettext_lazy("Light")
    DARK = "dark", gettext_lazy("Dark")


class User(AbstractUser):
    display_name = models.CharField(
        max_length=40, blank=True, help_text="Name shown to other players at the table."
    )
    ban_reason = models.TextField(
        blank=True, help_text="Why a moderator banned (deactivated) this account."
    )
    muted_until = models.DateTimeField(
        null=True, blank=True, help_text="No table chat until then (set by a moderator)."
    )
    # Blank until the player picks one: until then the browser's language applies.
    language = models.CharField(
        max_length=8, blank=True, help_text="Language code the site is shown in (en, fr, es)."
    )
    theme = models.CharField(
        max_length=5,
        choices=Theme.choices,
        default=Theme.AUTO,
        help_text="Light or dark colours, or the device's own preference (auto).",
    )

    class Meta(AbstractUser.Meta):
        constraints = [
            # The sign-up form checks this too; the index makes racing sign-ups safe.
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~models.Q(display_name=""),
                name="user_display_name_ci_unique",
            )
        ]

    def __str__(self):
        return self.display_name or self.username

    def muted(self, now=None) -> bool:
        return self.muted_until is not None and self.muted_until > (now or timezone.now())


# `last_used_at` is written at most this often: writing it on every API call and socket was a
# tenth of a loaded worker's time (benchmarks/load.py), and the profile page and the admin only
# need to tell roughly when a token was last used (an unused or forgotten one).
LAST_USED_PRECISION = timedelta(minutes=5)


# Enough for every bot and script a player runs; stops one account from piling up rows.
MAX_TOKENS_PER_USER = 20


class TooManyTokens(Exception):
    """The user holds MAX_TOKENS_PER_USER tokens already (the argument)."""


class ApiToken(models.Model):
    """A personal token for the board API (`Authorization: Bearer <token>`).

    Only a hash is stored: the token itself is shown once, when it is created.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, blank=True)
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8, help_text="First characters, to tell tokens apart.")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"{self.prefix}… ({self.user})"

    @staticmethod
    def hash(raw: str) -> str:
        return hashlib.sha256(raw.encode()).hexdigest()

    @classmethod
    def issue(cls, user, name: str = "") -> tuple["ApiToken", str]:
        """Create a token within the cap; returns it with the raw secret, which is never stored.

        Counting under the user's row lock keeps the cap exact when tokens are created at once
        (on SQLite the IMMEDIATE transaction itself serialises writers).
        """
        raw = secrets.token_urlsafe(32)
        with transaction.atomic():
            User.objects.select_for_update().filter(pk=user.pk).first()
            if cls.objects.filter(user=user).count() >= MAX_TOKENS_PER_USER:
                raise TooManyTokens(MAX_TOKENS_PER_USER)
            token = cls.objects.create(user=user, name=name, key_hash=cls.hash(raw), prefix=raw[:8])
        return token, raw

    @classmethod
    def user_for(cls, raw: str):
        """The active user a raw token belongs to, or None."""
        token = cls.find(raw)
        return token.user if token is not None else None

    @classmethod
    def find(cls, raw: str) -> "ApiToken | None":
        """The token `raw` is, with its user, if it exists and that user is active; a socket
        keeps it to re-check it on every move (`still_valid`)."""
        if not isinstance(raw, str) or not raw or len(raw) > 200:
            return None
        token = cls.objects.select_related("user").filter(key_hash=cls.hash(raw)).first()
        if token is None or not token.user.is_active:
            return None
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
            cls.objects.filter(pk=token.pk).update(last_used_at=now)
        return token

    @classmethod
    def still_valid(cls, token_id: int) -> bool:
        """Not revoked, and its user not banned since: one indexed query."""
        return cls.objects.filter(pk=token_id, user__is_active=True).exists()
