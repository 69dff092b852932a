#!/usr/bin/env python3
"""Counts the host code of the two apps that is neither drawing nor wiring (issue "One
behaviour in every UI": the host code that is not drawing or wiring shrinks by half; the
issue "The whole app in the core" counted the code that is not drawing, wiring included).

A code line is a line that is neither blank nor only a comment. Each function or method of
examples/python/cinematic_tui and examples/desktop/cinematic_desktop is drawing when its body
uses a drawing API (curses' output calls, Qt's widget and painting calls), its name says so
(draw/paint/render/show/format/_build…, Qt's paint/resize/show events) or it only makes text
to show (it returns a str); every other line (other functions, module and class level code)
is not drawing. Wiring is what connects parts and decides nothing: import statements,
``__all__``, and Qt signal connections (a statement that only calls ``….connect(…)``).
Docstrings count as comments. Each line is counted once: drawing, wiring, or the rest (the
host's logic), and all three are printed.

    tools/count-host-logic.py                 # the working tree
    tools/count-host-logic.py --rev 4992442   # a commit
    tools/count-host-logic.py --compare 4992442   # that commit against the working tree
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parent.parent
APPS = {"terminal": "examples/python/cinematic_tui", "desktop": "examples/desktop/cinematic_desktop"}
DRAWING_PREFIXES = ("draw", "paint", "render", "_draw", "_paint", "_render", "_build", "build_", "_style", "_layout", "show",
                    "_show", "format", "_format", "_item", "paintEvent", "resizeEvent", "showEvent")
DRAWING_CALLS = {
    # curses output
    "addstr", "addnstr", "addch", "insstr", "attron", "attroff", "attrset", "erase", "clear", "refresh",
    "noutrefresh", "doupdate", "clrtoeol", "clrtobot", "box", "border", "hline", "vline", "chgat", "color_pair",
    "init_pair", "bkgd", "curs_set", "newwin", "derwin", "subwin",
    # Qt widgets and painting
    "QPainter", "setText", "setPlainText", "setToolTip", "addWidget", "addLayout", "setLayout", "QLabel", "QHBoxLayout",
    "QVBoxLayout", "QGridLayout", "QFormLayout", "setStyleSheet", "setFont", "setItem", "QTableWidgetItem", "setRowCount",
    "setColumnCount", "setHorizontalHeaderLabels", "repaint", "setPixmap", "setFormat", "setWordWrap", "addAction",
    "QAction", "QMenu", "setStatusTip", "showMessage", "setWindowTitle", "setMinimumSize", "setSizePolicy",
    "setAlignment", "setContentsMargins", "setSpacing", "addTab", "setTabText", "QListWidgetItem", "addItem", "setIcon",
    "setPlaceholderText", "setVisible", "setEnabled", "setCurrentIndex", "setCurrentRow", "scrollToItem", "setHeaderHidden",
    "setFixedWidth", "setFixedHeight", "setRange", "setValue", "drawText", "fillRect", "drawRect", "setBrush", "setPen",
    "QFrame", "QProgressBar", "QPushButton", "QLineEdit", "QTabWidget", "QTableWidget", "QSplitter", "QDockWidget",
    "setCentralWidget", "setShortcut", "setObjectName", "resizeColumnsToContents", "setSelectionBehavior",
    "QTreeWidgetItem", "setData", "setCurrentItem", "scrollTo", "setColumnWidth", "QStandardItem", "setTextAlignment",
    "setForeground", "setBackground", "addTopLevelItem", "addTopLevelItems", "takeTopLevelItem", "setFirstColumnSpanned",
    "QTextBrowser", "setHtml", "QFont", "QColor", "QPalette", "setPalette",
}


def code_lines(source: str) -> Set[int]:
    """The 1-based numbers of the code lines of `source` (docstrings and comments left out)."""
    lines = {number for number, line in enumerate(source.splitlines(), 1)
             if line.strip() and not line.strip().startswith("#")}
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                and isinstance(body[0].value.value, str):
            lines -= set(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    return lines


def is_drawing(function: ast.AST) -> bool:
    """Drawing: it calls a drawing API, its name says so, or it only makes text to show (it
    returns a str)."""
    name = getattr(function, "name", "")
    if name.startswith(DRAWING_PREFIXES):
        return True
    returns = getattr(function, "returns", None)
    if isinstance(returns, ast.Name) and returns.id == "str" or isinstance(returns, ast.Constant) and returns.value == "str":
        return True
    for node in ast.walk(function):
        called = node.func if isinstance(node, ast.Call) else None
        if isinstance(called, ast.Attribute) and called.attr in DRAWING_CALLS:
            return True
        if isinstance(called, ast.Name) and called.id in DRAWING_CALLS:
            return True
    return False


def wiring_lines(tree: ast.AST) -> Set[int]:
    """The lines of `tree`'s wiring: imports, ``__all__``, Qt signal connections."""
    wiring: Set[int] = set()
    for node in ast.walk(tree):
        is_all = isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        is_connect = isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
            and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "connect"
        if isinstance(node, (ast.Import, ast.ImportFrom)) or is_all or is_connect:
            wiring |= set(range(node.lineno, (getattr(node, "end_lineno", None) or node.lineno) + 1))
    return wiring


def count(source: str) -> Tuple[int, int, int]:
    """(logic, drawing, wiring) code lines of one file."""
    lines = code_lines(source)
    tree = ast.parse(source)
    drawing: Set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_drawing(node):
            drawing |= set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    wiring = (lines - drawing) & wiring_lines(tree)
    return len(lines - drawing - wiring), len(lines & drawing), len(wiring)


def files(rev: Optional[str], folder: str) -> Dict[str, str]:
    if rev is None:
        return {path.name: path.read_text() for path in sorted((ROOT / folder).glob("*.py"))}
    names = subprocess.run(["git", "ls-tree", "--name-only", f"{rev}:{folder}"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    return {name: subprocess.run(["git", "show", f"{rev}:{folder}/{name}"], cwd=ROOT, check=True, capture_output=True,
                                 text=True).stdout for name in names if name.endswith(".py")}


def report(rev: Optional[str], verbose: bool) -> Dict[str, Tuple[int, int, int]]:
    totals: Dict[str, Tuple[int, int, int]] = {}
    for app, folder in APPS.items():
        logic = drawing = wiring = 0
        for name, source in files(rev, folder).items():
            a, b, c = count(source)
            logic, drawing, wiring = logic + a, drawing + b, wiring + c
            if verbose:
                print(f"  {app:9} {name:22} logic {a:4}   drawing {b:4}   wiring {c:4}")
        totals[app] = (logic, drawing, wiring)
        print(f"{app:9} ({rev or 'working tree'}): neither drawing nor wiring {logic}, drawing {drawing}, wiring {wiring}"
              f" (not drawing: {logic + wiring})")
    return totals


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", help="count a commit instead of the working tree")
    parser.add_argument("--compare", metavar="BASE", help="count BASE and the working tree, and the change")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per file")
    args = parser.parse_args(argv)
    if not args.compare:
        report(args.rev, args.verbose)
        return 0
    before, after = report(args.compare, args.verbose), report(None, args.verbose)
    for label, pick in (("neither drawing nor wiring", lambda v: v[0]), ("not drawing (wiring included)", lambda v: v[0] + v[2])):
        old, new = sum(pick(v) for v in before.values()), sum(pick(v) for v in after.values())
        change = 100.0 * (old - new) / old if old else 0.0
        print(f"host code {label}: {old} -> {new} lines ({change:.0f}% less; goal >= 50% for the first)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
