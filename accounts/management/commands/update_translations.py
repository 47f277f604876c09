"""`manage.py update_translations`: the French and Spanish catalogues brought up to date.

`makemessages` for every language the site offers besides English, over the project's own code
and templates only, so `make messages` and the catalogue test (tests/i18n) extract exactly the
same strings.
"""

import os
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

# Third-party code, tests and generated files hold no string of ours.
IGNORE = [".venv", "tests", "benchmarks", "docs", "staticfiles", "build", "*.egg-info"]


def translated_languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


class Command(BaseCommand):
    help = "Run makemessages for every translated language of the site."

    def add_arguments(self, parser):
        parser.add_argument(
            "--root",
            default=str(settings.BASE_DIR),
            help="Project directory to extract from (default: this project).",
        )

    def handle(self, *args, root, verbosity, **options):
        # makemessages reads the current directory and writes to LOCALE_PATHS.
        previous = Path.cwd()
        os.chdir(root)
        try:
            call_command(
                "makemessages",
                locale=translated_languages(),
                ignore_patterns=IGNORE,
                no_obsolete=True,
                add_location="file",
                verbosity=verbosity,
            )
        finally:
            os.chdir(previous)
