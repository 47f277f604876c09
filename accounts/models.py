"""User accounts.

The user model is custom from the first migration because swapping it later is painful.
"""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    display_name = models.CharField(
        max_length=40, blank=True, help_text="Name shown to other players at the table."
    )

    def __str__(self):
        return self.display_name or self.username
