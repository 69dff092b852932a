"""Python: what features.py's helpers are made of: each feature's host intents, the helper and
parameter names (snake case, the reserved and deprecated names), parameter annotations and the
sample values the tests send. Used by python_features.py."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from .schema import *  # noqa: F401,F403

# --------------------------------------------------------------------------------------
# Python: the names and values of features.py's intent helpers

#: Helper names the binding used before they were generated from the wire names:
#: (feature, wire type) -> old Python name. Each old name stays as a deprecated alias that
#: warns and calls the generated helper. Add nothing here: new helpers are named by the wire.
DEPRECATED_HELPERS: Dict[Tuple[str, str], str] = {
    ("search", "submitted"): "submit",
    ("favorites", "removed"): "remove",
    ("detail", "favoriteToggled"): "toggle_favorite",
}

#: Names a generated helper may not take: the Store methods and attributes it would shadow.
RESERVED = {
    "close", "closed", "feature", "runtime", "send", "send_raw", "state", "state_json",
    "typed_state", "pending_effects", "history", "revert", "settle", "subscribe",
    "subscriber_count", "states", "wait_for", "FEATURE", "INTENTS",
}


def snake(name: str) -> str:
    """``queryChanged`` -> ``query_changed``; ``movieId`` -> ``movie_id``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def param_type(node: Schema, defs: Dict[str, Schema]) -> str:
    """The annotation of a helper parameter (wire types are named through ``wire.``)."""
    if "$ref" in node:
        return "wire." + pascal(ref_name(node["$ref"]))
    if "const" in node:
        return f"Literal[{json.dumps(node['const'])}]"
    if "enum" in node:
        return "Literal[" + ", ".join(json.dumps(value) for value in node["enum"]) + "]"
    options = node.get("oneOf") or node.get("anyOf")
    if options:
        rest = [option for option in options if not is_null(option)]
        inner = [param_type(option, defs) for option in rest]
        text = inner[0] if len(inner) == 1 else "Union[" + ", ".join(inner) + "]"
        return f"Optional[{text}]" if len(rest) < len(options) else text
    kind = node.get("type")
    if isinstance(kind, list):
        others = [k for k in kind if k != "null"]
        text = param_type({**node, "type": others[0]}, defs)
        return f"Optional[{text}]" if "null" in kind else text
    if kind == "array":
        return f"List[{param_type(node['items'], defs)}]"
    return {"integer": "int", "number": "float", "string": "str", "boolean": "bool",
            "null": "None"}.get(kind, "Any")


def sample_value(node: Schema, defs: Dict[str, Schema]) -> Any:
    """A small valid value of ``node`` (its first example when the schema gives one)."""
    node = resolve(node, defs)
    if node.get("examples"):
        return node["examples"][0]
    if "const" in node:
        return node["const"]
    if "enum" in node:
        return node["enum"][0]
    options = node.get("oneOf") or node.get("anyOf")
    if options:
        return sample_value(options[0], defs)
    kind = node.get("type")
    if isinstance(kind, list):
        kind = [k for k in kind if k != "null"][0]
    if kind == "integer" or kind == "number":
        low, high = node.get("minimum", 1), node.get("maximum", 1)
        return min(max(1, low), high)
    if kind == "string":
        return "x" * node.get("minLength", 0)
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object":
        props = node.get("properties", {})
        return {key: sample_value(props[key], defs) for key in node.get("required", [])}
    return None


def sample_args(feature: Schema, defs: Dict[str, Schema]) -> Optional[Schema]:
    """Args to open ``feature`` with in tests: the feature's ``sampleArgs`` (the same ones Swift
    and the header's CINEMATIC_FEATURE_SAMPLE_ARGUMENTS use), else None for a feature without
    arguments."""
    if "sampleArgs" in feature:
        return feature["sampleArgs"]
    node = resolve(defs[feature["args"]], defs)
    if node.get("examples"):
        return node["examples"][0]
    if not node.get("properties"):
        return None
    value = sample_value(node, defs)
    return value if isinstance(value, dict) else None


def host_intents(feature: Schema, defs: Dict[str, Schema]) -> List[Tuple[str, str]]:
    """(def name, wire type) of each host intent of ``feature``, in schema order."""
    members = union_members(defs[feature["intent"]])
    if members is None:
        raise ValueError(f"{feature['intent']} is not a oneOf of $refs")
    out = []
    for member in members:
        key, value = discriminator(defs, member)
        if key != "type":
            raise ValueError(f"{member}: host intents are told apart by 'type', not {key!r}")
        out.append((member, value))
    return out
