"""Kotlin: bindings/kotlin/common/.../Features.kt, a typed store per feature (a send helper per
host intent, the state decoder, sample calls) and the feature list, built on Wire.kt's types."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from .schema import *  # noqa: F401,F403
from .kotlin import kt_read

# --------------------------------------------------------------------------------------
# Features.kt: one typed store per feature of x-cinematic.features. Each host intent (a
# member of the feature's intent union with a const "type") becomes a send helper named as
# its wire type, built from Wire.kt's data class (so no wire name is spelled by hand in
# Kotlin); the state decoder is the state type's fromJson; the feature list carries the
# sample args (the feature's "sampleArgs", else its args def's first "examples" entry) and
# one sample call per helper, which the Kotlin tests send to a real store.

def feature_sample_args(feature: Schema, defs: Dict[str, Schema]) -> Optional[Any]:
    """A feature's sample args: its "sampleArgs", else its args def's first example, else None
    (allowed only when the args may be null)."""
    if "sampleArgs" in feature:
        return feature["sampleArgs"]
    node = resolve(defs[feature["args"]], defs)
    if node.get("examples"):
        return node["examples"][0]
    kinds = node.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds):
        return None
    raise ValueError(f"feature {feature['name']}: its args {feature['args']} need an \"examples\" entry (or the feature a \"sampleArgs\")")


def kt_literal(value: Any, kind: str) -> str:
    """A Kotlin literal of [kind] for a sample JSON value."""
    base = kind.rstrip("?")
    if base == "String":
        return json.dumps(value)
    if base == "Long":
        return f"{int(value)}L"
    if base == "Int":
        return str(int(value))
    if base == "Double":
        return repr(float(value))
    if base == "Boolean":
        return "true" if value else "false"
    if isinstance(value, dict):
        # A wire object (an intent inside an intent): read from its JSON text.
        text = json.dumps(json.dumps(value, separators=(",", ":"))).replace("$", "\\$")
        return f"{base}.fromJson({text})"
    raise ValueError(f"no sample literal for {kind}")


def sample_value(prop: Schema, defs: Dict[str, Schema]) -> Any:
    """A value a property accepts: its first example, an enum's first value, or a zero."""
    node = resolve(prop, defs)
    if prop.get("examples"):
        return prop["examples"][0]
    if node.get("examples"):
        return node["examples"][0]
    if "enum" in node:
        return node["enum"][0]
    if "oneOf" in node:
        return sample_value(node["oneOf"][0], defs)
    if node.get("type") == "object":
        props = node.get("properties", {})
        return {key: (props[key]["const"] if "const" in props[key] else sample_value(props[key], defs)) for key in node.get("required", [])}
    if node.get("type") == "integer":   # zero, or the nearest value the member takes
        return min(max(0, node.get("minimum", 0)), node.get("maximum", 0 if node.get("minimum", 0) <= 0 else node["minimum"]))
    return {"string": "", "number": 0.0, "boolean": False}[node.get("type")]


def kt_params(node: Schema, owner: str, defs: Dict[str, Schema], skip: Tuple[str, ...] = ()) -> List[Tuple[str, str, bool, Schema]]:
    """(name, Kotlin type, required, schema) of an object's properties, const members and [skip] left out."""
    required = set(node.get("required", []))
    params = []
    for key, prop in node.get("properties", {}).items():
        if key in skip or "const" in prop:
            continue
        kind = kt_read("x", prop, owner, key, [], defs, {})[0]
        if key not in required and not kind.endswith("?"):
            kind += "?"
        params.append((key, kind, key in required, prop))
    return params


