"""A real daphne server and Debian's chromium, for tests that only a browser can make.

The server runs in a subprocess on its own scratch SQLite database (the channel layer follows
REDIS_URL, so the services pass drives the Redis layer too). Screenshots go to
`test-artifacts/browser/`.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTIFACTS = ROOT / "test-artifacts" / "browser"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def live_site(tmp_path_factory):
    """The base URL of a freshly migrated site served by daphne."""
    database = tmp_path_factory.mktemp("site") / "site.sqlite3"
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_SETTINGS_MODULE": "biblios_site.settings",
        # The tests click far faster than people; the limits have their own tests.
        "RATE_LIMIT_ACTIONS": "100000/1",
        # Every test browser signs up from 127.0.0.1.
        "RATE_LIMIT_SIGNUPS": "100000/1",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    port = _free_port()
    log = database.with_name("daphne.log")
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
