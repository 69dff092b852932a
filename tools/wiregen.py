#!/usr/bin/env python3
"""Generates every copy of the wire format from the wire files people write.

One source of truth: schema/core/*.json (statuses, version, what features share) and one
wire file per feature, Sources/CinematicFeatures/<Name>/<name>.wire.md (its intents, state,
arguments, snapshot, golden lines and docs paragraph; tools/wiregen_lib/assemble.py). This
script writes

  schema/cinematic.schema.json                            the whole schema (JSON Schema 2020-12)
  schema/golden/intents.jsonl, initial-states.json        the golden lines every host checks
  docs/wire.md                                            the features' sections (between markers)
  bindings/python/README.md, bindings/kotlin/README.md    the feature tables (between markers)
  Sources/CinematicFeatures/Generated/HostIntents.swift   each feature's `Host` enum
  Sources/Cinematic/Generated/FeatureWire.swift           each codec's names, host intent decoder
                                                          and encoder, snapshot, StateKey names

  bindings/python/cinematic/wire.py                       statuses, version, the wire types
                                                          (lazily, from _wire_types.py: TypedDicts)
  bindings/python/cinematic/features.py                   per-feature Store classes, their
                                                          intent helpers, the feature list
  bindings/kotlin/common/src/commonMain/kotlin/cinematic/Wire.kt   data classes, statuses,
                                                          version (JVM and Native share it)
  bindings/kotlin/common/src/commonMain/kotlin/cinematic/Features.kt  a typed store per feature
                                                          (send helpers, state decoder), the list
  Sources/Cinematic/Generated/WireConstants.swift         Status, the library version
  Package.swift                                           the wire files the features target excludes
  include/cinematic.h                                     the block between the GENERATED
                                                          markers (version macros, statuses)
  bindings/python/pyproject.toml                          the version line
  bindings/python/cinematic/keymap.py, examples/web/static/keymap.js   the app's keymap
                                                          (tools/wiregen_lib/keymap.py)

`tools/wiregen.py` rewrites them; `tools/wiregen.py --check` (run by `make test`) fails,
naming the file, when any of them differs from what the schema says. Standard library only.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

from wiregen_lib.schema import ROOT, load  # noqa: E402
from wiregen_lib.python import python, python_types  # noqa: E402
from wiregen_lib.python_features import python_features  # noqa: E402
from wiregen_lib.kotlin import kotlin  # noqa: E402
from wiregen_lib.kotlin_features import kotlin_features  # noqa: E402
from wiregen_lib.swift import swift, header_block, splice  # noqa: E402
from wiregen_lib.swift_host import swift_features, swift_host_enums  # noqa: E402
from wiregen_lib.assemble import FEATURES_DIR, assembled  # noqa: E402
from wiregen_lib import pages  # noqa: E402
from wiregen_lib.keymap import javascript_keymap, keymap, python_keymap  # noqa: E402

# --------------------------------------------------------------------------------------

def outputs() -> Dict[Path, str]:
    schema, defs, meta = load()
    _, golden, states, prose = assembled()
    wire_doc = ROOT / "docs" / "wire.md"
    python_readme = ROOT / "bindings" / "python" / "README.md"
    kotlin_readme = ROOT / "bindings" / "kotlin" / "README.md"
    header_path = ROOT / "include" / "cinematic.h"
    package_path = ROOT / "Package.swift"
    pyproject_path = ROOT / "bindings" / "python" / "pyproject.toml"
    bindings = keymap(defs)
    wire_kt = kotlin(schema, defs, meta)
    # Every top-level declaration of Wire.kt, named in the Kotlin README's generated block.
    kotlin_types = sorted(set(re.findall(r"(?m)^(?:sealed class|data class|class|interface|object|typealias|val)\s+(\w+)", wire_kt)))
    pyproject = re.sub(r'(?m)^version = ".*"$', f'version = "{meta["version"]}"', pyproject_path.read_text())
    return {
        ROOT / "schema" / "cinematic.schema.json": json.dumps(schema, indent=2, ensure_ascii=False) + "\n",
        ROOT / "schema" / "golden" / "intents.jsonl": pages.golden_intents(golden),
        ROOT / "schema" / "golden" / "initial-states.json": pages.golden_states(states),
        wire_doc: pages.splice_block(wire_doc.read_text(), pages.wire_doc_sections(meta, defs, prose), "docs/wire.md"),
        python_readme: pages.splice_block(python_readme.read_text(), pages.python_readme_table(meta, defs), "bindings/python/README.md"),
        kotlin_readme: pages.splice_block(kotlin_readme.read_text(), pages.kotlin_readme_table(meta, defs, kotlin_types), "bindings/kotlin/README.md"),
        ROOT / "Sources" / "CinematicFeatures" / "Generated" / "HostIntents.swift": swift_host_enums(meta, defs),
        ROOT / "bindings" / "python" / "cinematic" / "wire.py": python(schema, defs, meta),
        ROOT / "bindings" / "python" / "cinematic" / "_wire_types.py": python_types(schema, defs, meta),
        ROOT / "bindings" / "python" / "cinematic" / "features.py": python_features(schema, defs, meta),
        ROOT / "bindings" / "kotlin" / "common" / "src" / "commonMain" / "kotlin" / "cinematic" / "Wire.kt": wire_kt,
        ROOT / "bindings" / "kotlin" / "common" / "src" / "commonMain" / "kotlin" / "cinematic" / "Features.kt": kotlin_features(schema, defs, meta),
        ROOT / "Sources" / "Cinematic" / "Generated" / "WireConstants.swift": swift(meta),
        ROOT / "Sources" / "Cinematic" / "Generated" / "FeatureWire.swift": swift_features(schema, defs, meta),
        package_path: pages.package_wire_files(package_path.read_text(), [
            str(path.relative_to(FEATURES_DIR)) for path in sorted(FEATURES_DIR.glob("*/*.wire.md"))]),
        header_path: splice(header_path.read_text(), header_block(meta)),
        pyproject_path: pyproject,
        ROOT / "bindings" / "python" / "cinematic" / "keymap.py": python_keymap(bindings),
        ROOT / "examples" / "web" / "static" / "keymap.js": javascript_keymap(bindings),
    }


def main(argv: List[str]) -> int:
    if argv[1:] == ["--version"]:
        print(load()[2]["version"])
        return 0
    check = argv[1:] == ["--check"]
    stale = []
    for path, text in outputs().items():
        current = path.read_text() if path.exists() else None
        if current == text:
            continue
        if check:
            stale.append(str(path.relative_to(ROOT)))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            print(f"wiregen: wrote {path.relative_to(ROOT)}")
    if check:
        for path in stale:
            print(f"wiregen: {path} is not what the wire files generate; run tools/wiregen.py")
        print(f"generated files check: {0 if stale else 1} passed, {1 if stale else 0} failed")
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
