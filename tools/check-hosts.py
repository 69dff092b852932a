#!/usr/bin/env python3
"""The hosts only draw (issue "One behaviour in every UI"): no UI of the movie app contains the
minimum query length, a paging computation, a sort, or a sentence that the app state's `view`
already carries. Each rule is a pattern and why; a match names the file, the line and the rule.

    tools/check-hosts.py            # exit 1 on a match
"""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOSTS = [ROOT / "examples" / "python" / "cinematic_tui", ROOT / "examples" / "desktop" / "cinematic_desktop", ROOT / "examples" / "web" / "static"]
GENERATED = {"keymap.js"}
RULES = [
    (r"at least (two|2) characters|len\([^)]*query[^)]*\)\s*[<>]=?\s*2\b|query[\w.]*\.length\s*[<>]=?\s*2\b|minimum_?query",
     "the minimum query length is the core's (view.list.message)"),
    (r"results_are_current|resultsAreCurrent|results\W+query\W*(==|!=|===|!==)",
     "whether results are current is the core's (activate)"),
    (r"list_height\(\)\s*-\s*1|pagesLoaded\s*[+*]|\bMAX_ROW\b|\bnext_page\b|\bnextPage\b",
     "paging is the core's (moveBy, pageBy, loadMore, the rows bound)"),
    (r"\bsorted\(|\.sort\(|\bsort_key\b|localeCompare", "sorting is the core's (sortChanged, view rows)"),
    (r"shown, more (match|available)|No favorites yet|No film in the catalog matches|Share of votes per star|tries again|"
     r"has no films in this catalog|Searching for|Loading your favorites",
     "the sentence is the view's (status, message, histogram heading)"),
    (r"\bwording\.(search_empty|section_empty|favorites_empty|failure|count_text|histogram|bar_fraction|SEARCH_IDLE|HISTOGRAM)",
     "cinematic.wording words what the view carries"),
]


def counted() -> object:
    """tools/count-host-logic.py, for its code_lines (a Python file's lines less docstrings and comments)."""
    spec = importlib.util.spec_from_file_location("count_host_logic", ROOT / "tools" / "count-host-logic.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    code_lines = counted().code_lines
    found = 0
    for host in HOSTS:
        for path in sorted(p for p in host.rglob("*") if p.suffix in (".py", ".js", ".html") and p.name not in GENERATED):
            text = path.read_text(encoding="utf-8")
            kept = code_lines(text) if path.suffix == ".py" else None
            for number, line in enumerate(text.splitlines(), 1):
                if kept is not None and number not in kept:
                    continue
                code = line.split("#", 1)[0] if path.suffix == ".py" else line.split("//", 1)[0]
                for pattern, why in RULES:
                    if re.search(pattern, code):
                        found += 1
                        print(f"{path.relative_to(ROOT)}:{number}: {why}: {line.strip()[:120]}")
    print(f"host logic check: {0 if found else 1} passed, {1 if found else 0} failed")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
