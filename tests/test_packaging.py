"""`pyproject.toml` packages the whole site: an install (`pip install .`) must carry every app
and every package the code imports (the benchmarks too: tests and `python -m` import them),
and nothing of the tests."""

import subprocess
import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent
APPS = [
    "accounts",
    "benchmarks",
    "biblios_site",
    "friends",
    "games",
    "notifications",
    "ratings",
    "webpush",
]


def test_every_package_of_the_site_is_packaged():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    packaged = set(find_packages(str(ROOT), include=include))
    assert packaged == set(find_packages(str(ROOT), exclude=["tests", "tests.*"]))
    assert set(APPS) <= packaged


def test_every_data_file_inside_the_packages_is_packaged():
    """A game's templates and an engine's data live inside their packages: an install without
    them would fail at the first page or deal."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    package_data = config["tool"]["setuptools"]["package-data"]
    covered = {
        path
        for package, patterns in package_data.items()
        for pattern in patterns
        for path in (ROOT / package.replace(".", "/")).glob(pattern)
    }
    tracked = subprocess.run(
        ["git", "ls-files", *APPS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    data_files = {ROOT / name for name in tracked if not name.endswith(".py")}
    assert data_files, "the engine's deck at least is a data file"
    assert data_files <= covered
