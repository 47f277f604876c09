from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        """The admin of games and users lives in the moderation room (`moderation.admin`),
        where the admin's autodiscovery, which imports `games.admin`, would not look."""
        from games.moderation import admin  # noqa: F401
