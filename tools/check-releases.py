#!/usr/bin/env python3
"""`make test-releases`: every release the CHANGELOG names has its contract recorded.

A release is a `## X.Y.Z (date)` heading of CHANGELOG.md. Each one from the first recorded
release on must have, so that no step of docs/releasing.md is skipped again:

  release/X.Y.Z/VERSION        saying X.Y.Z (written by tools/release-record.py, with the
                               ABI descriptions, headers, version script, schema and goldens)
  release/X.Y.Z/COMMIT         the commit the release was cut from (a tag is not a file on
                               main: this is how a clone finds it); when the clone has git
                               history, that commit must exist, be an ancestor of HEAD, and
                               its schema must say X.Y.Z
  Tests/c/abi_host_X_Y.c       a host of the release, which `make abi-check` builds against
                               the release's header and runs on today's library

and the schema's version, when the CHANGELOG names it as a release, must be recorded too.
Releases cut before contracts were recorded are listed in UNRECORDED, each with why.

  tools/check-releases.py [--root DIR]     (exit status 1 naming each missing piece)
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Releases the CHANGELOG names whose contract was never recorded, and why.
UNRECORDED = {"0.1.0": "cut before release contracts were recorded (0.2.0 is the first)"}
HEADING = re.compile(r"^## (\d+\.\d+\.\d+)(?: \(([^)]*)\))?\s*$", re.MULTILINE)


def named_releases(changelog: str) -> list[str]:
    """The versions the CHANGELOG's release headings name, newest first."""
    return [match.group(1) for match in HEADING.finditer(changelog)]


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True)


def commit_problems(root: Path, version: str, commit: str) -> list[str]:
    """What is wrong with `commit` as `version`'s (nothing to check without git history)."""
    if git(root, "rev-parse", "--git-dir").returncode != 0:
        return []
    if git(root, "cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
        return [f"release/{version}/COMMIT names {commit}, which this clone does not have"]
    problems = []
    if git(root, "merge-base", "--is-ancestor", commit, "HEAD").returncode != 0:
        problems.append(f"release/{version}/COMMIT ({commit}) is not an ancestor of HEAD")
    schema = git(root, "show", f"{commit}:schema/cinematic.schema.json")
    said = json.loads(schema.stdout)["x-cinematic"]["version"] if schema.returncode == 0 else None
    if said != version:
        problems.append(f"release/{version}/COMMIT ({commit}): its schema says {said}, not {version}")
    return problems


def problems(root: Path) -> list[str]:
    """Every missing or wrong piece of a named release's contract."""
    found: list[str] = []
    releases = named_releases((root / "CHANGELOG.md").read_text())
    for version in releases:
        if version in UNRECORDED:
            continue
        folder = root / "release" / version
        if not (folder / "VERSION").exists():
            found.append(f"CHANGELOG names {version}, but release/{version}/ is not recorded "
                         f"(docs/releasing.md, 'Cutting a release': make release-record)")
            continue
        if (folder / "VERSION").read_text().strip() != version:
            found.append(f"release/{version}/VERSION says {(folder / 'VERSION').read_text().strip()}")
        commit = (folder / "COMMIT").read_text().strip() if (folder / "COMMIT").exists() else ""
        if not re.fullmatch(r"[0-9a-f]{7,40}", commit):
            found.append(f"release/{version}/COMMIT is missing or not a commit: the commit {version} was cut from")
        else:
            found += commit_problems(root, version, commit)
        major, minor = version.split(".")[:2]
        if not (root / "Tests/c" / f"abi_host_{major}_{minor}.c").exists():
            found.append(f"Tests/c/abi_host_{major}_{minor}.c is missing: a host of {version} for make abi-check")
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    found = problems(args.root)
    for problem in found:
        print(f"check-releases: FAIL: {problem}")
    named = named_releases((args.root / "CHANGELOG.md").read_text())
    print(f"check-releases: {'FAILED' if found else 'ok'} ({len(named)} releases named, "
          f"{len([v for v in named if v not in UNRECORDED])} with recorded contracts)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
