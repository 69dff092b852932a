"""Swift and C: Sources/Cinematic/Generated, the header block."""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Tuple

from .schema import *  # noqa: F401,F403

# --------------------------------------------------------------------------------------
# Swift and C

def swift(meta: Schema) -> str:
    cases = "\n".join(f"    /// {s['doc']}\n    case {camel(s['name'])} = {s['value']}" for s in meta["statuses"])
    names = "\n".join(f'        case .{camel(s["name"])}: "{s["name"]}"' for s in meta["statuses"])
    return f"""{HEADER.replace('/*', '//').replace(' */', '')}

/// The library's version (CINEMATIC_VERSION in include/cinematic.h, `cinematic_version()`).
let libraryVersion: StaticString = "{meta['version']}"

/// The snapshot format this library writes (x-cinematic.snapshotFormat; docs/wire.md, "Snapshots").
let snapshotFormat = {meta['snapshotFormat']}

/// The statuses of the C API, as in include/cinematic.h. Values never change (the ABI only grows).
enum Status: Int32, Sendable, CaseIterable {{
{cases}

    /// The static name `cinematic_status_name` returns.
    var name: StaticString {{
        switch self {{
{names}
        }}
    }}
}}
"""


def camel(snake: str) -> str:
    head, *rest = snake.split("_")
    return head + "".join(part.capitalize() for part in rest)


def header_block(meta: Schema) -> str:
    major, minor, patch = meta["version"].split(".")
    lines = [
        "/* BEGIN GENERATED: version and statuses (tools/wiregen.py from schema/cinematic.schema.json) */",
        "/** The version this header describes. Compare with cinematic_version() at run time. */",
        f"#define CINEMATIC_VERSION_MAJOR {major}",
        f"#define CINEMATIC_VERSION_MINOR {minor}",
        f"#define CINEMATIC_VERSION_PATCH {patch}",
        f'#define CINEMATIC_VERSION "{meta["version"]}"',
        "/** MAJOR * 10000 + MINOR * 100 + PATCH, for compile-time comparisons. */",
        f"#define CINEMATIC_VERSION_NUMBER {version_number(meta['version'])}",
        "",
        "/** Statuses: every function returns one (as int). Values never change; new ones may be",
        " *  added. cinematic_status_name gives the name in parentheses. */",
        "typedef enum cinematic_status {",
    ]
    for i, status in enumerate(meta["statuses"]):
        comma = "," if i < len(meta["statuses"]) - 1 else ""
        lines.append(f"    CINEMATIC_{status['constant']} = {status['value']}{comma} /**< {status['doc']} (\"{status['name']}\") */")
    lines.append("} cinematic_status;")
    features = meta["features"]
    names = ", ".join(f'"{f["name"]}"' for f in features)
    samples = ", ".join("NULL" if f.get("sampleArgs") is None else json.dumps(json.dumps(f["sampleArgs"], separators=(",", ":")))
                        for f in features)
    lines += [
        "",
        "/** The features cinematic_store_open accepts, in the schema's order, as an initializer:",
        " *  `const char *names[] = CINEMATIC_FEATURE_NAMES;`. Each one's intents and state are in",
        " *  the wire files (docs/wire.md lists them). */",
        f"#define CINEMATIC_FEATURE_NAMES {{ {names} }}",
        "/** How many names CINEMATIC_FEATURE_NAMES holds. */",
        f"#define CINEMATIC_FEATURE_COUNT {len(features)}",
        "/** Arguments each feature's store can always be opened with, in CINEMATIC_FEATURE_NAMES order",
        " *  (NULL: the feature takes none), e.g. for a host's smoke test over every feature. */",
        f"#define CINEMATIC_FEATURE_SAMPLE_ARGUMENTS {{ {samples} }}",
        "/* END GENERATED */",
    ]
    return "\n".join(lines)


def splice(text: str, block: str) -> str:
    pattern = re.compile(r"/\* BEGIN GENERATED: version and statuses.*?/\* END GENERATED \*/", re.S)
    if not pattern.search(text):
        raise SystemExit("include/cinematic.h has no GENERATED markers")
    return pattern.sub(lambda _: block, text)


# --------------------------------------------------------------------------------------
# Swift: each feature's wire declaration (names, host intent decoder and encoder, catalog)
#
# Conventions the generated code relies on (docs/adding-a-feature.md):
#   - feature "watchlist" has a hand-written `WatchlistCodec` (its wire description) and a
#     reducer whose `WatchlistIntent.Host` has one case per host intent, named as the wire
#     `type`, with the intent's members (schema order, no labels) as associated values;
#   - a member is a string, an integer, a boolean or a $ref to a def with "x-swift-type"
#     (a type conforming to `WireValue`, e.g. DiscoverSection for "sectionId").

