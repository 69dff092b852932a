#!/usr/bin/env python3
"""Records a release's contract in release/<version>/, the baseline of the next release's checks.

  tools/release-record.py [--tree DIR] [--commit REV] [--library FILE] [--soname NAME] [--out DIR]

Writes, from the source tree DIR (default: this one) and its built library:
  VERSION                 the release's version (the tree's schema says it)
  COMMIT                  the commit the release was cut from (--commit, default the tree's
                          HEAD): how a clone finds it, since a tag is not a file on main
  libcinematic.abi        abidw of the built library: functions, symbol versions, SONAME
  cinematic-header.abi    abidw of the header probe: the C types (tools/abi_probe.py)
  cinematic.h, .map       the header and the linker version script (a host of the release is
                          built from them by `make abi-check`)
  cinematic/              the module headers cinematic.h includes (include/cinematic/)
  cinematic.schema.json   the wire schema
  golden/                 the golden intents and initial states

`make release-record` runs it on this tree once a release is cut (docs/releasing.md); 0.2.0's
was written from the 0.2.0 commit's tree and a library built from it.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import abi_probe  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ABIDW = ["abidw", "--no-corpus-path", "--no-comp-dir-path", "--no-show-locs"]


def describe(binary: Path) -> str:
    return subprocess.run(ABIDW + [str(binary)], check=True, capture_output=True, text=True).stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--library", type=Path, help="default: TREE/build/lib/libcinematic.so.0")
    parser.add_argument("--soname", default="libcinematic.so.0")
    parser.add_argument("--out", type=Path, help="default: release/<version> of this tree")
    parser.add_argument("--commit", help="the release's commit (default: the tree's HEAD; required for a tree without git)")
    args = parser.parse_args()
    tree = args.tree.resolve()
    schema = json.loads((tree / "schema/cinematic.schema.json").read_text())
    version = schema["x-cinematic"]["version"]
    out = args.out or ROOT / "release" / version
    (out / "golden").mkdir(parents=True, exist_ok=True)
    (out / "VERSION").write_text(version + "\n")
    commit = args.commit or subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], check=True,
                                           capture_output=True, text=True).stdout.strip()
    (out / "COMMIT").write_text(subprocess.run(["git", "-C", str(ROOT), "rev-parse", commit], check=True,
                                               capture_output=True, text=True).stdout.strip() + "\n")
    library = args.library or tree / "build/lib" / args.soname
    (out / "libcinematic.abi").write_text(describe(library))
    with tempfile.TemporaryDirectory() as scratch:
        probe = Path(scratch) / args.soname
        abi_probe.build(tree / "include/cinematic.h", None, args.soname, probe)
        (out / "cinematic-header.abi").write_text(describe(probe))
    shutil.copy(tree / "include/cinematic.h", out / "cinematic.h")
    shutil.rmtree(out / "cinematic", ignore_errors=True)
    if (tree / "include/cinematic").is_dir():
        shutil.copytree(tree / "include/cinematic", out / "cinematic")
    shutil.copy(tree / "Sources/Cinematic/cinematic.map", out / "cinematic.map")
    shutil.copy(tree / "schema/cinematic.schema.json", out / "cinematic.schema.json")
    for name in ("intents.jsonl", "initial-states.json"):
        shutil.copy(tree / "schema/golden" / name, out / "golden" / name)
    print(f"release-record: {version} recorded in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
