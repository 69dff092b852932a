"""The package's modules import each other one way: no module imports one that imports it
back, directly or through others. Every import counts, including those inside functions and
``if TYPE_CHECKING:`` blocks (a type checker follows them, and a reader has to)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Optional, Set

from conftest import REPO

PACKAGE = REPO / "bindings" / "python" / "cinematic"


def import_graph(package: Path) -> Dict[str, Set[str]]:
    """module -> the package modules it imports (``__init__`` for the package itself)."""
    modules = {path.stem for path in package.glob("*.py")}
    name = package.name
    graph: Dict[str, Set[str]] = {}
    for path in sorted(package.glob("*.py")):
        edges: Set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: List[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 or (node.level == 0 and node.module and node.module.split(".")[0] == name):
                    inner = (node.module or "") if node.level == 1 else node.module.partition(".")[2]  # type: ignore[union-attr]
                    if inner:
                        targets.append(inner.split(".")[0])
                    else:  # from . import a, b
                        targets += [alias.name for alias in node.names if alias.name in modules] or ["__init__"]
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    if parts[0] == name:
                        targets.append(parts[1] if len(parts) > 1 else "__init__")
            edges.update(target for target in targets if target in modules and target != path.stem)
        graph[path.stem] = edges
    return graph


def find_cycle(graph: Dict[str, Set[str]]) -> Optional[List[str]]:
    """A cycle as a path ``[a, b, ..., a]``, or None."""
    state: Dict[str, int] = {}  # 1: on the current path, 2: done
    path: List[str] = []

    def visit(module: str) -> Optional[List[str]]:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_the_package_imports_one_way():
    graph = import_graph(PACKAGE)
    assert {"runtime", "store", "aio", "_delivery", "features"} <= set(graph)
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_the_delivery_core_knows_no_store_runtime_or_stream():
    graph = import_graph(PACKAGE)
    assert graph["_delivery"].isdisjoint({"runtime", "store", "aio", "features", "__init__"})
    assert graph["aio"].isdisjoint({"runtime", "store", "features", "__init__"})
    assert "runtime" not in graph["store"] and "runtime" not in graph["features"]


def test_a_circle_is_found_even_through_a_type_checking_import(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from .a import A\n")
    (package / "a.py").write_text("from . import b\nclass A: pass\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import C\n")
    (package / "c.py").write_text("def f():\n    import pkg.a\n")
    assert find_cycle(import_graph(package)) == ["a", "b", "c", "a"]
    (package / "c.py").write_text("def f():\n    pass\n")
    assert find_cycle(import_graph(package)) is None
