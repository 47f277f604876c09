"""What every test needs: to start in the site's default language."""

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


# Tests of the pure rules engines and bots: no database, no channel layer, no settings. They
# give the same answer against any services, so `make test-services` deselects them (-m "not
# pure") and they run once, in `make test`.
PURE_TEST_DIRS = ("engine", "exlibris", "bots")
SERVICE_FIXTURES = {"db", "transactional_db", "live_server", "settings", "client"}


def pytest_collection_modifyitems(config, items):
    """Marks the pure tests, refusing one that asks for a service; then puts slow tests first:
    pytest-xdist's worksteal hands each process a contiguous share and lets an idle one steal
    from the end of another's, so a minutes-long test (the soak, a browser game) collected late
    would run alone after the rest. Started first, it overlaps the quick tests, which are the
    ones left to steal at the end. The sort is stable."""
    tests = config.rootpath / "tests"
    pure = [tests / name for name in PURE_TEST_DIRS]
    for item in items:
        if any(item.path.is_relative_to(folder) for folder in pure):
            services = SERVICE_FIXTURES.intersection(item.fixturenames)
            if services or item.get_closest_marker("django_db"):
                raise pytest.UsageError(
                    f"{item.nodeid} is in a pure test folder but needs {sorted(services)}"
                    " or the database: move it, or the services pass would never run it"
                )
            item.add_marker(pytest.mark.pure)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
