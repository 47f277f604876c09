"""A real daphne server and Debian's chromium, for tests that only a browser can make.

The server runs in a subprocess on its own scratch SQLite database (the channel layer follows
REDIS_URL, so the services pass drives the Redis layer too). Screenshots go to
`test-artifacts/browser/`. `live_site` runs with DEBUG on, `production_site` as production does
(DEBUG off, collected static files served compressed by whitenoise).
"""

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.webpush.push_service import vapid_keys

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
# The tests click far faster than people; the limits have their own tests. Every test browser
# signs up from 127.0.0.1 (and shares its page reads and its share of the shedder until the
# worker knows its session). Bots move at once, so a game against one is over in seconds.
TEST_ENV = {
    "RATE_LIMIT_ACTIONS": "100000/1",
    "RATE_LIMIT_SIGNUPS": "100000/1",
    "RATE_LIMIT_API": "100000/1",
    "RATE_LIMIT_PAGES": "100000/1",
    "MAX_INFLIGHT_PER_CLIENT": "100000",
    "BOT_MOVE_DELAY_S": "0.05",
    # Reviews of one sampled world a decision (which has no error to draw more worlds for),
    # looked for every second: the page's story, not the bot's judgement, which
    # tests/kinds/test_review.py and docs/review.md look at. (Every site runs to the end of the
    # suite: a faster look cost each idle site 2% of a core.)
    "ANALYSIS_ROUNDS": "1",
    "ANALYSIS_POLL_S": "1",
    # Web Push on (a key pair made for this run), so every page test also walks the profile's
    # "Notify me on this device" switch.
    **vapid_keys(),
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def site_env(folder: Path, settings: dict) -> dict:
    """The environment of a site whose SQLite database is in `folder`, with `settings`."""
    return {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "tests.browser.site_settings",
        **TEST_ENV,
        **settings,
    }


def manage(env: dict, *arguments: str) -> str:
    """Run a management command of the site in `env`; returns what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT, env=env, check=True, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    return done.stdout


def serve(env: dict, log: Path):
    """Migrate the site's database (and collect its static files if `env` names a STATIC_ROOT)
    and serve it with daphne, its output in `log`; yields the base URL, then stops daphne."""
    manage(env, "migrate", "--noinput", "-v0")
    if "STATIC_ROOT" in env:
        manage(env, "collectstatic", "--noinput", "-v0")
    port = _free_port()
    with log.open("wb") as log_file:  # a file, not a pipe nobody reads: a full pipe blocks daphne
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "biblios_site.asgi:application"],
            cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(base + "/", timeout=2)
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError(f"daphne did not start: {log.read_text()[-2000:]}") from None
            time.sleep(0.2)
    yield base
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture(scope="session")
def live_site_env(tmp_path_factory) -> dict:
    """The environment `live_site` runs in: with `manage`, a test can seed its database."""
    return site_env(tmp_path_factory.mktemp("site"), {"DEBUG": "1"})


@pytest.fixture(scope="session")
def live_site(live_site_env):
    """The base URL of a freshly migrated site served by daphne, DEBUG on."""
    database = Path(live_site_env["DATABASE_URL"].removeprefix("sqlite:///"))
    yield from serve(live_site_env, database.with_name("daphne.log"))


@pytest.fixture(scope="session")
def production_site(tmp_path_factory):
    """The site as production runs it (docs/deploy.md): DEBUG off, a real secret key, static
    files collected (compressed, content-hashed) and served by whitenoise. Plain HTTP on
    127.0.0.1, so no redirect to https and no HSTS; chromium keeps the Secure cookies anyway,
    127.0.0.1 being a secure context."""
    folder = tmp_path_factory.mktemp("production")
    settings = {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "STATIC_ROOT": str(folder / "static"),
    }
    yield from serve(site_env(folder, settings), folder / "daphne.log")


@pytest.fixture(scope="module")
def browser():
    """Module-scoped: Playwright's sync API runs an event loop in the main thread while it is
    open, which would break every later test that uses async_to_sync."""
    assert Path(CHROMIUM).exists(), f"browser tests need {CHROMIUM} (make test installs it)"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def screenshot():
    """Save a page's screenshot under test-artifacts/browser/ (kept for people to look at)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str):
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    return take
