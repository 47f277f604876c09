from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        # Connects the logout signal that closes the session's sockets.
        from accounts import credentials  # noqa: F401
