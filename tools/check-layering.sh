#!/usr/bin/env bash
# Checks that Package.swift states the real module graph: every Swift target depends on
# exactly the package modules its sources import (system modules such as Glibc,
# Synchronization, Foundation and Testing aside), and the library's arrows point one way:
# Cinematic -> CinematicFeatures -> CinematicData -> CinematicDomain -> MVIKit.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build && swift package dump-package > build/package.json
python3 - <<'PY'
import json, os, re, sys
package = json.load(open("build/package.json"))
modules = {t["name"] for t in package["targets"]}
failures = []
for target in package["targets"]:
    if target["type"] == "system":
        continue
    path = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]
    if target["type"] == "test" and not target.get("path"):
        path = "Tests/" + target["name"]
    imports = set()
    for root, _, files in os.walk(path):
        for name in files:
            if name.endswith(".swift"):
                for line in open(os.path.join(root, name)):
                    m = re.match(r"\s*(?:@testable\s+|@_spi\(\w+\)\s+)?import\s+(\w+)", line)
                    if m and m.group(1) in modules:
                        imports.add(m.group(1))
    declared = {d.get("byName", [None])[0] for d in target.get("dependencies", [])} - {None}
    if imports != declared:
        failures.append(f"{target['name']}: imports {sorted(imports)} but declares {sorted(declared)}")
order = ["Cinematic", "CinematicFeatures", "CinematicData", "CinematicDomain", "MVIKit"]
for target in package["targets"]:
    if target["name"] in order:
        rank = order.index(target["name"])
        for d in target.get("dependencies", []):
            name = d.get("byName", [None])[0]
            if name in order and order.index(name) <= rank:
                failures.append(f"{target['name']} depends on {name}: arrows point one way ({' -> '.join(order)})")
# The comparison package is evidence, not product: only its own tests may link it.
for target in package["targets"]:
    for d in target.get("dependencies", []):
        if d.get("byName", [None])[0] == "CinematicComparison" and target["name"] != "CinematicComparisonTests":
            failures.append(f"{target['name']} depends on CinematicComparison, which ships only as evidence (docs/comparison.md)")
for failure in failures:
    print("layering:", failure)
print(f"layering check: {0 if failures else 1} passed, {1 if failures else 0} failed")
sys.exit(1 if failures else 0)
PY
