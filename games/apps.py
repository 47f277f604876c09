from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        """The admin of games and users lives in the moderation room (`moderation.admin`),
        where the admin's autodiscovery, which imports `games.admin`, would not look; the
        tournaments follow their tables' ends through signals."""
        from games.moderation import admin  # noqa: F401
        from games.tournaments import admin as tournaments_admin  # noqa: F401
        from games.tournaments import services  # noqa: F401 (connects its signal receivers)
