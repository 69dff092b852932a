"""The C API as a header declares it, as an ELF object libabigail can read with its types.

libcinematic.so is Swift: its DWARF (when there is any) describes Swift functions, not the C
signatures of include/cinematic.h, so `abidw` of the real library sees symbols, symbol
versions and the SONAME but no parameter types. The probe fills that gap: gcc lists the
header's prototypes (-aux-info), each becomes an empty definition in a C file, compiled with
-g into a shared object with the same version script and SONAME. `abidiff` of two probes
(last release's header against today's) reports a changed parameter or return type, a
struct or enum changed in place, which the library's own symbols cannot show.

A header is include/cinematic.h with the module headers it includes (include/cinematic/*.h,
since 0.3.0), or a release's single cinematic.h (0.2.0): `header` names the umbrella, and
its module folder, when there is one, is the `cinematic` folder beside it.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

# `/* include/cinematic/runtime.h:73:NC */ extern int cinematic_runtime_close (cinematic_runtime *);`
PROTOTYPE = re.compile(r"^/\* (?P<file>[^*]*):\d+:NC \*/ extern (?P<decl>.*\b(?P<name>cinematic_\w+) \((?P<params>.*)\));$")


def modules(header: Path) -> Path:
    """The folder of the module headers `header` includes (it may not exist: a 0.2.0 header)."""
    return header.parent / "cinematic"


def declared_by(header: Path, file: str) -> bool:
    """Whether `file` (as gcc names it) is `header` or one of its module headers."""
    path = Path(file).resolve()
    return path == header.resolve() or path.parent == modules(header).resolve()


def prototypes(header: Path) -> dict[str, str]:
    """Each function `header` (and its module headers) declares, by name: its prototype as gcc
    prints it."""
    with tempfile.TemporaryDirectory() as scratch:
        aux = Path(scratch) / "aux.txt"
        subprocess.run(["gcc", "-std=c99", "-fsyntax-only", "-x", "c", str(header), f"-aux-info={aux}"],
                       check=True)
        found = {}
        for line in aux.read_text().splitlines():
            match = PROTOTYPE.match(line)
            if match and declared_by(header, match["file"]):
                found[match["name"]] = match["decl"]
        return found


def stub(header: Path) -> str:
    """A C file defining every function of `header` (parameters unnamed, C23), doing nothing."""
    lines = ['#include "cinematic.h"']
    for name, decl in sorted(prototypes(header).items()):
        returns_void = decl.startswith("void ") and not decl.startswith("void *")
        lines.append(f"{decl} {{ {'' if returns_void else 'return 0; '}}}")
    return "\n".join(lines) + "\n"


def build(header: Path, version_script: Path | None, soname: str, output: Path) -> None:
    """Compiles the probe of `header` into `output` (a shared object named `soname`), its
    symbols versioned by `version_script`, or unversioned without one: the C types are then
    compared by name alone (abidiff does not pair `f` with `f@@CINEMATIC_0.2`). The header
    and its module headers are copied beside `output` as cinematic.h and cinematic/."""
    folder = output.parent
    copy = folder / "cinematic.h"
    if copy.resolve() != header.resolve():
        copy.write_bytes(header.read_bytes())
    if modules(copy).resolve() != modules(header).resolve():
        shutil.rmtree(modules(copy), ignore_errors=True)
        if modules(header).is_dir():
            shutil.copytree(modules(header), modules(copy))
    (folder / "probe.c").write_text(stub(header))
    if version_script is None:
        version_script = folder / "unversioned.map"
        version_script.write_text("{ global: cinematic_*; local: *; };\n")
    # Relative names only, so the description does not depend on where the tree is.
    subprocess.run(["gcc", "-std=gnu2x", "-g", "-O0", "-shared", "-fPIC", "-w", "probe.c",
                    f"-Wl,--version-script={version_script.resolve()}", f"-Wl,-soname={soname}",
                    "-o", output.name], check=True, cwd=folder)
