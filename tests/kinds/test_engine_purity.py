"""The engines stay pure: no game's engine (`games/kinds/<game>/engine/`, the toy's `engine.py`)
imports Django or anything outside the standard library, its own package and the engine contract
(`games.kinds.protocol`), so a game's rules run (and are tested, and benchmarked) without the
site, and cannot reach a database, a clock or a network by accident. Checked over the registry."""

import ast
import sys
from pathlib import Path

import pytest

from .conftest import ENGINES, KINDS

CONTRACT = "games.kinds.protocol"


def imported_modules(source: str, package: str) -> list[str]:
    """The absolute names some source code in `package` imports: a module, or for `from A import
    b` the name `A.b` (a module of package A, or a name of module A: within A either way)."""
    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: climb from the package
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module
            names += [f"{module}.{alias.name}" for alias in node.names]
    return names


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def outside(name: str, engine: str) -> bool:
    """Whether an import reaches past what an engine may use."""
    allowed = within(name, engine) or within(name, CONTRACT)
    return not allowed and name.split(".")[0] not in sys.stdlib_module_names


def sources(engine) -> list[tuple[Path, str]]:
    """(file, its package) for every module of an engine, a package or a single module."""
    path = Path(engine.__file__)
    if path.name != "__init__.py":
        return [(path, engine.__name__.rpartition(".")[0])]
    found = []
    for source in sorted(path.parent.rglob("*.py")):
        parts = source.relative_to(path.parent).parent.parts
        found.append((source, ".".join([engine.__name__, *parts])))
    return found


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_engines_import_only_the_standard_library_and_themselves(slug):
    engine = ENGINES[slug]
    found = {
        f"{path.name}: {name}"
        for path, package in sources(engine)
        for name in imported_modules(path.read_text(encoding="utf-8"), package)
        if outside(name, engine.__name__)
    }
    assert sources(engine)
    assert not found, sorted(found)


def test_the_contract_is_pure_too():
    path = Path(sys.modules[CONTRACT].__file__)
    names = imported_modules(path.read_text(encoding="utf-8"), "games.kinds")
    assert [name for name in names if outside(name, CONTRACT)] == []


def test_the_import_check_sees_what_it_must_refuse():
    """The checker itself: Django, a third-party library, a platform module, another game's
    engine and a relative climb out of the engine are refused; the standard library, the
    contract and the engine's own modules (absolute or relative) are not."""
    engine = "games.kinds.biblios.engine"
    source = "\n".join(
        [
            "import json, collections.abc",
            "from .cards import DECK",
            "from . import scoring",
            "from games.kinds.biblios.engine import cards",
            "from games.kinds.protocol import fold",
            "from django.db import models",
            "import hypothesis",
            "from ..presenter import board",
            "from games.kinds.exlibris.engine import cards",
            "from games import services",
        ]
    )
    names = imported_modules(source, engine)
    assert [name for name in names if outside(name, engine)] == [
        "django.db.models",
        "hypothesis",
        "games.kinds.biblios.presenter.board",
        "games.kinds.exlibris.engine.cards",
        "games.services",
    ]
    # A game's engine imported by name from the game's package is the engine, not the package.
    assert not outside("games.kinds.biblios.engine", engine)
    assert outside("games.kinds.biblios.presenter", engine)
    package_of_rules = dict((p.name, pkg) for p, pkg in sources(ENGINES["biblios"]))
    assert package_of_rules["rules.py"] == engine


@pytest.mark.parametrize("slug", sorted(KINDS))
def test_bots_import_only_the_standard_library_their_engine_and_themselves(slug):
    """A game's bots are pure Python like its engine, so arenas and benchmarks run them without
    a database, and they cannot read more than the view they are given."""
    kind = KINDS[slug]
    bots = kind.bots.__name__
    found = {
        f"{path.name}: {name}"
        for path, package in sources(kind.bots)
        for name in imported_modules(path.read_text(encoding="utf-8"), package)
        if outside(name, kind.engine.__name__) and not within(name, bots)
    }
    assert sources(kind.bots)
    assert not found, sorted(found)
