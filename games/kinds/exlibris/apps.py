from django.apps import AppConfig


class ExLibrisConfig(AppConfig):
    """An app so that Django finds Ex Libris' templates and template tags like any app's."""

    name = "games.kinds.exlibris"
    label = "exlibris"
    default_auto_field = "django.db.models.BigAutoField"
