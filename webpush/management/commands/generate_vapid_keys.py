"""Print a fresh VAPID key pair for Web Push, as the settings read it from the environment."""

from django.core.management.base import BaseCommand

from webpush.vapid import new_pair


class Command(BaseCommand):
    help = (
        "Print VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY lines for the environment. Changing the "
        "keys later invalidates every existing push subscription."
    )

    def handle(self, *args, **options):
        public, private = new_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}")
