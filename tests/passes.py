"""The two passes of .ci/run: `make test` on the embedded default (SQLite, the in-memory channel
layer) and `make test-services` on PostgreSQL and Redis. A test whose cases are whole games,
each the same check on another table, may share its cases between the passes: each runs once
in CI, on one configuration or the other, and together they run all of them."""

from django.conf import settings

SERVICES_PASS = bool(settings.REDIS_URL)


def half_per_pass(cases: list) -> list:
    """Every other one of `cases`: the first, third… in the embedded default's pass, the rest
    in the services pass."""
    return cases[int(SERVICES_PASS) :: 2]
