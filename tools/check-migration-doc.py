#!/usr/bin/env python3
"""`make test-migration-doc`: every example of a migration guide compiles and runs.

  tools/check-migration-doc.py docs/migrating-0.2-to-0.3.md docs/migrating-0.3-to-0.4.md

A fenced block whose info string is `c example=NAME.c` is compiled with the C tests' flags
(-std=c11 -Wall -Wextra -Werror) against include/ and build/lib (and jansson, which hosts
use to read the JSON), and run; one marked
`python example=NAME.py` runs with the package from bindings/python and the built library.
Each runs in a scratch directory of its own and must exit 0. A guide without examples fails.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "build/lib/libcinematic.so.0"
BLOCK = re.compile(r"^```(?P<language>c|python) example=(?P<name>[\w.-]+)\n(?P<code>.*?)^```$", re.M | re.S)


def run(language: str, name: str, code: str, scratch: Path) -> subprocess.CompletedProcess:
    """Compiles (C) and runs one example in `scratch`."""
    source = scratch / name
    source.write_text(code)
    if language == "c":
        program = scratch / Path(name).stem
        jansson = subprocess.run(["pkg-config", "--cflags", "--libs", "jansson"], check=True, capture_output=True, text=True).stdout.split()
        subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{ROOT / 'include'}", str(source),
                        f"-L{LIBRARY.parent}", "-lcinematic", *jansson, f"-Wl,-rpath,{LIBRARY.parent}", "-o", str(program)],
                       check=True)
        command = [str(program)]
    else:
        command = [sys.executable, str(source)]
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings/python"), CINEMATIC_LIBRARY=str(LIBRARY),
                       HOME=str(scratch), XDG_CACHE_HOME=str(scratch / "cache"))
    return subprocess.run(command, cwd=scratch, env=environment, capture_output=True, text=True, timeout=120)


def main() -> int:
    guides = [Path(arg) for arg in sys.argv[1:]]
    passed = failed = 0
    for guide in guides:
        examples = list(BLOCK.finditer(guide.read_text()))
        if not examples:
            print(f"{guide}: no example (```c example=NAME.c or ```python example=NAME.py)")
            failed += 1
        for example in examples:
            with tempfile.TemporaryDirectory(prefix="migration-") as scratch:
                try:
                    result = run(example["language"], example["name"], example["code"], Path(scratch))
                    ok = result.returncode == 0
                    output = (result.stdout + result.stderr).strip()
                except subprocess.CalledProcessError as error:
                    ok, output = False, f"does not compile ({error})"
            print(f"== {guide.name} {example['name']}: {'ok' if ok else 'FAILED'}" + (f"\n{output}" if output else ""))
            passed, failed = passed + ok, failed + (not ok)
    print(f"migration doc check: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
