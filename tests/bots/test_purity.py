"""The bots stay pure Python like the engine: they import the standard library, the engine and
each other, never Django or the site, so arenas and benchmarks run them without a database and
they cannot read more than the view they are given."""

import sys
from pathlib import Path

from games.kinds.biblios import bots
from tests.kinds.test_engine_purity import imported_modules

BOTS_PACKAGE = bots.__name__
BOTS_DIR = Path(bots.__file__).parent


def test_the_bots_import_only_the_standard_library_the_engine_and_themselves():
    allowed = (BOTS_PACKAGE, "games.engine")
    sources = sorted(BOTS_DIR.glob("*.py"))
    assert sources
    found = {
        f"{path.name}: {name}"
        for path in sources
        for name in imported_modules(path.read_text(encoding="utf-8"), BOTS_PACKAGE)
        if name.split(".")[0] not in sys.stdlib_module_names
        and not any(name == package or name.startswith(package + ".") for package in allowed)
    }
    assert not found, sorted(found)
