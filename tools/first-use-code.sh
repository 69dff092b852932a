#!/usr/bin/env bash
# Writes mk/first-use-code.order: the sections of the functions libcinematic runs from
# loading to a C host's first search result (build/bin/catalog-host embedded dune, what
# `make bench` weighs), in the order callgrind lists them. `make lib` compiles each function
# into a section of its own and has the linker put these first, together, so the code a host
# touches to start is a few contiguous pages instead of pages all over .text (every code page
# fault maps up to 64 KB around it). A stale list costs only memory, never correctness: a
# function that is gone matches nothing, a new one lands where the linker puts the rest.
#
#   tools/first-use-code.sh      (needs valgrind, `make lib` and build/bin/catalog-host)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the Swift toolchain's debug info: run on a copy without it.
objcopy --strip-debug build/lib/libcinematic.so.0 "$work/libcinematic.so.0"
LD_LIBRARY_PATH="$work" valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$work/callgrind.out" build/bin/catalog-host embedded dune > /dev/null 2> "$work/valgrind.log" \
    || { cat "$work/valgrind.log" >&2; exit 1; }
python3 - "$work/callgrind.out" mk/first-use-code.order <<'PY'
import re, sys
source, target = sys.argv[1:]
names, seen, library = [], set(), False
for line in open(source, encoding="utf-8", errors="replace"):
    if line.startswith("ob="):
        library = "libcinematic" in line
    elif line.startswith("fn=") and library:
        name = re.sub(r"'\d+$", "", line[3:].strip())   # callgrind's recursion suffix
        if name not in seen and not name.startswith("0x"):
            seen.add(name)
            names.append(name)
with open(target, "w") as out:
    out.write("".join(f".text.{name}\n" for name in names))
print(f"first-use-code: {len(names)} functions in {target}")
PY
