#!/usr/bin/env python3
"""Mutation proof for the MV / MVVM / MVI comparison (`make mutants`).

Applies each documented break in turn to the code a test guards, runs the comparison suites
and MVIKit's own tests, and prints a table: mutation -> the tests that went red. The sources
are restored after every mutant (also on Ctrl-C). Exits 1 when the unmutated suites are not
green, when a mutant does not compile, or when a mutation goes uncaught.

    tools/mutants.py            # every mutation
    tools/mutants.py --list     # the mutations, without running anything
    tools/mutants.py --only 3   # one mutation (1-based), for working on a test
    tools/mutants.py --check-doc docs/comparison.md   # the doc's table lists these mutations, all caught
"""
import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILTER = "CinematicComparisonTests|MVIKitTests"
VM = "Sources/CinematicComparison/SearchViewModel.swift"
MV = "Sources/CinematicComparison/MovieSearch.swift"
MVI = "Sources/CinematicFeatures/Search/SearchFeature.swift"
STORE = "Sources/MVIKit/Store.swift"

SUCCESS_GUARD = ("            let movies = try await searchMovies.movies(matching: query)\n"
                 "            guard !Task.isCancelled else { return }\n")
MV_SUCCESS_GUARD = ("            let movies = try await searchMovies.movies(matching: query)\n"
                    "            // A cancelled call belongs to a query the user already replaced.\n"
                    "            guard !Task.isCancelled else { return }\n")
FAILURE_GUARD = ("        } catch {\n"
                 "            guard !Task.isCancelled else { return }\n")

# (version, what breaks, file, exact text (must occur once), replacement)
MUTATIONS = [
    ("MVVM", "delete `searchTask?.cancel()` before a new start", VM,
     "        searchTask?.cancel()\n", ""),
    ("MVVM", "delete the guard after the debounce's sleep", VM,
     "            try? await clock.sleep(for: debounce)\n            guard !Task.isCancelled else { return }\n",
     "            try? await clock.sleep(for: debounce)\n"),
    ("MVVM", "delete `guard !Task.isCancelled` after the search's await", VM,
     SUCCESS_GUARD, "            let movies = try await searchMovies.movies(matching: query)\n"),
    ("MVVM", "delete `guard !Task.isCancelled` after a failed await", VM,
     FAILURE_GUARD, "        } catch {\n"),
    ("MVVM", "skip the short-query reset (`results = .idle`)", VM,
     "            results = .idle\n", ""),
    ("MVVM", "erase the failure's type (every failure becomes `.network`)", VM,
     "            results = .failed(error)\n", "            results = .failed(.network(error.message))\n"),
    ("MV", "delete `guard !Task.isCancelled` after the search's await", MV,
     MV_SUCCESS_GUARD, "            let movies = try await searchMovies.movies(matching: query)\n"),
    ("MV", "delete `guard !Task.isCancelled` after a failed await", MV,
     FAILURE_GUARD, "        } catch {\n"),
    ("MV", "skip the short-query reset (`results = .idle`)", MV,
     "            results = .idle\n", ""),
    ("MVI", "a short query does not cancel the search effect", MVI,
     "        return .cancel(Self.searchEffect)\n", "        return .none\n"),
    ("MVI", "the debounce runs without the shared effect id", MVI,
     "            return .run(id: Self.searchEffect) { [clock, debounce] send in\n",
     "            return .run { [clock, debounce] send in\n"),
    ("MVIKit", "1.0.0: the stale check outside the store's lock, apart from the reduce", STORE,
     "        willReceive?()\n"
     "        let work = core.withLock { core -> EffectWork<Intent> in\n"
     "            guard !core.isClosed, core.records[token] != nil else { return EffectWork() }\n"
     "            return core.apply(intent, with: reducer)\n"
     "        }\n",
     "        let current = core.withLock { core in !core.isClosed && core.records[token] != nil }\n"
     "        willReceive?()\n"
     "        guard current else { return }\n"
     "        let work = core.withLock { core -> EffectWork<Intent> in core.apply(intent, with: reducer) }\n"),
]

FAILED_TEST = re.compile(r"✘ Test (\w+)\(.*?\)(?: with \d+ test cases?)? (?:failed|recorded an issue)(?: with 1 argument \w+ → (\S+) at)?")


