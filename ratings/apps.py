from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self):
        # Connects the receiver that rates a game when games.services finishes it.
        from ratings import services  # noqa: F401
