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
