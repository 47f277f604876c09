"""What every test needs: to start in the site's default language."""

import os

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def default_language():
    """A page in French leaves French active in the test's thread (Django activates, never
    resets); without this, messages a later test matches on would read in another language."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(scope="session", autouse=True)
def empty_cache():
    """Rate-limit counts in Redis outlive a run (some windows last a day), so a second run
    would start over its limits; each test process has a Redis database of its own
    (biblios_site/settings_test.py), which it empties first."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """A run that was killed leaves its SQLite test database's WAL and shared-memory files
    behind; pytest-django deletes the database file but not those, and the next run then fails
    every test with "disk I/O error". This process's own files only (the name carries its
    xdist suffix by now)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "biblios_site.sqlite":
        name = database.get("TEST", {}).get("NAME") or ""
        for leftover in (f"{name}-wal", f"{name}-shm"):
            if name and os.path.exists(leftover):
                os.remove(leftover)


# Tests of the pure rules engines and bots (folders and files under tests/): no database, no
# channel layer, no settings. They give the same answer against any services, so `make
# test-services` deselects them (-m "not pure") and they run once, in `make test`.
PURE_TESTS = (
    "kinds/biblios/engine",
    "kinds/biblios/bots",
    "kinds/exlibris/engine",
    "kinds/exlibris/bots",
    "kinds/test_conformance.py",
    "kinds/test_review.py",
    "kinds/test_golden.py",
    "kinds/test_one_fold.py",
    "kinds/test_engine_purity.py",
)
SERVICE_FIXTURES = {"db", "transactional_db", "live_server", "settings", "client"}
# How pages look in a browser (layout at each width, contrast, console, weight, motion, screenshots,
# the Content-Security-Policy their markup runs under, the installable app's manifest and service
# worker, the replay viewer's steps and layout), and what a kind's board draws from its views (Ex
# Libris' regions, decisions, games through its buttons, names, rules page, weight; Biblios' card
# faces, banners and charts, games through the pages' forms and the leak scans of every page and
# fragment; every kind's page and pushes within its weight budget; the lessons of learn-to-play,
# kept in the session; how a refusal, the waiting room, the board script and a tournament's pages
# read in a browser), what each language reads (catalogues, translated pages) and what a
# notification's text may say, is the same whatever database and channel layer serve them: run once,
# in `make test`, as do the response headers, the socket frames' leak scan, and (marked `look` where
# they stand) the other leak scans of sockets, API boards and replays and the load benchmark's own
# stepping. Lost pushes, dropped sockets and every kind's API, socket, turn and history tests run in
# both passes; the whole games of the live browsers, of the API and of the searching bots share
# their cases between the two (tests/passes.py).
LOOK_TESTS = (
    "kinds/exlibris/site/test_board.py",
    "kinds/test_public_regions.py",
    "kinds/test_region_reads.py",
    "kinds/exlibris/site/test_chart.py",
    "kinds/exlibris/site/test_decisions.py",
    "kinds/exlibris/site/test_names.py",
    "kinds/exlibris/site/test_regions.py",
    "kinds/exlibris/site/test_rules_page.py",
    "kinds/exlibris/site/test_weight.py",
    "kinds/test_board_weight.py",
    "kinds/exlibris/site/test_lesson.py",
    "kinds/biblios/site/test_full_games.py",
    "kinds/biblios/site/test_leaks.py",
    "kinds/biblios/site/test_end_banner.py",
    "kinds/biblios/site/test_look.py",
    "kinds/biblios/site/test_rendering.py",
    "kinds/biblios/site/test_score_chart.py",
    "kinds/biblios/site/test_table_layout.py",
    "kinds/biblios/site/test_rules_page.py",
    "kinds/biblios/site/test_lesson.py",
    "live/test_leaks.py",
    "reliability/test_headers.py",
    "web/test_table_form_look.py",
    "learn",
    "i18n",
    "notifications/test_leaks.py",
    "browser/test_csp.py",
    "browser/test_pages.py",
    "browser/test_page_weight.py",
    "browser/test_phone_play.py",
    "browser/test_motion.py",
    "browser/test_screenshots.py",
    "browser/test_exlibris.py",
    "browser/test_learn.py",
    "browser/test_learn_exlibris.py",
    "browser/test_pwa.py",
    "browser/test_replay.py",
    "browser/test_review.py",
    "browser/test_refusals_shown.py",
    "browser/test_look_board_script.py",
    "browser/test_waiting_room.py",
    "browser/test_tournament.py",
)


