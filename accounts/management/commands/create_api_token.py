"""Issue an API token from the command line, e.g. for a bot account without a browser."""

from django.core.management.base import BaseCommand, CommandError

from accounts.models import ApiToken, TooManyTokens, User


class Command(BaseCommand):
    help = "Create an API token for USERNAME and print it (it is shown only this once)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="", help="A label to tell the token apart.")

    def handle(self, *args, username, name, **options):
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no user {username!r}.")
        if not user.is_active:
            raise CommandError(f"User {username!r} is inactive; its tokens would not work.")
        max_length = ApiToken._meta.get_field("name").max_length
        if len(name) > max_length:
            raise CommandError(f"A token name has at most {max_length} characters.")
        try:
            _, raw = ApiToken.issue(user, name)
        except TooManyTokens as cap:
            raise CommandError(f"User {username!r} has {cap} tokens already; revoke one.") from None
        self.stdout.write(raw)
