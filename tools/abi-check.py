#!/usr/bin/env python3
"""`make abi-check`: the built library's ABI against the last release's, by libabigail.

Two comparisons, each `abidiff` between the last release's stored description
(release/<version>/, written by `abidw` when that release was cut) and today's:

  library  build/lib/libcinematic.so.0 itself: its exported functions, their symbol versions
           and its SONAME (the Swift library carries no C types);
  header   the probe of include/cinematic.h (tools/abi_probe.py): the same functions with the
           C types of their parameters and results, and the types they reach (unversioned:
           the types are compared by function name; the versions are the library's part).

Then a host of every recorded release (Tests/c/abi_host_0_2.c, abi_host_0_3.c, ...: each built
against its release/<v>/cinematic.h and linked against that release's exports) runs on the
built library.

A removed function, or a function whose C signature changed, is an incompatible change: it
fails unless the SONAME differs from the release's (LIB_SONAME in the Makefile). Then the
symbol versions (Sources/Cinematic/cinematic.map): every function of the header is exported,
nothing else is, and each carries a version node CINEMATIC_<major>.<minor>: the release's
node for a function the release had, the version being prepared's for a new one.

  tools/abi-check.py --library build/lib/libcinematic.so.0 --soname libcinematic.so.0 \\
      --version 0.3.0 [--baseline release/0.2.0] [--library-abi FILE] [--header-abi FILE]

--library-abi / --header-abi take an already written description instead of running abidw
(the check's own tests feed it mutated ones). Exit status 0 when compatible, 1 otherwise.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import abi_probe  # noqa: E402
import wire_compat  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ABIDW = ["abidw", "--no-corpus-path", "--no-comp-dir-path", "--no-show-locs"]
# abidiff's exit status is a bit field (libabigail's abidiff manual).
ABIDIFF_ERROR, ABIDIFF_USAGE, ABIDIFF_CHANGE, ABIDIFF_INCOMPATIBLE = 1, 2, 4, 8


def describe(binary: Path, output: Path) -> Path:
    """`abidw` of `binary` written to `output`."""
    output.write_text(subprocess.run(ABIDW + [str(binary)], check=True, capture_output=True, text=True).stdout)
    return output


def corpus(path: Path) -> ElementTree.Element:
    """The parsed `abi-corpus` element of a description."""
    root = ElementTree.parse(path).getroot()
    return root if root.tag == "abi-corpus" else root.find("abi-corpus")


def symbols(path: Path) -> dict[str, str]:
    """Exported function names of a description, each with its version node ('' for none)."""
    return {symbol.get("name"): symbol.get("version", "")
            for symbol in corpus(path).iter("elf-symbol") if symbol.get("is-defined") == "yes"}


def abidiff(name: str, old: Path, new: Path) -> tuple[bool, list[str]]:
    """Runs abidiff; (incompatible, its report). A changed function counts as incompatible."""
    result = subprocess.run(["abidiff", "--no-show-locs", str(old), str(new)], capture_output=True, text=True)
    if result.returncode & (ABIDIFF_ERROR | ABIDIFF_USAGE):
        raise SystemExit(f"abi-check: abidiff failed on the {name}: {result.stderr.strip()}")
    report = [f"  {line}" for line in result.stdout.rstrip().splitlines()]
    changed = re.search(r"Functions changes summary: (\d+) Removed(?: \([^)]*\))?, (\d+) Changed", result.stdout)
    removed_or_changed = bool(changed and (int(changed.group(1)) or int(changed.group(2))))
    return bool(result.returncode & ABIDIFF_INCOMPATIBLE) or removed_or_changed, report


def old_host(baseline: Path, library: Path, soname: str, work: Path) -> list[str]:
    """Builds a recorded release's host against that release's header and exports, runs it on
    `library`; the problems it reports."""
    source = ROOT / "Tests/c" / f"abi_host_{baseline.name.rsplit('.', 1)[0].replace('.', '_')}.c"
    if not source.exists():
        return [f"{source.relative_to(ROOT)} is missing: a host of {baseline.name} to run on this library"]
    folder = work / f"host-{baseline.name}"
    folder.mkdir(parents=True, exist_ok=True)
    abi_probe.build(baseline / "cinematic.h", baseline / "cinematic.map", soname, folder / soname)
    host = folder / "host"
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{folder}", str(source), f"-L{folder}",
                    f"-l:{soname}", "-o", str(host)], check=True)
    run = subprocess.run([str(host)], capture_output=True, text=True, timeout=120,
                         env={"LD_LIBRARY_PATH": str(library.resolve().parent), "PATH": "/usr/bin:/bin"})
    print("== " + f"a host of {baseline.name} on this library: " + ("ok" if run.returncode == 0 else "FAILED"))
    print("\n".join(f"  {line}" for line in (run.stdout + run.stderr).rstrip().splitlines()))
    return [] if run.returncode == 0 else [f"a host built for {baseline.name} fails on this library (status {run.returncode})"]


def node(version: str) -> str:
    """The symbol version node of a release: 0.3.0 -> CINEMATIC_0.3."""
    major, minor = version.split(".")[:2]
    return f"CINEMATIC_{major}.{minor}"


def version_problems(header: dict[str, str], old: dict[str, str], new: dict[str, str], version: str) -> list[str]:
    """What is wrong with the exported set and its symbol versions."""
    problems = [f"{name} is declared in include/cinematic.h but not exported (add it to cinematic.map)"
                for name in sorted(set(header) - set(new))]
    problems += [f"{name} is exported but not declared in include/cinematic.h" for name in sorted(set(new) - set(header))]
    for name in sorted(set(header) & set(new)):
        if not re.fullmatch(r"CINEMATIC_\d+\.\d+", new[name]):
            problems.append(f"{name} has no symbol version (found {new[name] or 'none'})")
        elif name in old and old[name] and old[name] != new[name]:
            problems.append(f"{name} moved from {old[name]} to {new[name]}: a released function keeps its node")
        elif name not in old and new[name] != node(version):
            problems.append(f"{name} is new since the last release: its node is {node(version)}, not {new[name]}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--soname", required=True, help="the SONAME the library is built with")
    parser.add_argument("--version", required=True, help="the version being built (tools/wiregen.py --version)")
    parser.add_argument("--baseline", type=Path, help="release/<last version> (default: the newest at or before --version)")
    parser.add_argument("--header", type=Path, default=ROOT / "include/cinematic.h")
    parser.add_argument("--work", type=Path, default=ROOT / "build/abi")
    parser.add_argument("--library-abi", type=Path, help="today's library description, already written")
    parser.add_argument("--header-abi", type=Path, help="today's header probe description, already written")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    args.baseline = args.baseline or wire_compat.last_release(ROOT / "release", args.version)
    released = (args.baseline / "VERSION").read_text().strip()
    old_library, old_header = args.baseline / "libcinematic.abi", args.baseline / "cinematic-header.abi"
    new_library = args.library_abi or describe(args.library, args.work / "libcinematic.abi")
    if args.header_abi:
        new_header = args.header_abi
    else:
        probe = args.work / args.soname
        abi_probe.build(args.header, None, args.soname, probe)
        new_header = describe(probe, args.work / "cinematic-header.abi")
    old_soname, new_soname = corpus(old_library).get("soname"), corpus(new_library).get("soname")
    print(f"abi-check: {released} ({old_soname}) -> {args.version} ({new_soname}), baseline {args.baseline}")
    failures = []
    for name, old, new in (("library", old_library, new_library), ("header", old_header, new_header)):
        incompatible, report = abidiff(name, old, new)
        print(f"== abidiff {name}: {'INCOMPATIBLE' if incompatible else 'compatible'}")
        print("\n".join(report) if report else "  no change")
        if incompatible and old_soname == new_soname:
            failures.append(f"the {name}'s ABI changed incompatibly since {released} and the SONAME is still "
                            f"{new_soname}: restore what was removed or changed, or bump LIB_SONAME in the Makefile")
        elif incompatible:
            print(f"  (allowed: the SONAME went from {old_soname} to {new_soname})")
    if not args.library_abi:
        for release in wire_compat.recorded_releases(args.baseline.parent, released):
            failures += old_host(release, args.library, args.soname, args.work)
    failures += version_problems(abi_probe.prototypes(args.header), symbols(old_library), symbols(new_library),
                                 args.version)
    for failure in failures:
        print(f"abi-check: FAIL: {failure}")
    print(f"abi-check: {'FAILED' if failures else 'ok'} ({len(symbols(new_library))} functions exported)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
