"""The house's layers, checked: the rules core (companion/games) stands on the standard library and pydantic alone,
the store (companion/store) and what every blueprint shares (companion/web) depend on no area, and the URL map that the pages, htmx
and the JSON API rely on changes only on purpose (a snapshot)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from companion import create_app

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
SNAPSHOT = Path(__file__).with_name("url_map.txt")
# What a rules module may import besides the standard library and its own package.
# Babel is a library of CLDR data and formats (no Flask, no request): the rules core writes numbers and days with it.
RULES_MAY_USE = {"pydantic", "pydantic_core", "babel"}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """Each import in a module: its relative level (0 for absolute) and the module named."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(0, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


def companion_imports(package: str) -> list[tuple[str, str]]:
    """Each module of a package (its files, recursively) with every companion module it imports."""
    found = []
    for path in sorted((PACKAGE / package).rglob("*.py")):
        for level, module in imports_of(path):
            assert level == 0, f"{path.name}: imports are absolute in the house style"
            found.append((str(path.relative_to(PACKAGE)), module))
    return found


def test_the_rules_core_imports_no_flask_no_database_and_nothing_of_the_app() -> None:
    wrong = []
    for name, module in companion_imports("games"):
        top = module.split(".")[0]
        # companion.language is gettext with nothing of Flask: the web layer plugs the catalogues in.
        allowed = (
            module.startswith("companion.games")
            or module == "companion.language"
            or top in sys.stdlib_module_names
            or top in RULES_MAY_USE
        )
        if not allowed:
            wrong.append(f"{name}: {module}")
    assert wrong == [], "the rules core must stay pure: " + ", ".join(wrong)


# What each layer below the areas may use of the app: the rules core, the store, what every blueprint shares.
LAYERS = {
    "store": ("companion.games", "companion.store", "companion.config", "companion.version", "companion.language"),
    "web": (
        "companion.games",
        "companion.store",
        "companion.web",
        "companion.config",
        "companion.version",
        "companion.language",
        "companion.translations",
    ),
}


def test_the_store_and_web_import_no_area() -> None:
    wrong = []
    for layer, may_use in LAYERS.items():
        for name, module in companion_imports(layer):
            if module.startswith("companion.") and not module.startswith(may_use):
                wrong.append(f"{name}: {module}")
    assert wrong == [], "the store and web layers must not depend on an area: " + ", ".join(wrong)


def url_map_lines() -> list[str]:
    """Every route as 'METHODS /rule endpoint', sorted: what other programs and the templates' url_for rely on."""
    app = create_app({"SECRET_KEY": "layering", "DATABASE_URL": "sqlite://"})
    lines = []
    for rule in app.url_map.iter_rules():
        methods = ",".join(sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}))
        lines.append(f"{methods} {rule.rule} {rule.endpoint}")
    return sorted(lines)


def test_the_url_map_is_the_snapshot() -> None:
    """A route added, renamed or removed shows here; when that is meant, write the new map into url_map.txt
    (python -c "import tests.web.test_layering as t; print(*t.url_map_lines(), sep='\\n')")."""
    assert url_map_lines() == SNAPSHOT.read_text(encoding="utf-8").splitlines()
