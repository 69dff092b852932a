#!/usr/bin/env python3
"""Follows docs/adding-a-feature.md literally in a scratch copy of the repository, then
misspells each wire name of the page's wire file in turn.

    tools/try-adding-a-feature.py [--keep] [--scratch DIR] [--no-misspellings]

Copies the working tree (tracked and untracked, not ignored) to a scratch directory, writes
every block of the walkthrough marked `<!-- file: PATH -->`, runs `make generate`, counts the
files written by hand (at most 4), builds the library and runs the C, Python and Kotlin golden
checks there. Then, for each occurrence of a wire name in the wire file (each intent's type,
each member, each state member, in the declaration and in the golden lines), it writes that
one occurrence misspelled and expects a named gate to fail: `generate` (tools/wiregen.py),
`compile` (`make lib`) or `golden` (the Python golden checks). Exits non-zero, saying which
step failed or which misspelling passed every gate. Standard library only.
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
from typing import List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "adding-a-feature.md"
MAX_HAND_WRITTEN = 4
BLOCK = re.compile(r"<!-- file: (\S+) -->\s*(`{3,})\w*\n(.*?)\n\2\n", re.S)
WIRE_BLOCK = re.compile(r"```json wire\n(.*?)```", re.S)


def blocks() -> List[Tuple[str, str]]:
    found = [(path, text + "\n") for path, _, text in BLOCK.findall(DOC.read_text())]
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


def run(step: str, command: List[str], cwd: Path, env: Optional[dict] = None, quiet: bool = False) -> bool:
    if not quiet:
        print(f"== {step}: {' '.join(command)}", flush=True)
    result = subprocess.run(command, cwd=cwd, env={**os.environ, **(env or {})},
                            stdout=subprocess.DEVNULL if quiet else None, stderr=subprocess.DEVNULL if quiet else None)
    return result.returncode == 0


def must(step: str, command: List[str], cwd: Path, env: Optional[dict] = None) -> None:
    if not run(step, command, cwd, env):
        raise SystemExit(f"try-adding-a-feature: {step} failed in {cwd}")


def git(scratch: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=scratch, check=True, capture_output=True, text=True).stdout


def touched(scratch: Path) -> Tuple[List[str], List[str]]:
    """(hand-written, generated) files the walkthrough changed or added."""
    names = [line[3:] for line in git(scratch, "status", "--porcelain", "--untracked-files=all").splitlines()]
    generated_paths = subprocess.run([sys.executable, "-c",
                                      "import sys; sys.path.insert(0, 'tools'); import wiregen; "
                                      "print('\\n'.join(str(p.relative_to(wiregen.ROOT)) for p in wiregen.outputs()))"],
                                     cwd=scratch, check=True, capture_output=True, text=True).stdout.split()
    generated = [name for name in names if name in generated_paths]
    return [name for name in names if name not in generated], generated


def python_golden() -> List[str]:
    venv_python = ROOT / "build" / "venv" / "bin" / "python"
    python = str(venv_python) if venv_python.exists() else subprocess.run(
        [str(ROOT / "tools" / "ensure-venv.sh")], check=True, capture_output=True, text=True).stdout.strip()
    return [python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "bindings/python/tests/test_golden.py"]


def python_env(scratch: Path) -> dict:
    return {"PYTHONPATH": str(scratch / "bindings" / "python"),
            "CINEMATIC_LIBRARY": str(scratch / "build" / "lib" / "libcinematic.so.0")}


def wire_names(declaration: dict) -> List[str]:
    """The wire names a wire file declares: intent types, their members, the state's members."""
    names = []
    for wire, body in declaration["intents"].items():
        names += [wire] + list(body.get("properties", {}))
    names += list(declaration["state"].get("properties", {}))
    return list(dict.fromkeys(names))


def misspelled(name: str) -> str:
    return name[:-2] + name[-1] + name[-2] if name[-1] != name[-2] else name + "x"


def try_misspellings(scratch: Path, wire_path: Path) -> List[str]:
    """Each occurrence of each wire name misspelled alone: the gate that failed, or a complaint."""
    original = wire_path.read_text()
    block = WIRE_BLOCK.search(original)
    assert block, f"{wire_path}: no wire block"
    names = wire_names(json.loads(block.group(1)))
    occurrences = [(name, m.start(1) + block.start(1)) for name in names
                   for m in re.finditer(rf'"({re.escape(name)})"', block.group(1))]
    # Golden lines first: they need no new library; each declaration change rebuilds it.
    golden_at = block.group(1).find('"golden"') + block.start(1)
    occurrences.sort(key=lambda item: (item[1] < golden_at, item[1]))
    gates = [("generate", [sys.executable, "tools/wiregen.py"], {}), ("compile", ["make", "lib"], {}),
             ("golden", python_golden(), python_env(scratch))]
    complaints = []
    for name, at in occurrences:
        wire_path.write_text(original[:at] + misspelled(name) + original[at + len(name):])
        where = "golden line" if at > golden_at else "declaration"
        failed = next((gate for gate, command, env in gates if not run(gate, command, scratch, env, quiet=True)), None)
        line = original.count("\n", 0, at) + 1
        print(f"misspelled {name!r} → {misspelled(name)!r} ({where}, line {line}): "
              + (f"the {failed} gate failed" if failed else "PASSED EVERY GATE"), flush=True)
        if not failed:
            complaints.append(f"{name} at line {line}")
    wire_path.write_text(original)
    return complaints


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy")
    parser.add_argument("--scratch", type=Path, help="where to build (default: a new temporary directory)")
    parser.add_argument("--no-misspellings", action="store_true", help="follow the page only")
    options = parser.parse_args()
    scratch = options.scratch or Path(tempfile.mkdtemp(prefix="cinematic-new-feature-"))
    try:
        copy_tree(scratch)
        git(scratch, "init", "-q")
        git(scratch, "add", "-A")
        git(scratch, "-c", "user.name=scratch", "-c", "user.email=scratch@invalid", "commit", "-qm", "before")
        for path, text in blocks():
            (scratch / path).parent.mkdir(parents=True, exist_ok=True)
            (scratch / path).write_text(text)
        must("make generate", ["make", "generate"], scratch)
        hand, generated = touched(scratch)
        print(f"files written by hand ({len(hand)}): {', '.join(hand)}")
        print(f"files generated by make generate ({len(generated)}): {', '.join(generated)}")
        if len(hand) > MAX_HAND_WRITTEN:
            raise SystemExit(f"try-adding-a-feature: the walkthrough writes {len(hand)} files by hand (at most {MAX_HAND_WRITTEN})")
        must("make lib", ["make", "lib"], scratch)
        must("C golden checks", ["make", "build/tests/test_golden"], scratch)
        must("C golden checks", ["build/tests/test_golden"], scratch)
        must("Python golden checks", python_golden(), scratch, python_env(scratch))
        must("Kotlin golden checks", ["bindings/kotlin/jvm/build-and-test.sh", "golden"], scratch)
        print(f"adding a feature: the walkthrough works ({len(hand)} files by hand, {len(generated)} generated)")
        if options.no_misspellings:
            return 0
        wire_file = next(scratch / path for path in hand if path.endswith(".wire.md"))
        complaints = try_misspellings(scratch, wire_file)
        if complaints:
            raise SystemExit(f"try-adding-a-feature: misspellings no gate caught: {', '.join(complaints)}")
        print("adding a feature: every misspelled wire name failed a named gate")
        return 0
    finally:
        if options.keep or options.scratch:
            print(f"scratch copy kept at {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
