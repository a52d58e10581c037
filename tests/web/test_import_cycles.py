"""No import cycle in the package: every module under companion/ is read with ast, each import it makes (at the top,
in a function, absolute or relative) resolved to the module it names, and the graph walked for a cycle.

An import that only the type checker sees (under `if TYPE_CHECKING:`) never runs, so it is left out; the package
a module lives in is not counted as imported by it either (each file would otherwise import companion/__init__.py
and, through create_app(), every blueprint): an edge is an import the module writes itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "companion"


def module_names(package: Path) -> dict[str, tuple[Path, bool]]:
    """Every module of a package folder by dotted name: its file, and whether it is a package's __init__."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return modules


def is_type_checking(test: ast.expr) -> bool:
    """Whether an if's test is TYPE_CHECKING (or typing.TYPE_CHECKING)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def run_time_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, however deep (functions, methods, try blocks), but a TYPE_CHECKING one."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and is_type_checking(node.test):
            pending.extend(node.orelse)
            continue
        pending.extend(ast.iter_child_nodes(node))
    return found


def absolute(module: str, level: int, importer: str, is_package: bool) -> str:
    """The dotted name a `from` import names: a relative one (level dots) resolved against the importing module."""
    if level == 0:
        return module
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def import_graph(package: Path) -> dict[str, set[str]]:
    """Each module of the package with the modules of the same package it imports."""
    modules = module_names(package)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        edges: set[str] = set()
        for node in run_time_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names if alias.name in modules)
                continue
            source = absolute(node.module or "", node.level, name, is_package)
            for alias in node.names:
                # `from companion.play import views` reads a module; `from companion import __version__` reads
                # companion/__init__.py itself.
                named = f"{source}.{alias.name}"
                if named in modules:
                    edges.add(named)
                elif source in modules:
                    edges.add(source)
        edges.discard(name)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each set of modules that import one another round (strongly connected, two or more), as one cycle through
    them: a module, what it imports, ... and the first again."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        """Tarjan's walk from one module."""
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph[module]):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = [stack.pop()]
            while group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(one_cycle(graph, set(group)))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def one_cycle(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A path from the group's first module back to itself through the group (breadth first: a shortest one)."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        module = queue.pop(0)
        for imported in sorted(graph[module] & group):
            if imported == start:
                return [*paths[module], start]
            if imported not in paths:
                paths[imported] = [*paths[module], imported]
                queue.append(imported)
    raise AssertionError(f"no cycle through {sorted(group)}")


def test_the_package_has_no_import_cycle() -> None:
    found = cycles(import_graph(PACKAGE))
    assert found == [], "import cycles: " + "; ".join(" -> ".join(cycle) for cycle in found)


def test_the_health_check_and_the_app_take_the_version_from_a_module_of_no_imports() -> None:
    graph = import_graph(PACKAGE)
    assert graph["companion.version"] == set()
    assert "companion.version" in graph["companion.web.health"]
    assert "companion" not in graph["companion.web.health"]
    assert "companion.web.health" in graph["companion"]  # create_app() imports it inside the function


def test_the_walk_finds_a_cycle_through_a_function_level_and_a_relative_import(tmp_path) -> None:
    package = tmp_path / "pkg"
    (package / "web").mkdir(parents=True)
    (package / "__init__.py").write_text("def create():\n    from pkg.web import health\n")
    (package / "web" / "__init__.py").write_text("")
    (package / "web" / "health.py").write_text("def answer():\n    from .. import version_of_app\n")
    (package / "web" / "quiet.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg\nelse:\n    from . import health\n"
    )
    graph = import_graph(package)
    assert graph == {
        "pkg": {"pkg.web.health"},
        "pkg.web": set(),
        "pkg.web.health": {"pkg"},
        "pkg.web.quiet": {"pkg.web.health"},
    }
    assert cycles(graph) == [["pkg", "pkg.web.health", "pkg"]]
