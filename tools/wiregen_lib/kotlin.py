"""Kotlin: bindings/kotlin/common/.../Wire.kt."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from .schema import *  # noqa: F401,F403

# --------------------------------------------------------------------------------------
# Kotlin (1.3: no sealed interfaces, so unions are plain interfaces). Loading phases map to
# the hand-written generic Phase<T> (common/Phase.kt); integers are Int unless the schema
# says "format": "int64" (ids, votes, budgets), then Long.

def phase_value(defs: Dict[str, Schema], name: str) -> Optional[Schema]:
    """For a loading-phase union, the schema of its loaded value; None for anything else."""
    members = union_members(defs[name]) or []
    if not members or not all(has_const(defs[m]) and discriminator(defs, m)[0] == "phase" for m in members):
        return None
    # Only the plain shapes ({phase}, {phase, value[, source, cachedAt]}, {phase, error}) are Phase<T>.
    if not all(set(defs[m]["properties"]) <= {"phase", "value", "error", "source", "cachedAt"} for m in members):
        return None
    for member in members:
        if discriminator(defs, member)[1] == "loaded":
            return defs[member]["properties"]["value"]
    return None


def kt_read(expr: str, node: Schema, owner: str, key: str, classes: List[str], defs: Dict[str, Schema],
            unions: Dict[str, List[str]]) -> Tuple[str, str, Optional[str]]:
    """(Kotlin type, expression reading it from the Any? `expr`, default value or None)."""
    if "$ref" in node:
        target = ref_name(node["$ref"])
        value = phase_value(defs, target)
        if value is not None:
            inner, read, _ = kt_read("v", value, owner, key, classes, defs, unions)
            return f"Phase<{inner}>", f"Phase.fromJson({expr}) {{ v -> {read} }}", "Phase.Idle"
        target_node = defs[target]
        if "enum" in target_node or target_node.get("type") == "string":
            return "String", f"({expr} as String)", None
        return pascal(target), f"{pascal(target)}.fromJson({expr})", None
    if "const" in node and isinstance(node["const"], int) and not isinstance(node["const"], bool):
        return "Long", f"(({expr}) as Number).toLong()", f"{node['const']}L"
    if "const" in node:
        return "String", f"({expr} as String)", json.dumps(node["const"])
    if "enum" in node:
        return "String", f"({expr} as String)", None
    options = node.get("oneOf") or node.get("anyOf")
    if options:
        nullable = any(is_null(option) for option in options)
        rest = [option for option in options if not is_null(option)]
        if len(rest) == 1:
            kind, read, default = kt_read("it", rest[0], owner, key, classes, defs, unions)
            if nullable:
                return kind + "?", f"{expr}?.let {{ {read} }}", "null"
            return kind, kt_read(expr, rest[0], owner, key, classes, defs, unions)[1], default
        return ("Any?", expr, "null") if nullable else ("Any", expr + "!!", None)
    kind = node.get("type")
    if kind is None or (isinstance(kind, list) and len([k for k in kind if k != "null"]) > 1):
        # Any JSON value (no type, or several: patchOperation.value) reads as Json.parse gives it.
        return "Any?", expr, "null"
    if isinstance(kind, list):
        nullable = "null" in kind
        others = [k for k in kind if k != "null"]
        inner, read, default = kt_read("it", {**node, "type": others[0]}, owner, key, classes, defs, unions)
        return (inner + "?", f"{expr}?.let {{ {read} }}", "null") if nullable else (inner, read, default)
    if kind == "object":
        if "properties" not in node:
            return "Map<String, Any?>", f"(({expr} as Map<*, *>).entries.associate {{ it.key as String to it.value }})", "emptyMap()"
        name = pascal(owner) + pascal(key)
        classes.append(kt_class(name, node, defs, classes, unions))
        return name, f"{name}.fromJson({expr})", None
    if kind == "array":
        inner, read, _ = kt_read("it", node["items"], owner, key + "Item", classes, defs, unions)
        return f"List<{inner}>", f"({expr} as List<*>).map {{ {read} }}", "emptyList()"
    if kind == "integer" and node.get("format") == "int64":
        return "Long", f"({expr} as Number).toLong()", "0"
    return {
        "integer": ("Int", f"({expr} as Number).toInt()", "0"),
        "number": ("Double", f"({expr} as Number).toDouble()", "0.0"),
        "string": ("String", f"({expr} as String)", None),
        "boolean": ("Boolean", f"({expr} as Boolean)", "false"),
    }[kind]


def kt_write(value: str, kind: str) -> str:
    base = kind.rstrip("?")
    safe = "?" if kind.endswith("?") else ""
    if base in ("Int", "Long", "Double", "String", "Boolean", "Any", "Map<String, Any?>"):
        return value
    if base.startswith("Phase<"):
        return f"{value}{safe}.toJson {{ v -> {kt_write('v', base[6:-1])} }}"
    if base.startswith("List<"):
        inner = base[5:-1]
        if inner in ("Int", "Long", "Double", "String", "Boolean"):
            return value
        return f"{value}{safe}.map {{ {kt_write('it', inner)} }}"
    return f"{value}{safe}.toJson()"


def kt_class(name: str, node: Schema, defs: Dict[str, Schema], classes: List[str], unions: Dict[str, List[str]]) -> str:
    required = set(node.get("required", []))
    fields = []
    for key, prop in node["properties"].items():
        kind, read, default = kt_read(f'map["{key}"]', prop, name, key, classes, defs, unions)
        if key not in required and not kind.endswith("?"):
            inner = kt_read("it", prop, name, key, [], defs, unions)[1]
            read = f'map["{key}"]' if kind == "Any" else f'map["{key}"]?.let {{ {inner} }}'
            kind += "?"
            default = "null"
        fields.append((key, kind, read, default))
    supers = unions.get(name[0].lower() + name[1:], [])
    doc = node.get("description") or f"The wire object {name}."
    lines = [f"/** {doc} */"]
    params = ", ".join(f"val {key}: {kind}" + (f" = {default}" if default is not None else "") for key, kind, _, default in fields)
    header = f"data class {name}({params})"
    if supers:
        header += " : " + ", ".join(pascal(s) for s in supers)
    lines.append(header + " {")
    lines.append("    /** This value as JSON-ready maps and lists (write it with [Json.write]). */")
    # Optional members are written only when set (a library refuses `"member": null`).
    present = ", ".join(f'"{key}" to {kt_write(key, kind)}' for key, kind, _, _ in fields if key in required)
    # Behind `if (key != null)` the member is smart-cast: written as the non-null type.
    optional = "; ".join(f'if ({key} != null) put("{key}", {kt_write(key, kind.rstrip("?"))})' for key, kind, _, _ in fields if key not in required)
    body = f"linkedMapOf<String, Any?>({present})" + (f".apply {{ {optional} }}" if optional else "")
    lines.append(f"    {'override ' if supers else ''}fun toJson(): Map<String, Any?> = {body}")
    lines.append("")
    lines.append("    companion object {")
    lines.append(f"        /** Reads a {name} from JSON text or from [Json.parse]'s result. */")
    lines.append("        fun fromJson(value: Any?): " + name + " {")
    lines.append("            val map = (if (value is String) Json.parse(value) else value) as Map<*, *>")
    lines.append(f"            return {name}(" + ", ".join(f"{key} = {read}" for key, _, read, _ in fields) + ")")
    lines.append("        }")
    lines.append("    }")
    lines.append("}")
    return "\n".join(lines)


def kt_map_class(name: str, node: Schema) -> str:
    """A wire object whose members are keys to values of one type (`additionalProperties`: a
    $ref), kept in the order the library wrote them."""
    value = pascal(ref_name(node["additionalProperties"]["$ref"]))
    doc = node.get("description") or f"The wire map {name}."
    return "\n".join([
        f"/** {doc} */",
        f"data class {name}(",
        "    /** Each value by its key, in the order the library wrote them. */",
        f"    val byKey: Map<String, {value}> = emptyMap()",
        ") {",
        f"    /** The value of [key], or null. */",
        f"    operator fun get(key: String): {value}? = byKey[key]",
        "",
        "    /** This value as JSON-ready maps and lists (write it with [Json.write]). */",
        "    fun toJson(): Map<String, Any?> = LinkedHashMap<String, Any?>().apply { byKey.forEach { (key, value) -> put(key, value.toJson()) } }",
        "",
        "    companion object {",
        f"        /** Reads a {name} from JSON text or from [Json.parse]'s result. */",
        f"        fun fromJson(value: Any?): {name} {{",
        "            val map = (if (value is String) Json.parse(value) else value) as Map<*, *>",
        f"            return {name}(map.entries.associate {{ (it.key as String) to {value}.fromJson(it.value) }})",
        "        }",
        "    }",
        "}",
    ])


def kotlin(schema: Schema, defs: Dict[str, Schema], meta: Schema) -> str:
    unions: Dict[str, List[str]] = {}
    for name, node in defs.items():
        if phase_value(defs, name) is None:
            for member in union_members(node) or []:
                unions.setdefault(member, []).append(name)
    out = [
        HEADER.replace("/*", "//").replace(" */", ""),
        "// The wire format as Kotlin types, shared by the JVM and Native bindings (one source set).",
        "@file:Suppress(\"UNCHECKED_CAST\")",
        "",
        "package cinematic",
        "",
        "/** The library version this binding was generated for, and its number. */",
        "object WireVersion {",
        f"    const val VERSION = {json.dumps(meta['version'])}",
        f"    const val NUMBER = {version_number(meta['version'])}",
        "}",
        "",
        "/** The statuses of the C API (`cinematic_status_name` gives the same names). */",
        "object Status {",
    ]
    for status in meta["statuses"]:
        out.append(f"    /** {status['doc']} (\"{status['name']}\") */")
        out.append(f"    const val {status['constant'].replace('ERR_', '', 1)} = {status['value']}")
    out.append("    /** Every status name by value. */")
    out.append("    val names: Map<Int, String> = mapOf(" + ", ".join(f"{s['value']} to {json.dumps(s['name'])}" for s in meta["statuses"]) + ")")
    out.append("}")
    out.append("")
    out.append("/** Every feature name, in order. */")
    out.append("val FEATURES: List<String> = listOf(" + ", ".join(json.dumps(f["name"]) for f in meta["features"]) + ")")
    blocks: List[str] = []
    for name, node in defs.items():
        classes: List[str] = []
        members = union_members(node)
        if phase_value(defs, name) is not None:
            continue  # loading phases are Phase<T>
        if "enum" in node:
            text = f"/** The values of {name}. */\nobject {pascal(name)} {{\n    /** Every value, in order. */\n    val values: List<String> = listOf(" + ", ".join(json.dumps(v) for v in node["enum"]) + ")\n}"
        elif members is not None:
            doc = node.get("description") or f"One of {', '.join(pascal(m) for m in members)}."
            lines = [f"/** {doc} */", f"interface {pascal(name)} {{",
                     "    /** This value as JSON-ready maps and lists (write it with [Json.write]). */",
                     "    fun toJson(): Map<String, Any?>", "", "    companion object {",
                     "        /** Reads whichever variant [value] (JSON text or a parsed map) is. */",
                     f"        fun fromJson(value: Any?): {pascal(name)} {{",
                     "            val map = (if (value is String) Json.parse(value) else value) as Map<*, *>"]
            tags = [discriminator(defs, m) for m in members] if all(has_const(defs[m]) for m in members) else []
            keys = {key for key, _ in tags}
            if tags and len(keys) == 1 and len({value for _, value in tags}) == len(members):
                key = keys.pop()
                lines.append(f'            return when (map["{key}"]) {{')
                for member in members:
                    lines.append(f'                {json.dumps(discriminator(defs, member)[1])} -> {pascal(member)}.fromJson(map)')
                lines.append(f'                else -> throw IllegalArgumentException("unknown {key}: ${{map["{key}"]}}")')
                lines.append("            }")
            else:
                for member in members:
                    tag = defs[member]["required"][0]
                    lines.append(f'            if (map.containsKey("{tag}")) return {pascal(member)}.fromJson(map)')
                lines.append('            throw IllegalArgumentException("no variant matches ${map.keys}")')
            lines += ["        }", "    }", "}"]
            text = "\n".join(lines)
        elif "$ref" in node:
            text = f"/** {node.get('description', 'An alias.')} */\ntypealias {pascal(name)} = {pascal(ref_name(node['$ref']))}"
        elif node.get("type") in ("object", ["object", "null"]) and "properties" in node:
            text = kt_class(pascal(name), node, defs, classes, unions)
        elif node.get("type") == ["object", "null"]:
            text = f"/** {node.get('description', '')} */\ntypealias {pascal(name)} = Map<String, Any?>"
        elif node.get("type") == "object" and isinstance(node.get("additionalProperties"), dict) and "$ref" in node["additionalProperties"]:
            text = kt_map_class(pascal(name), node)
        else:
            continue  # plain strings are read as String
        blocks.extend(classes)
        blocks.append(text)
    return "\n".join(out) + "\n\n" + "\n\n".join(blocks) + "\n"


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
    node = defs[feature["args"]]
    while "$ref" in node:
        node = defs[ref_name(node["$ref"])]
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
    node = prop
    while "$ref" in node:
        node = defs[ref_name(node["$ref"])]
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
    return {"string": "", "integer": 0, "number": 0.0, "boolean": False}[node.get("type")]


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
        args_node = defs[feature["args"]]
        while "$ref" in args_node:
            args_node = defs[ref_name(args_node["$ref"])]
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
