"""Ex Libris on the site while its kind is still alpha (issue 18): `exlibris_live` opens it to
the lobby, the API and the pages for one test, as it will be once it is whole."""

import dataclasses

import pytest

from games.kinds import registry
from games.kinds.exlibris.kind import KIND


@pytest.fixture
def exlibris_live():
    """The Ex Libris kind at the live stage, registered beside the installed (alpha) entry:
    `registry.get("exlibris")` and the lobby then find it."""
    live = dataclasses.replace(KIND, stage=registry.LIVE)
    registry.register(live)
    yield live
    registry.unregister(live.slug)
