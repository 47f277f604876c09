"""The layers, read from the imports of every module of the apps (docs: README's map of the code).

Edges (views, consumers, the API, the admin) are thin: they call services, selectors and
presentation modules, never one another, so what two edges share lives in a module both may
import. The apps depend on one another one way only (ratings on games, games on accounts), so
that no app needs another that needs it back: games announces a finished game with a signal
(`games.signals`) instead of calling ratings, and itself draws a profile's games (template tags)
and holds the user admin (whose actions are its moderation services); what every app uses
(refusals, rate limits, pushes) is the site's plumbing, which imports no app. The platform
hosts games without importing one: it reaches a game's package and engine only through the
registry (`games.kinds.registry`) and the engine contract (`games.kinds.protocol`), so the
next game is a new folder.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("accounts", "friends", "games", "notifications", "ratings", "webpush")
EDGE_NAMES = {"views", "admin", "consumers", "api"}
EDGE_MODULES = {"games.api.record"}  # the record's JSON endpoint, beside the API's views

# The games app in rooms by concern, each its own package; at its root only what every room
# shares: the models, the access rule, the pages' shared answers (`web`), the app's wiring.
GAME_ROOMS = {
    "tables": {"services", "selectors", "forms", "views", "consumers"},
    "play": {
        "services",
        "selectors",
        "forms",
        "views",
        "consumers",
        "turns",
        "presence",
        "orders",
    },
    "chat": {"services", "forms", "views"},
    "moderation": {"services", "admin", "admin_steps"},
    "history": {"selectors", "replay", "views", "folded"},
    "learn": {"lessons", "views", "rules_views"},
    "api": {"views", "record", "urls"},
    "analysis": {
        "review",
        "services",
        "selectors",
        "tasks",
        "worker",
        "views",
        "review_page",
        "learning",
        "consumers",
        "what_if",
        "what_if_page",
    },
    "daily": {"services", "selectors", "views"},
    "tournaments": {"swiss", "services", "selectors", "views", "clock", "admin"},
}
GAMES_ROOT = {"models", "access", "web", "apps", "signals", "context_processors", "urls"}

# Where the games live, and the doors into that package the platform may use.
GAME_PACKAGES = {"games.kinds": ("games.kinds.registry", "games.kinds.protocol")}
SITE = "biblios_site"
SITE_SETTINGS = ("biblios_site.settings", "biblios_site.settings_test")  # name the kinds installed
# The site's modules that put the apps together, the only ones of the site that may import them.
SITE_WIRING = {"biblios_site.asgi", "biblios_site.routing", "biblios_site.urls", *SITE_SETTINGS}


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def is_edge(module: str) -> bool:
    name = module.rsplit(".", 1)[-1]
    return name in EDGE_NAMES or name.endswith("_views") or module in EDGE_MODULES


def app_modules(root: Path) -> dict[str, Path]:
    """Every module of the apps by dotted name, migrations aside (they name apps by label)."""
    found = {}
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def imports_of(module: str, path: Path, known: set[str]) -> tuple[set[str], set[str]]:
    """(all imports, module-level imports) of `module`, as modules of the apps it names.

    Module level: what runs when the module is imported (not inside a function), which is
    what an import cycle is made of.
    """
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    every, top = set(), set()

    def resolve(name: str) -> str:
        """The module of the apps a dotted name is in ("" for none: Django, the library...)."""
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name

    def visit(node, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            names = []
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    base = ".".join([*parts[: len(parts) - child.level + 1], *filter(None, [base])])
                names = [f"{base}.{alias.name}" for alias in child.names]
            for target in map(resolve, names):
                if target and target != module:
                    every.add(target)
                    if not nested:
                        top.add(target)
            visit(child, nested)

    visit(tree, False)
    return every, top


def import_graph(root: Path) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    modules = app_modules(root)
    known = set(modules)
    every, top = {}, {}
    for module, path in modules.items():
        every[module], top[module] = imports_of(module, path, known)
    return every, top


def platform_modules(root: Path) -> dict[str, Path]:
    """The platform's modules: the apps' outside the game packages, and the site's (its
    settings aside, which list the installed kinds by name)."""
    found = {
        module: path
        for module, path in app_modules(root).items()
        if not any(within(module, package) for package in GAME_PACKAGES)
    }
    for module, path in site_modules(root).items():
        if module not in SITE_SETTINGS:
            found[module] = path
    return found


def site_modules(root: Path) -> dict[str, Path]:
    return {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path
        for path in sorted((root / SITE).rglob("*.py"))
    }


def game_imports(root: Path) -> list[str]:
    """Platform modules importing a game's package or engine other than through its door."""
    known = set(app_modules(root))
    return sorted(
        f"{module} imports {target}"
        for module, path in platform_modules(root).items()
        for target in imports_of(module, path, known)[0]
        for package, doors in GAME_PACKAGES.items()
        if within(target, package) and not any(within(target, door) for door in doors)
    )