def swift_value_type(prop: Schema, defs: Dict[str, Schema]) -> str:
    if "$ref" in prop:
        target = defs[ref_name(prop["$ref"])]
        if "x-swift-type" not in target:
            raise SystemExit(f"wiregen: {prop['$ref']} has no \"x-swift-type\" (the Swift WireValue type of an intent member)")
        return target["x-swift-type"]
    kinds = {"string": "String", "integer": "Int", "boolean": "Bool"}
    if prop.get("type") not in kinds:
        raise SystemExit(f"wiregen: intent member type {prop.get('type')!r} has no Swift mapping; use a $ref with \"x-swift-type\"")
    return kinds[prop["type"]]


def swift_read(key: str, prop: Schema, defs: Dict[str, Schema]) -> str:
    value_type = swift_value_type(prop, defs)
    read = f'try {value_type}.read(intent.object.required("{key}"))'
    if value_type == "String" and "maxLength" in prop:
        return (f'try intent.object.required("{key}").text(maxCharacters: {prop["maxLength"]}, '
                f'maxBytes: {prop.get("x-maxBytes", 4 * prop["maxLength"])})')
    if value_type == "Int" and prop.get("format") != "int64" and ("minimum" in prop or "maximum" in prop):
        return (f'try intent.object.required("{key}").int(minimum: {prop.get("minimum", "Int.min")}, '
                f'maximum: {prop.get("maximum", "Int.max")})')
    return read


def snapshot_read(key: str, prop: Schema, defs: Dict[str, Schema], required: bool) -> str:
    """The Swift expression reading member `key` of a snapshot's data (`data`, a JSONObjectReader)."""
    if prop.get("type") == "array":
        item = swift_value_type(prop["items"], defs)
        reader = f'data.required("{key}")' if required else f'data.optional("{key}")'
        expr = f'{reader}.list(of: {item}.self, maxItems: {prop.get("maxItems", 1000)})'
        return f'try {expr}' if required else f'try {reader.replace("data.optional", "data.optional")}.map {{ member throws(APIError) in try member.list(of: {item}.self, maxItems: {prop.get("maxItems", 1000)}) }}'
    value_type = swift_value_type(prop, defs)
    def read(member: str) -> str:
        if value_type == "String" and "maxLength" in prop:
            return f'{member}.text(maxCharacters: {prop["maxLength"]}, maxBytes: {prop.get("x-maxBytes", 4 * prop["maxLength"])})'
        if value_type == "Int" and ("minimum" in prop or "maximum" in prop):
            return f'{member}.int(minimum: {prop.get("minimum", "Int.min")}, maximum: {prop.get("maximum", "Int.max")})'
        return f'{value_type}.read({member})'
    if required:
        return f'try {read(f"data.required({chr(34)}{key}{chr(34)})")}'
    return f'try data.optional("{key}").map {{ member throws(APIError) in try {read("member")} }}'


def snapshot_swift_type(prop: Schema, defs: Dict[str, Schema]) -> str:
    if prop.get("type") == "array":
        return f"[{swift_value_type(prop['items'], defs)}]"
    return swift_value_type(prop, defs)