def run_suites(log_path):
    """Builds and runs the suites; returns (built, red tests as 'name [VERSION]')."""
    with open(log_path, "w") as log:
        build = subprocess.run(["swift", "build", "--build-tests"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
        if build.returncode != 0:
            return False, []
        subprocess.run(["swift", "test", "--skip-build", "--filter", FILTER], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    red = []
    for line in open(log_path, encoding="utf-8", errors="replace"):
        match = FAILED_TEST.search(line)
        if match:
            name = match.group(1) + (f" [{match.group(2)}]" if match.group(2) else "")
            if name not in red:
                red.append(name)
    # A parameterised test that failed for one argument is named with that argument only.
    red = [r for r in red if " [" in r or not any(o.startswith(r + " [") for o in red)]
    return True, red


def apply(mutation):
    _, _, path, find, replace = mutation
    full = os.path.join(ROOT, path)
    original = open(full, encoding="utf-8").read()
    if original.count(find) != 1:
        raise SystemExit(f"mutants: the text to break occurs {original.count(find)} times in {path}, expected once")
    open(full, "w", encoding="utf-8").write(original.replace(find, replace))
    return full, original


def check_doc(path):
    """The table between the mutants markers of `path` has one caught row per mutation, in order."""
    text = open(path, encoding="utf-8").read()
    begin, end = "<!-- mutants:begin -->", "<!-- mutants:end -->"
    if begin not in text or end not in text:
        print(f"mutants: {path} has no {begin} ... {end} block")
        return 1
    rows = [line for line in text.split(begin, 1)[1].split(end, 1)[0].splitlines() if line.startswith("| ") and line[2:3].isdigit()]
    expected = [f"| {n} | {version} | {what} |" for n, (version, what, _, _, _) in enumerate(MUTATIONS, 1)]
    problems = []
    if len(rows) != len(expected):
        problems.append(f"{len(rows)} rows for {len(expected)} mutations")
    for row, prefix in zip(rows, expected):
        if not row.startswith(prefix):
            problems.append(f"row {row!r} should start {prefix!r}")
        elif "NOT CAUGHT" in row or "DOES NOT COMPILE" in row or "`" not in row[len(prefix):]:
            problems.append(f"row {row!r} names no test that went red")
    for problem in problems:
        print(f"mutants: {path}: {problem} (paste the table `make mutants` prints)")
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="print the mutations and exit")
    parser.add_argument("--only", type=int, help="run only mutation N (1-based)")
    parser.add_argument("--check-doc", metavar="FILE", help="check FILE's mutation table against this list and exit")
    parser.add_argument("--table", default=os.path.join(ROOT, "build", "mutants.md"), help="where to write the table")
    args = parser.parse_args()
    if args.check_doc:
        return check_doc(args.check_doc)
    if args.list:
        for number, (version, what, path, _, _) in enumerate(MUTATIONS, 1):
            print(f"{number:2}. {version}: {what} ({path})")
        return 0
    os.makedirs(os.path.join(ROOT, "build", "mutants"), exist_ok=True)
    print("mutants: the unmutated suites first", flush=True)
    built, red = run_suites(os.path.join(ROOT, "build", "mutants", "baseline.log"))
    if not built or red:
        print(f"mutants: the unmutated suites are not green ({'build failed' if not built else ', '.join(red)}); see build/mutants/baseline.log")
        return 1
    chosen = [(n, m) for n, m in enumerate(MUTATIONS, 1) if args.only in (None, n)]
    rows, uncaught = [], 0
    for number, mutation in chosen:
        version, what, path, _, _ = mutation
        started = time.monotonic()
        full, original = apply(mutation)
        try:
            built, red = run_suites(os.path.join(ROOT, "build", "mutants", f"{number:02}.log"))
        finally:
            open(full, "w", encoding="utf-8").write(original)
        if not built:
            verdict = "DOES NOT COMPILE"
            uncaught += 1
        elif not red:
            verdict = "NOT CAUGHT"
            uncaught += 1
        else:
            verdict = ", ".join(f"`{r}`" for r in red)
        rows.append(f"| {number} | {version} | {what} | {verdict} |")
        print(f"mutants: {number:2}. {version}: {what}: {verdict} ({time.monotonic() - started:.0f} s)", flush=True)
    table = ["| # | Version | Mutation | Tests that went red |", "|---|---|---|---|"] + rows
    print()
    print("\n".join(table))
    with open(args.table, "w", encoding="utf-8") as out:
        out.write("\n".join(table) + "\n")
    print(f"\nmutants: {len(rows) - uncaught} of {len(rows)} mutations caught; table in {os.path.relpath(args.table, ROOT)}")
    # Leave the build matching the sources.
    subprocess.run(["swift", "build", "--build-tests"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return 1 if uncaught else 0


if __name__ == "__main__":
    sys.exit(main())
