from django.apps import AppConfig


class BibliosConfig(AppConfig):
    """An app so that Django finds Biblios' templates and template tags like any app's."""

    name = "games.kinds.biblios"
    label = "biblios"
    default_auto_field = "django.db.models.BigAutoField"
