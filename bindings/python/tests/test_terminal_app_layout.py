"""The terminal app stays readable: no file and no class of it over 300 lines (it was one
907-line file; it is split by concept: model, keys, painter, screens, the app shell)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import List

from conftest import REPO

APP = REPO / "examples" / "python" / "cinematic_tui"
LIMIT = 300


def too_long(directory: Path) -> List[str]:
    found = []
    for path in sorted(directory.glob("*.py")):
        text = path.read_text()
        if len(text.splitlines()) > LIMIT:
            found.append(f"{path.name}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None \
                    and node.end_lineno - node.lineno + 1 > LIMIT:
                found.append(f"{path.name}: class {node.name}: {node.end_lineno - node.lineno + 1} lines")
    return found


def test_no_file_or_class_of_the_terminal_app_is_over_300_lines():
    assert sorted(p.name for p in APP.glob("*.py")) != [], "no files found"
    assert too_long(APP) == []


def test_the_size_check_sees_a_long_class(tmp_path):
    (tmp_path / "big.py").write_text("class Big:\n" + "    x = 1\n" * LIMIT)
    assert too_long(tmp_path) == ["big.py: 301 lines", "big.py: class Big: 301 lines"]
