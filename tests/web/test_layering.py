"""The house's layers, checked: the rules core (companion/games) stands on the standard library and pydantic alone,
the store (the modules that read and write the database) depends on no view, and the URL map that the pages, htmx
and the JSON API rely on changes only on purpose (a snapshot)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from companion import create_app

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
SNAPSHOT = Path(__file__).with_name("url_map.txt")
# What a rules module may import besides the standard library and its own package.
RULES_MAY_USE = {"pydantic", "pydantic_core"}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """Each import in a module: its relative level (0 for absolute) and the module named."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(0, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


def test_the_rules_core_imports_no_flask_no_database_and_nothing_of_the_app() -> None:
    wrong = []
    for path in sorted((PACKAGE / "games").glob("*.py")):
        for level, module in imports_of(path):
            top = module.split(".")[0]
            inside_games = level == 1
            allowed = inside_games or (level == 0 and (top in sys.stdlib_module_names or top in RULES_MAY_USE))
            if not allowed:
                wrong.append(f"{path.name}: {'.' * level}{module}")
    assert wrong == [], "the rules core must stay pure: " + ", ".join(wrong)


# The modules that read and write the database for every area, and the blueprints (views) that call them.
STORE = ("records", "play_log", "statistics", "history_filter", "transfer", "bgstats", "migrate", "db", "models")
BLUEPRINTS = {"plays", "api", "history", "stats", "sheets", "data", "calculator", "health", "app_shell"}


def test_the_store_imports_no_blueprint() -> None:
    wrong = []
    for name in STORE:
        for level, module in imports_of(PACKAGE / f"{name}.py"):
            named = module.split(".")[0] if level == 1 else module.removeprefix("companion.").split(".")[0]
            if (level == 1 or module.startswith("companion")) and named in BLUEPRINTS:
                wrong.append(f"{name}.py: {module}")
    assert wrong == [], "the store must not depend on a view: " + ", ".join(wrong)


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
    (python -c "from tests.web.test_layering import url_map_lines; print(*url_map_lines(), sep='\\n')")."""
    assert url_map_lines() == SNAPSHOT.read_text(encoding="utf-8").splitlines()