def edge_to_edge(every: dict[str, set[str]]) -> list[str]:
    return sorted(
        f"{module} imports {target}"
        for module, targets in every.items()
        if is_edge(module)
        for target in targets
        if is_edge(target)
    )


def app_cycles(top: dict[str, set[str]]) -> list[str]:
    """Pairs of apps that import each other at module level, with the imports that do it."""
    between: dict[tuple[str, str], list[str]] = {}
    for module, targets in top.items():
        for target in targets:
            apps = (module.split(".")[0], target.split(".")[0])
            if apps[0] != apps[1]:
                between.setdefault(apps, []).append(f"{module} -> {target}")
    return sorted(
        f"{a} <-> {b}: {sorted(between[a, b])} and {sorted(between[b, a])}"
        for a, b in between
        if a < b and (b, a) in between
    )


def test_the_import_reader_sees_the_apps():
    every, top = import_graph(ROOT)
    assert "games.tables.services" in every["games.tables.views"]
    assert "games.models" in top["ratings.services"]
    assert "games.kinds.biblios.engine" in top["games.kinds.biblios.kind"]  # a game's own imports
    # A function's own import counts for edges but is not a module-level import.
    assert every["accounts.apps"] >= {"accounts.credentials"}
    assert "accounts.credentials" not in top["accounts.apps"]


def test_the_platform_reaches_games_only_through_the_registry():
    """No platform module imports a game kind's package (`games.kinds.biblios`…) or a game
    engine (`games.kinds.biblios.engine`…): only `games.kinds.registry` and `games.kinds.protocol`.
    Migrations may (they freeze what a game was when they were written), and so may tests."""
    platform = set(platform_modules(ROOT))
    assert {"games.play.turns", "ratings.services", "biblios_site.urls"} <= platform
    assert not {"games.kinds.registry", "games.kinds.biblios.engine", SITE_SETTINGS[0]} & platform
    assert game_imports(ROOT) == []


def test_no_edge_module_imports_another():
    every, _ = import_graph(ROOT)
    assert edge_to_edge(every) == []


def test_no_two_apps_import_each_other_at_module_level():
    _, top = import_graph(ROOT)
    assert app_cycles(top) == []


def test_the_sites_plumbing_imports_no_app():
    """What the apps share (refusals, rate limits, pushes, input parsing) is the site's and names
    no app, so sharing it ties no app to another; only the wiring (settings, URLs, ASGI, socket
    routes) imports the apps."""
    known = set(app_modules(ROOT))
    plumbing = {
        module: path for module, path in site_modules(ROOT).items() if module not in SITE_WIRING
    }
    assert {"biblios_site.errors", "biblios_site.ratelimit", "biblios_site.push"} <= set(plumbing)
    assert [
        f"{module} imports {target}"
        for module, path in sorted(plumbing.items())
        for target in sorted(imports_of(module, path, known)[0])
    ] == []


def test_no_production_module_imports_a_benchmark():
    """The benchmarks measure the site from outside (their own entry point, `benchmarks.asgi`,
    adds the echo floor): no app nor the site's wiring imports one, so a benchmark's code is
    never served in production."""
    production = {
        module: path
        for module, path in {**app_modules(ROOT), **site_modules(ROOT)}.items()
        if ".bench" not in module  # a game's own benchmarks (games/kinds/<game>/bench/)
    }
    found = sorted(
        f"{module} imports {name}"
        for module, path in production.items()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path)))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in (
            [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
        )
        if name and within(name, "benchmarks")
    )
    assert "biblios_site.routing" in production
    assert found == []


def test_the_games_app_is_in_rooms():
    """Each concern of the games app is a room of its own (tables, play, chat, moderation,
    history, learn, api), and the app's root holds only what they share, so a new concern is a
    new room, not the 36th module of one flat folder."""
    games = ROOT / "games"
    for room, modules in GAME_ROOMS.items():
        found = {path.stem for path in (games / room).glob("*.py")} - {"__init__"}
        assert modules <= found, (room, sorted(modules - found))
    root = {path.stem for path in games.glob("*.py")} - {"__init__"}
    assert root == GAMES_ROOT
    folders = {path.name for path in games.iterdir() if path.is_dir()} - {"__pycache__"}
    assert folders == {*GAME_ROOMS, "kinds", "migrations", "templatetags"}


def test_friends_and_notifications_import_no_edge_of_games():
    """Friends and notifications own their pages, JSON endpoints and sockets: none of them is
    reached through, or reaches into, an edge of the games app."""
    every, _ = import_graph(ROOT)
    assert {"friends.api", "notifications.api", "notifications.consumers"} <= set(every)
    found = sorted(
        f"{module} imports {target}"
        for module, targets in every.items()
        if within(module, "friends") or within(module, "notifications")
        for target in targets
        if within(target, "games") and is_edge(target)
    )
    assert found == []
    games_edges = {module for module in every if within(module, "games") and is_edge(module)}
    assert not any(
        within(target, app)
        for module in games_edges
        for target in every[module]
        for app in ("friends.api", "notifications.api", "notifications.consumers")
    )
