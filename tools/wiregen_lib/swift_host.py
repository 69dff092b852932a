"""Swift: each feature's `Host` enum (Sources/CinematicFeatures/Generated/HostIntents.swift), each
codec's `StateKey` names and its arguments' reader, so no wire name is spelled by hand in Swift."""

from __future__ import annotations

import textwrap
from typing import Dict, List

from .schema import HEADER, Schema, intent_members, intent_variants, pascal, resolve
from .swift import snapshot_read, snapshot_swift_type, swift_feature, swift_value_type

SWIFT_KEYWORDS = {"default", "self", "Type", "protocol", "class", "struct", "enum", "case", "func", "in", "is", "as",
                  "let", "var", "return", "import", "init", "internal", "private", "public", "static", "where", "while"}


def doc_comment(text: str, indent: str) -> List[str]:
    return [f"{indent}/// {line}" for line in textwrap.wrap(text or "(no description in the wire file)", 100 - len(indent) - 4)]


def identifier(name: str) -> str:
    return f"`{name}`" if name in SWIFT_KEYWORDS else name


def swift_host_enums(meta: Schema, defs: Dict[str, Schema]) -> str:
    out = [HEADER.replace("/*", "//").replace(" */", ""), "", "import CinematicDomain"]
    for feature in meta["features"]:
        intent = f"{pascal(feature['name'])}Intent"
        out += ["", f"extension {intent} {{",
                f"    /// The intents a host may send to a `{feature['name']}` store, one case per wire `type`, its",
                "    /// members in the wire file's order (docs/wire.md lists them).",
                "    public enum Host: Equatable, Sendable {"]
        for wire, node in intent_variants(defs, feature["intent"]):
            members = intent_members(node)
            out += doc_comment(node.get("description", ""), "        ")
            types = ", ".join(swift_value_type(prop, defs) for _, prop in members)
            out.append(f"        case {identifier(wire)}" + (f"({types})" if members else ""))
        out += ["    }", "}"]
    return "\n".join(out) + "\n"


def swift_state_keys(feature: Schema, defs: Dict[str, Schema]) -> str:
    """The `StateKey` enum of a codec: each state member's wire name, as the codec's `stateMembers` uses it."""
    members = defs[feature["state"]].get("properties", {})
    lines = "\n".join(f'        static let {identifier(key)}: StaticString = "{key}"' for key in members)
    return f"""
    /// The state's member names on the wire (schema: {feature['state']}), for `stateMembers`.
    enum StateKey {{
{lines}
    }}
"""


def swift_arguments(feature: Schema, defs: Dict[str, Schema]) -> str:
    """A codec's `Arguments` and `decodeArguments`, when its store takes arguments (an object def)."""
    node = resolve(defs[feature["args"]], defs)
    props = node.get("properties", {})
    if not props:
        return ""
    required = set(node.get("required", []))
    fields = "\n".join(f"        var {identifier(key)}: {snapshot_swift_type(prop, defs)}{'' if key in required else '?'}"
                       for key, prop in props.items())
    allowed = ", ".join(f'"{key}"' for key in props)
    reads = ",\n".join(f"            {key}: {snapshot_read(key, prop, defs, key in required)}" for key, prop in props.items())
    shape = "{" + ", ".join(f'\\"{key}\\": …' for key in props if key in required) + "}"
    absent = (f'throw .invalid("the {feature["name"]} feature needs arguments {shape}", at: "$")' if required
              else "return Arguments(" + ", ".join(f"{key}: nil" for key in props) + ")")
    return f"""
    /// The arguments a store of this feature is opened with (schema: {feature['args']}).
    struct Arguments: Sendable, Equatable {{
{fields}
    }}

    /// Reads a store's arguments as the schema describes them (unknown members are refused).
    static func decodeArguments(_ arguments: JSONDocument?) throws(APIError) -> Arguments {{
        guard let arguments else {{ {absent} }}
        let data = try arguments.object("an arguments object")
        try data.rejectUnknownKeys(allowing: [{allowed}])
        return Arguments(
{reads})
    }}
"""


def with_state_keys(extension: str, feature: Schema, defs: Dict[str, Schema]) -> str:
    """A codec's generated extension with its `StateKey` enum and its arguments' reader added at the end."""
    end = extension.rstrip().rfind("}")
    return extension[:end] + swift_state_keys(feature, defs).lstrip("\n") + swift_arguments(feature, defs) + "}\n"


def swift_features(schema: Schema, defs: Dict[str, Schema], meta: Schema) -> str:
    codecs = ", ".join(f"{pascal(f['name'])}Codec.self" for f in meta["features"])
    body = "".join(with_state_keys(swift_feature(feature, defs), feature, defs) for feature in meta["features"])
    return f"""{HEADER.replace('/*', '//').replace(' */', '')}

import CJansson
import CinematicDomain
import CinematicFeatures

/// Every feature a host can open, in the schema's order: the one list the C API, the fuzz
/// target and the tests iterate.
enum GeneratedFeatures {{
    static let all: [any FeatureCodec.Type] = [{codecs}]
}}
{body}"""
