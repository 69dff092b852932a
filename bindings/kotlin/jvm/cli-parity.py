#!/usr/bin/env python3
"""One table of command lines run through both command lines, the Python package's
``cinematic`` console script (bindings/python/cinematic/cli.py) and the jar's
(``java -jar build/dist/cinematic-<version>.jar``): same exit status, same standard output,
same standard error. Run by bindings/kotlin/jvm/test-jar.sh (``make test-jar``).

    cli-parity.py PYTHON JAR SCRATCH_DIR

PYTHON is an interpreter with the ``cinematic`` package importable; both run from
SCRATCH_DIR with COLUMNS=80 (argparse wraps help at the terminal's width). Prints one line
per case and "N passed, N failed"; exits 1 on any difference."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import List, Tuple

#: The shared table: every command, option and exit status of the two command lines.
CASES: List[List[str]] = [
    ["--help"], ["-h"], ["search", "--help"], ["discover", "--help"], ["detail", "--help"], ["--version"],
    [], ["bogus"], ["search"], ["search", "d"], ["search", " d "], ["detail"], ["detail", "x"], ["detail", "0"],
    ["detail", "-5"], ["detail", "99999999999999999999"], ["detail", "15249", "16000"],
    ["discover", "--section", "nope"], ["discover", "top_rated"], ["discover", "--section"],
    ["search", "dune", "--pages", "0"], ["search", "dune", "--pages", "x"], ["search", "--pages"],
    ["search", "dune", "extra", "--bogus"], ["search", "dune", "--pages", "1", "more"],
    ["search", "a" * 300],
    ["search", "dune"], ["search", "godfathr", "2"], ["search", "dune", "--json"], ["--json", "search", "dune"],
    ["search", "--pages", "2", "love"], ["search", "--pages=2", "star", "wars"], ["search", "zzzqqqxx"],
    ["search", "it's"], ["search", "--", "-dune"],
    # Standard error's notes: a hint (a person, a genre the catalog lacks) and "more match" with a
    # command quoted as a shell reads it (spaces, quotes, non-ASCII, an empty word).
    ["search", "tom", "hanks"], ["search", "horror"], ["search", "90s", "comedy"], ["search", "love story"],
    ["search", "amélie"], ["search", "the", "", "man"], ["search", "$HOME", "man"], ["search", "--pages", "3", "the"],
    ["discover"], ["discover", "--section", "topRated"], ["discover", "--section=comedy", "--json"],
    ["detail", "15249"], ["detail", "15249", "--json"], ["--json", "detail", "20545"], ["detail", "99999999"],
    # Sections as people type them: positional or --section, any case, with or without _ or -.
    ["discover", "toprated"], ["discover", "topRated"], ["discover", "Top-Rated", "--json"],
    ["discover", "comedy"], ["discover", "--json", "COMEDY"], ["discover", "--section", "top_rated"],
    ["discover", "--section=Drama"], ["discover", "comedy", "--section", "comedy"],
    ["discover", "comedy", "--section", "drama"], ["discover", "--section", "drama", "comedy"],
    ["discover", "comedy", "drama"], ["discover", "nope"], ["discover", ""], ["discover", "--", "short"],
    ["discover", "comedy", "--", "drama"], ["discover", "top rated"],
]


def run(command: List[str], scratch: str) -> Tuple[int, str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("CINEMATIC_LIBRARY", "LD_LIBRARY_PATH")}
    env.update({"COLUMNS": "80", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": scratch,
                "XDG_CACHE_HOME": os.path.join(scratch, ".cache"), "PYTHONIOENCODING": "utf-8"})
    done = subprocess.run(command, cwd=scratch, env=env, capture_output=True, timeout=120)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def main(argv: List[str]) -> int:
    python, jar, scratch = argv
    java = os.environ.get("JAVA", "java")
    flags = os.environ.get("KOTLIN_JAVA_OPTS", "").split()
    passed = failed = 0
    for case in CASES:
        expected = run([python, "-m", "cinematic", *case], scratch)
        actual = run([java, *flags, "-jar", jar, *case], scratch)
        name = " ".join(case) if len(" ".join(case)) < 60 else " ".join(case)[:57] + "..."
        if expected == actual:
            passed += 1
            print(f"ok   [{expected[0]}] cinematic {name}")
            continue
        failed += 1
        print(f"FAIL cinematic {name}")
        for label, want, got in zip(("status", "stdout", "stderr"), expected, actual):
            if want != got:
                print(f"     {label}: python {want!r}\n     {' ' * len(label)}  jar    {got!r}")
    print(f"cli parity: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
