"""`pyproject.toml` packages the whole site: an install (`pip install .`) must carry every app
and every package the code imports (the benchmarks too: tests and `python -m` import them),
and nothing of the tests."""

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_of_the_site_is_packaged():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    packaged = set(find_packages(str(ROOT), include=include))
    assert packaged == set(find_packages(str(ROOT), exclude=["tests", "tests.*"]))
    assert {"accounts", "benchmarks", "biblios_site", "games", "ratings"} <= packaged