# The deployment of docs/deploy.md run for real (nginx in front of workers, PostgreSQL's dump
# and restore, migrations of a release's database) and the soak of two workers in production's
# shape: PostgreSQL and Redis are what they test, so only `make test-services` runs them (`make
# test` deselects -m "not services"; a run on SQLite skips them).
SERVICES_TESTS = ("deploy", "reliability/test_soak.py")


# The lists as path parts: pathlib's is_relative_to, asked forty names for each of 4,000 tests,
# took a second and a half of every test process's collection.
_PURE_PARTS, _LOOK_PARTS, _SERVICES_PARTS = (
    tuple(tuple(name.split("/")) for name in names)
    for names in (PURE_TESTS, LOOK_TESTS, SERVICES_TESTS)
)


def pytest_itemcollected(item):
    """Marks the pure tests (before `-m` selects), refusing one that asks for a service, the
    browser tests of how pages look, and the tests that need PostgreSQL (skipped without it)."""
    parts = item.path.relative_to(item.config.rootpath / "tests").parts

    def under(names) -> bool:
        return any(parts[: len(name)] == name for name in names)

    if under(_SERVICES_PARTS):
        item.add_marker(pytest.mark.services)
        if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL (make test-services)"))
    if under(_PURE_PARTS):
        services = SERVICE_FIXTURES.intersection(item.fixturenames)
        if services or item.get_closest_marker("django_db"):
            raise pytest.UsageError(
                f"{item.nodeid} is in a pure test folder but needs {sorted(services)}"
                " or the database: move it, or the services pass would never run it"
            )
        item.add_marker(pytest.mark.pure)
    if under(_LOOK_PARTS):
        item.add_marker(pytest.mark.look)


@pytest.hookimpl(trylast=True)  # after `-m` has deselected: the order is of what runs
def pytest_collection_modifyitems(items):
    items[:] = slow_first(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))


SLOW_SECONDS = 10  # a slow test's expected length when its mark does not say (slow(seconds=…))


def slow_first(items: list, workers: int) -> list:
    """The order that lets `--dist worksteal` finish soonest: it hands worker k the k-th
    contiguous share of the list and lets an idle worker steal from the end of another's share,
    so the minutes-long tests (the soak, the browser games) must start each share, spread over
    the workers longest first by their expected length; the quick tests fill each share and
    are the ones left to steal at the end. Every worker computes the same order (xdist checks)."""
    slow = [item for item in items if item.get_closest_marker("slow")]
    quick = [item for item in items if not item.get_closest_marker("slow")]
    expected = {
        id(item): item.get_closest_marker("slow").kwargs.get("seconds", SLOW_SECONDS)
        for item in slow
    }
    shares, loads = [[] for _ in range(workers)], [0] * workers
    for item in sorted(slow, key=lambda item: -expected[id(item)]):
        lightest = loads.index(min(loads))
        shares[lightest].append(item)
        loads[lightest] += expected[id(item)]
    ordered, left = [], len(items)
    for k, share in enumerate(shares):
        size = left // (workers - k)  # worksteal's first split (xdist/scheduler/worksteal.py)
        fill = max(size - len(share), 0)
        ordered += share + quick[:fill]
        quick = quick[fill:]
        left -= size
    return ordered + quick
