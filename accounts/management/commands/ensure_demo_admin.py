"""Create the well-known demo superuser for local development.

`make run` calls this on every start, so it must be idempotent, and it refuses to
run with DEBUG off because the password is public.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

USERNAME = "admin"
PASSWORD = "admin"


class Command(BaseCommand):
    help = "Create the demo superuser admin/admin if it does not exist (DEBUG only)."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError(
                "Refusing to create a demo admin with a public password: DEBUG is off."
            )
        user_model = get_user_model()
        if user_model.objects.filter(username=USERNAME).exists():
            status = "exists"
        else:
            user_model.objects.create_superuser(USERNAME, email="", password=PASSWORD)
            status = "created"
        self.stdout.write(f"Demo admin {status}: username {USERNAME!r}, password {PASSWORD!r}")
