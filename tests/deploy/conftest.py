"""The deployment of docs/deploy.md on this machine: PostgreSQL databases of the tests' own
(named deploytest_…, beside the suite's test databases on the same server, each dropped after
its test), PostgreSQL's own pg_dump and pg_restore, and the site's code run on such a database in
a process of its own (tests/deploy/site_games.py)."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.db import connection

# The browsers of the proxy test.
from tests.browser.conftest import browser  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "deploytest_"


class Postgres:
    """The PostgreSQL server the suite's test database is on, as its tools and URLs reach it."""

    def __init__(self, settings: dict):
        self.host = settings["HOST"] or "127.0.0.1"
        self.port = str(settings["PORT"] or 5432)
        self.user, self.password = settings["USER"], settings["PASSWORD"]
        self.created: list[str] = []

    @property
    def suite_database(self) -> str:
        """The suite's test database (while a test uses it)."""
        return connection.settings_dict["NAME"]

    def url(self, name: str) -> str:
        password = f":{self.password}" if self.password else ""
        return f"postgres://{self.user}{password}@{self.host}:{self.port}/{name}"

    @property
    def tool_env(self) -> dict:
        """The environment of pg_dump and pg_restore (libpq's variables)."""
        env = {**os.environ, "PGHOST": self.host, "PGPORT": self.port, "PGUSER": self.user}
        if self.password:
            env["PGPASSWORD"] = self.password
        return env

    def _admin(self, statement: str) -> None:
        with psycopg.connect(
            host=self.host,
            port=self.port,
            user=self.user,
            password=self.password or None,
            dbname="postgres",
            autocommit=True,
        ) as admin:
            admin.execute(statement)

    def create(self) -> str:
        """A new empty database (from template0, as `createdb` makes one); its name."""
        name = f"{PREFIX}{secrets.token_hex(6)}"
        self._admin(f'CREATE DATABASE "{name}" TEMPLATE template0')
        self.created.append(name)
        return name

    def drop_created(self) -> None:
        for name in self.created:
            self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def dump(self, name: str, path: Path) -> None:
        """`pg_dump -Fc` as docs/deploy.md backs a site up."""
        command = ["pg_dump", "--format=custom", f"--file={path}", name]
        subprocess.run(command, env=self.tool_env, check=True, capture_output=True)

    def restore(self, path: Path, name: str) -> None:
        """`pg_restore` into the empty database `name`, as docs/deploy.md restores one."""
        command = ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={name}", str(path)]
        subprocess.run(command, env=self.tool_env, check=True, capture_output=True)

    def query(self, name: str, sql: str, params=()) -> list[tuple]:
        with psycopg.connect(self.url(name)) as database:
            return database.execute(sql, params).fetchall()


@pytest.fixture
def postgres():
    """The suite's PostgreSQL server; every database made with `create` is dropped after the
    test."""
    server = Postgres(connection.settings_dict)
    yield server
    server.drop_created()


def site_env(database_url: str) -> dict:
    """The environment of the site's code on the database at `database_url`: the suite's test
    settings without Redis (no hint leaves that process for the suite's own workers)."""
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(ROOT)}
    env["DJANGO_SETTINGS_MODULE"] = "biblios_site.settings_test"
    env.pop("REDIS_URL", None)
    return env


def run(database_url: str, *command: str) -> str:
    """Run `command` (python's arguments) in `site_env`; what it printed."""
    done = subprocess.run(
        [sys.executable, *command],
        cwd=ROOT,
        env=site_env(database_url),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def run_site(database_url: str, *arguments: str) -> dict:
    """tests/deploy/site_games.py on the database at `database_url`: its findings."""
    return json.loads(run(database_url, "-m", "tests.deploy.site_games", *arguments))
