#!/usr/bin/env python3
"""Follows docs/adding-a-feature.md literally in a scratch copy of the repository.

    tools/try-adding-a-feature.py [--keep] [--scratch DIR]

Copies the working tree (tracked and untracked, not ignored) to a scratch directory, applies
every marked block of the walkthrough (`<!-- file: PATH -->`, `<!-- schema: $defs -->`,
`<!-- schema: x-cinematic.features -->`, `<!-- append: PATH -->`, `<!-- golden-state: NAME -->`),
runs `make generate`, counts the files the walkthrough touched (at most 7 written by hand),
builds the library and runs the C, Python and Kotlin golden checks there. Exits non-zero,
saying which step failed, when any of it does. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "adding-a-feature.md"
MAX_HAND_WRITTEN = 7
BLOCK = re.compile(r"<!-- (file|schema|append|golden-state): (\S+) -->\s*```\w*\n(.*?)```", re.S)


def blocks() -> List[Tuple[str, str, str]]:
    found = BLOCK.findall(DOC.read_text())
    if not found:
        raise SystemExit(f"{DOC}: no marked blocks")
    return found


def copy_tree(scratch: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            target = scratch / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    # The embedded catalog's index depends on the data and the library version, not on the
    # features: reusing it spares the scratch build its second link.
    index = ROOT / "build" / "catalog-index" / "catalog.idx"
    if index.exists():
        (scratch / "build" / "catalog-index").mkdir(parents=True, exist_ok=True)
        shutil.copy2(index, scratch / "build" / "catalog-index" / "catalog.idx")


def apply(scratch: Path) -> None:
    schema_path = scratch / "schema" / "cinematic.schema.json"
    for kind, target, text in blocks():
        if kind == "file":
            path = scratch / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        elif kind == "append":
            with open(scratch / target, "a") as out:
                out.write(text)
        elif kind == "schema":
            schema = json.loads(schema_path.read_text())
            value = json.loads(text)
            if target == "$defs":
                schema["$defs"].update(value)
            elif target == "x-cinematic.features":
                schema["x-cinematic"]["features"].append(value)
            else:
                raise SystemExit(f"unknown schema block target {target}")
            schema_path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n")
        elif kind == "golden-state":
            path = scratch / "schema" / "golden" / "initial-states.json"
            text_now = path.read_text().rstrip()
            assert text_now.endswith("}"), path
            state = json.dumps(json.loads(text), separators=(",", ":"))
            path.write_text(text_now[:-1].rstrip() + f',\n  "{target}": {state}\n}}\n')


def run(step: str, command: List[str], cwd: Path, env: dict | None = None) -> None:
    print(f"== {step}: {' '.join(command)}", flush=True)
    result = subprocess.run(command, cwd=cwd, env={**os.environ, **(env or {})})
    if result.returncode != 0:
        raise SystemExit(f"try-adding-a-feature: {step} failed (exit {result.returncode}) in {cwd}")


def git(scratch: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=scratch, check=True, capture_output=True, text=True).stdout


def touched(scratch: Path) -> Tuple[List[str], List[str]]:
    """(hand-written, generated) files the walkthrough changed or added."""
    sys.path.insert(0, str(scratch / "tools"))
    names = [line[3:] for line in git(scratch, "status", "--porcelain", "--untracked-files=all").splitlines()]
    generated_paths = subprocess.run([sys.executable, "-c",
                                      "import sys; sys.path.insert(0, 'tools'); import wiregen; "
                                      "print('\\n'.join(str(p.relative_to(wiregen.ROOT)) for p in wiregen.outputs()))"],
                                     cwd=scratch, check=True, capture_output=True, text=True).stdout.split()
    generated = [name for name in names if name in generated_paths]
    return [name for name in names if name not in generated], generated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy")
    parser.add_argument("--scratch", type=Path, help="where to build (default: a new temporary directory)")
    options = parser.parse_args()
    scratch = options.scratch or Path(tempfile.mkdtemp(prefix="cinematic-new-feature-"))
    try:
        copy_tree(scratch)
        git(scratch, "init", "-q")
        git(scratch, "add", "-A")
        git(scratch, "-c", "user.name=scratch", "-c", "user.email=scratch@invalid", "commit", "-qm", "before")
        apply(scratch)
        run("make generate", ["make", "generate"], scratch)
        hand, generated = touched(scratch)
        print(f"files written by hand ({len(hand)}): {', '.join(hand)}")
        print(f"files generated by make generate ({len(generated)}): {', '.join(generated)}")
        if len(hand) > MAX_HAND_WRITTEN:
            raise SystemExit(f"try-adding-a-feature: the walkthrough writes {len(hand)} files by hand (at most {MAX_HAND_WRITTEN})")
        run("make lib", ["make", "lib"], scratch)
        run("C golden checks", ["make", "build/tests/test_golden"], scratch)
        run("C golden checks", ["build/tests/test_golden"], scratch)
        venv_python = ROOT / "build" / "venv" / "bin" / "python"
        python = str(venv_python) if venv_python.exists() else subprocess.run(
            [str(ROOT / "tools" / "ensure-venv.sh")], check=True, capture_output=True, text=True).stdout.strip()
        run("Python golden checks", [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "bindings/python/tests/test_golden.py"],
            scratch, {"PYTHONPATH": str(scratch / "bindings" / "python"),
                      "CINEMATIC_LIBRARY": str(scratch / "build" / "lib" / "libcinematic.so.0")})
        run("Kotlin golden checks", ["bindings/kotlin/jvm/build-and-test.sh", "golden"], scratch)
        print(f"adding a feature: the walkthrough works ({len(hand)} files by hand, {len(generated)} generated)")
        return 0
    finally:
        if options.keep or options.scratch:
            print(f"scratch copy kept at {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
