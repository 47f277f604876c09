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