def kotlin_features(schema: Schema, defs: Dict[str, Schema], meta: Schema) -> str:
    out = [
        HEADER.replace("/*", "//").replace(" */", ""),
        "// One typed store per feature of x-cinematic.features: a send helper per host intent, named",
        "// as its wire type and built from Wire.kt's data class; the state decoder; the feature list.",
        "",
        "package cinematic",
        "",
    ]
    objects = []
    for feature in meta["features"]:
        name = feature["name"]
        cls = pascal(name)
        state = pascal(feature["state"])
        store, obj = f"{cls}Store", f"{cls}Feature"
        objects.append(obj)
        members = union_members(defs[feature["intent"]]) or []
        intents = [m for m in members if has_const(defs[m]) and discriminator(defs, m)[0] == "type"]
        if not intents:
            raise ValueError(f"feature {name}: its intent {feature['intent']} has no host intent with a const type")
        helpers, samples = [], []
        for intent in intents:
            wire = discriminator(defs, intent)[1]
            params = kt_params(defs[intent], pascal(intent), defs)
            signature = ", ".join(f"{key}: {kind}" + ("" if req else " = null") for key, kind, req, _ in params)
            args = ", ".join(f"{key} = {key}" for key, _, _, _ in params)
            example = {"type": wire, **{key: sample_value(prop, defs) for key, _, _, prop in params}}
            doc = defs[intent].get("description", f"The {wire} intent.")
            helpers += [
                "    /**",
                f"     * {doc}",
                f"     * Sends [{pascal(intent)}], e.g. `{json.dumps(example, separators=(',', ':'))}`; reduced when this returns.",
                "     *",
                "     * @throws CinematicException \"invalid\" for a value the library refuses; \"closed\".",
                "     */",
                f"    fun {wire}({signature}) = send({pascal(intent)}({args}).toJson())",
                "",
            ]
            call = ", ".join(kt_literal(sample_value(prop, defs), kind) for _, kind, _, prop in params)
            samples.append(f"        {json.dumps(wire)} to {{ store -> store.{wire}({call}) }}")
        args_node = resolve(defs[feature["args"]], defs)
        open_params = kt_params(args_node, pascal(feature["args"]), defs) if "properties" in args_node else []
        sample = feature_sample_args(feature, defs)
        sample_text = "null" if sample is None else json.dumps(json.dumps(sample, separators=(",", ":"))).replace("$", "\\$")
        out += [
            f"/**",
            f" * A store of the \"{name}\" feature, opened with [Runtime.open{cls}]: its state is a [{state}],",
            f" * and it has one send helper per host intent of [{pascal(feature['intent'])}], named as the intent's wire type.",
            f" */",
            f"class {store} internal constructor(runtime: Runtime, handle: Long) : Store<{state}>(runtime, handle, {obj}) {{",
        ] + helpers[:-1] + [
            "}",
            "",
            f"/** The \"{name}\" feature: its name, sample args, state decoder and typed store. */",
            f"object {obj} : Feature<{state}, {store}>({json.dumps(name)}, {sample_text}) {{",
            f"    /** Reads a \"{name}\" state ([{state}]) from its JSON. */",
            f"    override fun decodeState(json: String): {state} = {state}.fromJson(json)",
            "",
            f"    /** Reads a \"{name}\" state ([{state}]) from its parsed JSON (a state rebuilt from patches). */",
            f"    override fun decodeStateTree(tree: Map<String, Any?>): {state} = {state}.fromJson(tree)",
            "",
            f"    /** A \"{name}\" state as JSON-ready maps (write it with [Json.write]). */",
            f"    override fun encodeState(state: {state}): Map<String, Any?> = state.toJson()",
            "",
            f"    override fun wrap(runtime: Runtime, handle: Long): {store} = {store}(runtime, handle)",
            "",
            "    /** Every send helper, by wire type, called with sample values. */",
            f"    override val sampleCalls: List<Pair<String, ({store}) -> Unit>> = listOf(",
            ",\n".join(samples),
            "    )",
            "}",
            "",
        ]
        if open_params:
            signature = ", ".join(f"{key}: {kind}" + ("" if req else " = null") for key, kind, req, _ in open_params)
            args = ", ".join(f"{key} = {key}" for key, _, _, _ in open_params)
            out += [
                f"/**",
                f" * Opens a store of the \"{name}\" feature with its args ([{pascal(feature['args'])}]).",
                " *",
                " * @throws CinematicException \"invalid\" for args the library refuses; \"closed\".",
                " */",
                f"fun Runtime.open{cls}({signature}): {store} = open({obj}, Json.write({pascal(feature['args'])}({args}).toJson()))",
                "",
            ]
        else:
            out += [
                f"/**",
                f" * Opens a store of the \"{name}\" feature.",
                " *",
                " * @throws CinematicException \"closed\".",
                " */",
                f"fun Runtime.open{cls}(): {store} = open({obj}, null)",
                "",
            ]
    out += [
        "/** Every feature the schema declares, in order: iterate it to cover a new feature at once. */",
        "val ALL_FEATURES: List<Feature<*, *>> = listOf(" + ", ".join(objects) + ")",
    ]
    return "\n".join(out) + "\n"
