"""The engines stay pure: nothing under `games/engine/` imports Django or anything outside the
standard library and the engine package itself, so a game's rules run (and are tested, and
benchmarked) without the site, and cannot reach a database, a clock or a network by accident."""

import ast
import sys
from pathlib import Path

import games.engine

ENGINE_PACKAGE = "games.engine"
ENGINE_DIR = Path(games.engine.__file__).parent


def imported_modules(source: str, package: str) -> list[str]:
    """The absolute names of the modules some source code in `package` imports."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: climb from the package
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.append(".".join([*base, node.module] if node.module else base))
            else:
                names.append(node.module)
    return names


def package_of(path: Path) -> str:
    return ".".join(path.relative_to(ENGINE_DIR.parent.parent).parent.parts)


def outside(name: str) -> bool:
    top = name.split(".")[0]
    in_engine = name == ENGINE_PACKAGE or name.startswith(ENGINE_PACKAGE + ".")
    return not in_engine and top not in sys.stdlib_module_names


def test_engines_import_only_the_standard_library_and_themselves():
    sources = sorted(ENGINE_DIR.rglob("*.py"))
    assert sources
    found = {
        f"{path.relative_to(ENGINE_DIR)}: {name}"
        for path in sources
        for name in imported_modules(path.read_text(encoding="utf-8"), package_of(path))
        if outside(name)
    }
    assert not found, sorted(found)


def test_the_import_check_sees_what_it_must_refuse():
    """The checker itself: Django, a third-party library, a platform module and a relative
    climb out of the package are refused; the standard library and the engine's own modules
    (absolute or relative) are not."""
    source = "\n".join(
        [
            "import json, collections.abc",
            "from .cards import DECK",
            "from . import scoring",
            "from games.engine import cards",
            "from django.db import models",
            "import hypothesis",
            "from ..models import Game",
            "from games import services",
        ]
    )
    names = imported_modules(source, ENGINE_PACKAGE)
    assert [name for name in names if outside(name)] == [
        "django.db",
        "hypothesis",
        "games.models",
        "games",
    ]
    assert package_of(ENGINE_DIR / "biblios.py") == ENGINE_PACKAGE