def swift_snapshot(feature: Schema, defs: Dict[str, Schema]) -> str:
    """A feature's snapshot declaration: its data (a def of the schema, or the store's arguments) and the
    host intents a restored store sends itself."""
    name = feature["name"]
    intent = f"{pascal(name)}Intent"
    hosts = {wire: node for wire, node in intent_variants(defs, feature["intent"])}
    restore = feature.get("restore", [])
    for wire in restore:
        if wire not in hosts or intent_members(hosts[wire]):
            raise SystemExit(f"wiregen: feature {name}: restore intent {wire!r} must be a host intent without members")
    restore_list = ", ".join(f".{wire}" for wire in restore)
    common = f"""    /// The host intents a store restored from a snapshot sends itself, in order, once it is open.
    static var restoreIntents: [{intent}.Host] {{ [{restore_list}] }}
"""
    if "snapshot" not in feature:
        return f"""
    /// This feature declares no snapshot: a snapshot's data is the arguments the store was
    /// opened with, and a restore opens a store from them (docs/wire.md, "Snapshots").
    typealias Snapshot = ArgumentsSnapshot

{common}"""
    def_name = feature["snapshot"]
    node = defs[def_name]
    props = node.get("properties", {})
    required = set(node.get("required", []))
    fields = "\n".join(f"        var {key}: {snapshot_swift_type(prop, defs)}{'' if key in required else '?'}" for key, prop in props.items())
    allowed = ", ".join(f'"{key}"' for key in props)
    reads = ",\n".join(f"            {key}: {snapshot_read(key, prop, defs, key in required)}" for key, prop in props.items())
    def encode(key: str, prop: Schema) -> str:
        value = f"snapshot.{key}"
        if prop.get("type") == "array":
            return f'["{key}": JSONBuilder.array({value}) {{ $0.wireNode }}]' if key in required else ""
        return f'["{key}": {value}.wireNode]'
    sets = "\n".join(
        (f'        JSONBuilder.set(object, "{key}", JSONBuilder.array(snapshot.{key}) {{ $0.wireNode }})' if prop.get("type") == "array"
         else f'        JSONBuilder.set(object, "{key}", snapshot.{key}.wireNode)') if key in required else
        (f'        if let value = snapshot.{key} {{ JSONBuilder.set(object, "{key}", JSONBuilder.array(value) {{ $0.wireNode }}) }}' if prop.get("type") == "array"
         else f'        if let value = snapshot.{key} {{ JSONBuilder.set(object, "{key}", value.wireNode) }}')
        for key, prop in props.items())
    return f"""
    /// What a snapshot of this feature holds (schema: {def_name}).
    struct Snapshot: Sendable, Equatable {{
{fields}
    }}

{common}
    /// Reads a snapshot's data as the schema describes it (unknown members are refused).
    static func decodeSnapshot(_ data: JSONObjectReader) throws(APIError) -> Snapshot {{
        try data.rejectUnknownKeys(allowing: [{allowed}])
        return Snapshot(
{reads})
    }}

    /// A snapshot's data as JSON.
    static func encodeSnapshot(_ snapshot: Snapshot) -> JSONFragment {{
        let object = JSONBuilder.object()
{sets}
        return JSONFragment(consuming: object)
    }}
"""


def swift_feature(feature: Schema, defs: Dict[str, Schema]) -> str:
    name = feature["name"]
    codec, intent = f"{pascal(name)}Codec", f"{pascal(name)}Intent"
    variants = intent_variants(defs, feature["intent"])
    sample = feature.get("sampleArgs")
    sample_text = "nil" if sample is None else "#\"" + json.dumps(sample, separators=(",", ":")) + "\"#"
    decode, encode = [], []
    for wire, node in variants:
        members = intent_members(node)
        decode.append(f"        case .{wire}:")
        if members:
            allowed = ", ".join(f'"{key}"' for key in ["type"] + [key for key, _ in members])
            decode.append(f"            try intent.object.rejectUnknownKeys(allowing: [{allowed}])")
            args = ", ".join(swift_read(key, prop, defs) for key, prop in members)
            decode.append(f"            return .{wire}({args})")
            binds = ", ".join(key for key, _ in members)
            pairs = ", ".join(f'"{key}": {key}.wireNode' for key, _ in members)
            encode.append(f"        case let .{wire}({binds}): .host(HostKind.{wire}.rawValue, [{pairs}])")
        else:
            decode.append("            try intent.requireNoMembers()")
            decode.append(f"            return .{wire}")
            encode.append(f"        case .{wire}: .host(HostKind.{wire}.rawValue)")
    hosts = ", ".join(wire for wire, _ in variants)
    internals = ", ".join(feature["internalIntents"])
    if internals:
        internal_kind = f"""    /// The wire `type` of each internal intent (an effect's result, never sent by a host).
    enum InternalKind: String, CaseIterable, Sendable {{
        case {internals}
    }}
"""
    else:
        internal_kind = """    /// The feature has no internal intents (no effect feeds one back).
    typealias InternalKind = NoInternalIntents
"""
    return f"""
/// The `{name}` feature on the wire (schema: {feature['intent']}, {feature['state']}).
extension {codec} {{
    /// The name `cinematic_store_open` takes.
    static var name: String {{ "{name}" }}
    /// Arguments a store of this feature can always be opened with (nil: none).
    static var sampleArguments: String? {{ {sample_text} }}

    /// The wire `type` of each host intent.
    enum HostKind: String, CaseIterable, Sendable {{
        case {hosts}
    }}

{internal_kind}
    /// Decodes the members of a host intent of `kind` as the schema describes them.
    func decodeHost(_ kind: HostKind, _ intent: IntentReader) throws(APIError) -> {intent}.Host {{
        switch kind {{
{chr(10).join(decode)}
        }}
    }}

    /// A host intent as a host sends it.
    static func encodeHost(_ intent: {intent}.Host) -> EncodedIntent {{
        switch intent {{
{chr(10).join(encode)}
        }}
    }}
{swift_snapshot(feature, defs)}}}
"""
