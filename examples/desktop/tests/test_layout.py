"""The app stays in small pieces: one module per concept (the tab's screen, its rows, the
Detail, menus, the runtime/Qt bridge, the debug panel, the main window, the entry point),
none over 300 lines, no class over 300."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import REPO

LIMIT = 300
ROOT = REPO / "examples" / "desktop"


def sources() -> list[Path]:
    return sorted([*(ROOT / "cinematic_desktop").glob("*.py"), *ROOT.glob("*.py"), *(ROOT / "tests").glob("*.py")])


def test_no_file_and_no_class_is_over_300_lines() -> None:
    too_long = []
    for path in sources():
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > LIMIT:
            too_long.append(f"{path.relative_to(ROOT)}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None \
                    and node.end_lineno - node.lineno + 1 > LIMIT:
                too_long.append(f"{path.relative_to(ROOT)}: class {node.name}, {node.end_lineno - node.lineno + 1} lines")
    assert too_long == []
    assert {path.stem for path in (ROOT / "cinematic_desktop").glob("*.py")} >= {
        "app", "bridge", "debug", "window", "screen", "rows", "detail", "menus"}
