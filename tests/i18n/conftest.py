"""The translation tests need the compiled catalogues, which the build makes and git ignores."""

import pytest
from django.conf import settings
from django.core.management import call_command


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues():
    """Compile locale/*/django.po when a .mo is missing or older (`make test` already did)."""
    for po in (settings.BASE_DIR / "locale").glob("*/LC_MESSAGES/django.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            call_command("compilemessages", locale=[po.parent.parent.name], verbosity=0)
