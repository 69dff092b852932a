#!/usr/bin/env python3
"""Code lines of each Search version in the comparison (docs/comparison.md).

A code line is a line that is neither blank nor only comment (`//`, `///`, `/* ... */`);
`import` lines count (each version needs its own). Prints a Markdown table; with --check
FILE, fails unless FILE contains exactly that table (between the `lines:begin`/`lines:end`
markers).
"""
import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (version, part, file)
PARTS = [
    ("MV", "model: `MovieSearch`", "Sources/CinematicComparison/MovieSearch.swift"),
    ("MV", "view: `SearchTaskDriver` (stands in for SwiftUI's `.task(id:)`)", "Sources/CinematicComparison/SearchTaskDriver.swift"),
    ("MVVM", "view model: `SearchViewModel`", "Sources/CinematicComparison/SearchViewModel.swift"),
    ("MVI", "state, intents, reducer: `SearchFeature.swift` (with paging)", "Sources/CinematicFeatures/Search/SearchFeature.swift"),
]
BEGIN, END = "<!-- lines:begin -->", "<!-- lines:end -->"


def code_lines(path):
    count, in_block = 0, False
    for raw in open(os.path.join(ROOT, path), encoding="utf-8"):
        line = raw.strip()
        if in_block:
            if "*/" in line:
                in_block = False
                line = line.split("*/", 1)[1].strip()
            else:
                continue
        if line.startswith("/*"):
            if "*/" not in line:
                in_block = True
            continue
        if line and not line.startswith("//"):
            count += 1
    return count


def table():
    rows = ["| Version | Part | File | Code lines |", "|---|---|---|---|"]
    for version, part, path in PARTS:
        rows.append(f"| {version} | {part} | `{path}` | {code_lines(path)} |")
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", metavar="FILE", help="fail unless FILE holds this table")
    args = parser.parse_args()
    current = table()
    if not args.check:
        print(current)
        return 0
    text = open(args.check, encoding="utf-8").read()
    if BEGIN not in text or END not in text:
        print(f"count-lines: {args.check} has no {BEGIN} ... {END} block")
        return 1
    documented = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    if documented != current:
        print(f"count-lines: the line counts in {args.check} are out of date; the script prints:\n{current}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
