#!/usr/bin/env bash
# The module graph, stated edge by edge (`make test-layering`).
#
# ALLOWED below lists, for every target of Package.swift, each module its Swift files may
# import: package modules and system ones (Glibc, Synchronization, Foundation, Testing…).
# Anything else fails, naming the file, the import and the target. So the library's arrows
# point one way (Cinematic -> CinematicFeatures, CinematicData -> CinematicDomain;
# CinematicFeatures -> MVIKit; CinematicData -> CinematicThreads), features never import the
# data layer or SQLite, only Cinematic knows JSON (jansson) and C, only CinematicData knows
# SQLite, the shipped library imports nothing from Foundation, and the comparison module is
# linked by its own tests only. Also checked: Package.swift declares exactly the package
# modules each target imports, every target has a row here, and the rows have no cycle.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build && swift package dump-package > build/package.json
python3 - <<'PY'
import json, os, re, sys

# What the Swift library modules may use from the platform: no Foundation, no Dispatch.
PLATFORM = {"Glibc", "Darwin", "Synchronization"}
# What tests, benchmarks and tools may use besides their package modules.
TESTING = PLATFORM | {"Foundation", "Dispatch", "Testing", "CinematicTestSupport"}

ALLOWED = {
    # The shipped library (libcinematic.so), bottom up.
    "MVIKit": {"Synchronization"},
    "CinematicThreads": PLATFORM,
    "CinematicDomain": set(),
    "CinematicFeatures": {"CinematicDomain", "MVIKit", "Synchronization"},
    "CinematicData": {"CinematicDomain", "CinematicThreads", "CSQLite", "CZlib", "CSystem", "CinematicCatalogData"} | PLATFORM,
    "Cinematic": {"CinematicFeatures", "CinematicData", "CinematicDomain", "CinematicThreads", "MVIKit",
                  "CJansson", "CSystem"} | PLATFORM,
    # C and system-library targets: no Swift files.
    "CJansson": set(), "CSQLite": set(), "CZlib": set(), "CSystem": set(), "CinematicCatalogData": set(),
    # Evidence, not product (docs/comparison.md): nothing shipped links it.
    "CinematicComparison": {"CinematicDomain", "MVIKit"},
    # Programs.
    "cinematic-demo": {"CinematicFeatures", "CinematicData", "CinematicDomain", "MVIKit"} | PLATFORM,
    "cinematic-fuzz": {"Cinematic", "CSQLite"} | PLATFORM,
    "cinematic-bench": {"Cinematic", "CinematicData", "CinematicDomain", "CinematicFeatures", "MVIKit", "CSQLite",
                        "CinematicTestSupport"} | PLATFORM | {"Foundation"},
    "cinematic-abi-profile": {"Cinematic", "CinematicData", "CinematicDomain", "CinematicFeatures", "MVIKit"} | PLATFORM,
    # Tests.
    "CinematicTestSupport": {"CinematicDomain", "MVIKit", "CinematicThreads", "Synchronization", "Testing"},
    # Test hooks: fault injection (FileIO's system calls, SQLite's VFS); never shipped.
    "CinematicTestHooks": {"CinematicData", "CSQLite"} | PLATFORM,
    "MVIKitTests": {"MVIKit", "CinematicThreads"} | TESTING,
    "CinematicThreadsTests": {"CinematicThreads", "MVIKit"} | TESTING,
    "CinematicDomainTests": {"CinematicDomain"} | TESTING,
    "CinematicDataTests": {"CinematicData", "CinematicDomain", "MVIKit", "CinematicTestHooks"} | TESTING,
    "CinematicFeaturesTests": {"CinematicFeatures", "CinematicData", "CinematicDomain", "MVIKit"} | TESTING,
    "CinematicComparisonTests": {"CinematicComparison", "CinematicFeatures", "CinematicDomain", "MVIKit"} | TESTING,
    "CinematicTests": {"Cinematic", "CinematicData", "CinematicDomain", "CinematicFeatures", "CinematicThreads", "MVIKit", "CinematicTestHooks"} | TESTING,
}

IMPORT = re.compile(r"\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)")

package = json.load(open("build/package.json"))
modules = {t["name"] for t in package["targets"]}
failures = []

def source_path(target):
    if target.get("path"):
        return target["path"]
    return ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]

for target in package["targets"]:
    name = target["name"]
    if name not in ALLOWED:
        failures.append(f"target {name} has no row in tools/check-layering.sh: list the modules it may import")
        continue
    allowed = ALLOWED[name]
    imported = {}
    for root, _, files in os.walk(source_path(target)):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            path = os.path.join(root, file)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                match = IMPORT.match(line)
                if not match:
                    continue
                module = match.group(1)
                imported.setdefault(module, f"{path}:{number}")
                if module not in allowed:
                    failures.append(f"{path}:{number}: target {name} imports {module}, which it may not "
                                    f"(allowed: {', '.join(sorted(allowed)) or 'nothing'})")
    declared = {d.get("byName", [None])[0] for d in target.get("dependencies", [])} - {None}
    for module in sorted(declared - allowed):
        failures.append(f"Package.swift: target {name} depends on {module}, which it may not")
    used = {m for m in imported if m in modules}
    for module in sorted(used - declared):
        failures.append(f"{imported[module]}: target {name} imports {module}, which Package.swift does not declare")
    for module in sorted(declared - used):
        failures.append(f"Package.swift: target {name} declares {module}, which none of its files imports")

# The table itself points one way: no cycle among package modules.
def visit(module, trail):
    if module in trail:
        failures.append("the allowed edges have a cycle: " + " -> ".join(trail[trail.index(module):] + [module]))
        return
    for dependency in sorted(ALLOWED.get(module, set()) & set(ALLOWED)):
        visit(dependency, trail + [module])
for module in sorted(ALLOWED):
    visit(module, [])

for failure in failures:
    print("layering:", failure)
print(f"layering check: {len(modules)} targets, {len(failures)} problem(s)")
sys.exit(1 if failures else 0)
PY
