"""Settings for pytest, so that a bare `pytest` needs no environment variables.

Development defaults are applied only where the environment says nothing, so
`make test-services` can still point DATABASE_URL and REDIS_URL at real services.
pytest-django reads settings before any conftest.py runs, which is why these
defaults live here rather than in tests/conftest.py.
"""

import os
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("DEBUG", "1")


def _redis_url_of_this_test_process(url: str, xdist_worker: str) -> str:
    """pytest-xdist runs the suite in several processes, each on its own test database; each
    also gets its own Redis database (the URL's number plus the worker's), so that one
    process's game 1 never hears another's hints or rate-limit counts."""
    if not url or not xdist_worker.startswith("gw"):
        return url
    parts = urlsplit(url)
    number = parts.path.strip("/")
    first = int(number) if number.isdigit() else 0
    return urlunsplit(parts._replace(path=f"/{first + int(xdist_worker[2:])}"))


os.environ["REDIS_URL"] = _redis_url_of_this_test_process(
    os.environ.get("REDIS_URL", ""), os.environ.get("PYTEST_XDIST_WORKER", "")
)

from biblios_site.settings import *  # noqa: E402, F403

# Hashing cost only slows the suite down; no test depends on the real hasher.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# Explicit, so the WebSocket origin check (which reads this once, at import) does not depend
# on DEBUG's implicit localhost defaults.
ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]

if DATABASES["default"]["ENGINE"] == "biblios_site.sqlite":  # noqa: F405
    # A file, not the shared in-memory database, so concurrent tests see SQLite's real locking.
    # TEST_SQLITE_NAME lets several checkouts' suites run side by side without sharing a file.
    _test_db = os.environ.get("TEST_SQLITE_NAME", ".test-db.sqlite3")
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / _test_db)}  # noqa: F405

# Tests play whole games, sign up and log in at machine speed through every door;
# tests/reliability (test_security, test_limits) puts the real limits back where it tests them.
# The chat keeps its real count: tests/chat checks the flood refusal.
RATE_LIMITS = {scope: "100000/1" for scope in RATE_LIMITS} | {"chat": RATE_LIMITS["chat"]}  # noqa: F405
MAX_OPEN_TABLES_PER_USER = 100000
AXES_ENABLED = False
