"""What the wire files make besides code: the golden files, docs/wire.md's feature sections and
the binding READMEs' feature tables (each README's block between GENERATED markers)."""

from __future__ import annotations

import json
import re
from typing import Dict, List, Tuple

from .python_intents import snake
from .schema import Schema, intent_members, intent_variants, pascal, resolve

FEATURES_BEGIN = "<!-- BEGIN GENERATED: features (tools/wiregen.py from each feature's wire file) -->"
FEATURES_END = "<!-- END GENERATED: features -->"


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def golden_intents(lines: List[Schema]) -> str:
    return "".join(compact(line) + "\n" for line in lines)


def golden_states(states: Dict[str, Schema]) -> str:
    return "{\n" + ",\n".join(f"  {json.dumps(name)}: {compact(state)}" for name, state in states.items()) + "\n}\n"


def splice_block(text: str, block: str, path: str) -> str:
    """`text` with the part between the features markers replaced by `block`."""
    pattern = re.compile(re.escape(FEATURES_BEGIN) + r".*?" + re.escape(FEATURES_END), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{path} has no {FEATURES_BEGIN} … {FEATURES_END} markers")
    return pattern.sub(lambda _: f"{FEATURES_BEGIN}\n{block.strip()}\n{FEATURES_END}", text)


def host_intents(feature: Schema, defs: Dict[str, Schema]) -> List[Tuple[str, List[str], str]]:
    """(wire type, member names, description) of each host intent of a feature."""
    return [(wire, [key for key, _ in intent_members(node)], node.get("description", ""))
            for wire, node in intent_variants(defs, feature["intent"])]


def open_members(feature: Schema, defs: Dict[str, Schema]) -> Tuple[List[str], List[str]]:
    """(required, optional) argument members of a feature's store."""
    node = resolve(defs[feature["args"]], defs)
    props = list(node.get("properties", {}))
    required = node.get("required", [])
    return [p for p in props if p in required], [p for p in props if p not in required]


def python_opener(feature: Schema, defs: Dict[str, Schema]) -> str:
    required, optional = open_members(feature, defs)
    return f"runtime.{snake(feature['name'])}({', '.join([snake(p) for p in required] + (['args'] if optional else []))})"


def kotlin_opener(feature: Schema, defs: Dict[str, Schema]) -> str:
    required, optional = open_members(feature, defs)
    return f"runtime.open{pascal(feature['name'])}({', '.join(required + optional)})"


def intent_example(wire: str, members: List[str]) -> str:
    return "{" + ", ".join([f'"type": "{wire}"'] + [f'"{m}": …' for m in members]) + "}"


def wire_doc_sections(meta: Schema, defs: Dict[str, Schema], prose: Dict[str, str]) -> str:
    """docs/wire.md's `### <feature>` sections: each wire file's prose, its intents, its internal intents."""
    out = []
    for feature in meta["features"]:
        name = feature["name"]
        out += [f"### {name}", "", f"_Declared in `Sources/CinematicFeatures/{pascal(name)}/{name}.wire.md`._", "",
                prose[name].strip(), "",
                "| Intent (C: `cinematic_store_send`) | Python | Kotlin | Meaning |", "|---|---|---|---|"]
        for wire, members, description in host_intents(feature, defs):
            py = f"`{snake(wire)}({', '.join(snake(m) for m in members)})`"
            kt = f"`{wire}({', '.join(members)})`"
            out.append(f"| `{intent_example(wire, members)}` | {py} | {kt} | {description.replace('|', '/')} |")
        internal = feature["internalIntents"]
        out += ["", "Internal intents (effects' results, seen in the history and recordings): "
                + (", ".join(f"`{i}`" for i in internal) if internal else "none") + ".", ""]
    out += ["### Every feature in every host", "",
            "| Feature | C | Python | Kotlin | State |", "|---|---|---|---|---|"]
    for feature in meta["features"]:
        name = feature["name"]
        out.append(f'| {name} | `cinematic_store_open(rt, "{name}", …)` | `{python_opener(feature, defs)}` | '
                   f"`{kotlin_opener(feature, defs)}` | `{pascal(feature['state'])}` |")
    return "\n".join(out) + "\n"


def python_readme_table(meta: Schema, defs: Dict[str, Schema]) -> str:
    out = ["| Feature (opener) | Store class, state | Helper | Wire intent |", "|---|---|---|---|"]
    for feature in meta["features"]:
        name = feature["name"]
        first = f"`{name}` (`{python_opener(feature, defs)}`) | `{pascal(name)}Store`, `wire.{pascal(feature['state'])}`"
        for i, (wire, members, _) in enumerate(host_intents(feature, defs)):
            helper = f"`{snake(wire)}({', '.join(snake(m) for m in members)})`"
            out.append(f"| {first if i == 0 else '|'} | {helper} | `{intent_example(wire, members)}` |")
    return "\n".join(out)


def kotlin_readme_table(meta: Schema, defs: Dict[str, Schema], wire_types: List[str]) -> str:
    """The Kotlin README's feature table, then every top-level declaration of Wire.kt
    (``wire_types``), so a feature's new types are named without a hand edit."""
    out = ["| Feature | Open (Kotlin) | Store, `Feature` | Intent helpers (Kotlin) | Python | State (`store.state`) |",
           "|---|---|---|---|---|---|"]
    for feature in meta["features"]:
        name = feature["name"]
        intents = host_intents(feature, defs)
        kotlin = ", ".join(f"`{wire}({', '.join(members)})`" for wire, members, _ in intents)
        python = ", ".join(f"`{snake(wire)}({', '.join(snake(m) for m in members)})`" for wire, members, _ in intents)
        out.append(f"| {name} | `{kotlin_opener(feature, defs)}` | `{pascal(name)}Store`, `{pascal(name)}Feature` | "
                   f"{kotlin} | {python} | `{pascal(feature['state'])}` |")
    out += ["", "Declared in `Wire.kt` (generated from the schema; fields as docs/wire.md describes them): "
            + ", ".join(f"`{name}`" for name in wire_types) + "."]
    return "\n".join(out)


def package_wire_files(text: str, paths: List[str]) -> str:
    """Package.swift with its `wireFiles` list (the CinematicFeatures target's excludes) made `paths`."""
    pattern = re.compile(r"(    // BEGIN GENERATED: wire files \(tools/wiregen.py\)\n).*?(    // END GENERATED\n)", re.S)
    if not pattern.search(text):
        raise SystemExit("Package.swift has no wire files GENERATED markers")
    return pattern.sub(lambda m: m.group(1) + "".join(f'    "{path}",\n' for path in paths) + m.group(2), text)
