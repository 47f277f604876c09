"""Players who chat and a moderator: the moderation tests' fixtures."""

from tests.moderation.conftest import moderator, users  # noqa: F401
