"""Send what the notifications' outbox holds, due e-mails, digests and pushes.

The daphne workers do this by themselves every NOTIFY_POLL_S; this is for a deployment that
runs its workers with TURN_WORKER=0, or to drain the outbox by hand (cron, a shell).
"""

from django.core.management.base import BaseCommand

from notifications import sending


class Command(BaseCommand):
    help = "Send the notifications' due e-mails, daily digests and pushes."

    def handle(self, *args, **options):
        total = 0
        while sent := sending.send_pending():
            total += sent
        self.stdout.write(f"{total} sent")
