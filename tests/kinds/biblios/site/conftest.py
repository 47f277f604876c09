"""Biblios' board is drawn for the web tests' players: their fixtures, one definition."""

from tests.web.conftest import biblios_alone, clients, users  # noqa: F401
