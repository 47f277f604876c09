from django.apps import AppConfig


class ToyConfig(AppConfig):
    """An app, like every game's package, so that its templates and template tags load."""

    name = "tests.kinds.toy"
    label = "toy"
