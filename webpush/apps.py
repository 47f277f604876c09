from django.apps import AppConfig


class WebpushConfig(AppConfig):
    name = "webpush"
    verbose_name = "Web Push"

    def ready(self):
        # Registers the check that the VAPID keys are one pair.
        from webpush import checks  # noqa: F401
