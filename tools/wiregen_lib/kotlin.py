"""Kotlin: bindings/kotlin/common/.../Wire.kt, the wire format as Kotlin types (data classes,
unions, statuses, version). The typed stores of Features.kt are kotlin_features.py."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from .schema import *  # noqa: F401,F403

# --------------------------------------------------------------------------------------
# Kotlin 1.3 (Debian's kotlinc): a union whose members belong to it alone is a sealed class
# (an exhaustive `when` needs no `else`); one sharing members with another union (a feature's
# intents and the app's) stays an interface, since sealed interfaces need Kotlin 1.5. A string
# const member (an intent's `type`, a `phase`, an `op`) is fixed by its class: a property,
# not a constructor parameter. Loading phases map to the hand-written generic Phase<T>
# (common/Phase.kt); integers are Int unless the schema says "format": "int64" (ids, votes,
# budgets), then Long.

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


def is_sealed(union: str, defs: Dict[str, Schema], unions: Dict[str, List[str]]) -> bool:
    """True when [union] can be a sealed class: each member is a wire object of its own and in
    no other union (a class extends one class; sealed interfaces need Kotlin 1.5)."""
    members = union_members(defs[union]) or []
    return bool(members) and all(unions.get(m) == [union] and "properties" in defs[m] for m in members)


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
    fixed = {key: prop["const"] for key, prop in node["properties"].items()
             if isinstance(prop.get("const"), str) and key in required}
    free = [field for field in fields if field[0] not in fixed]
    params = ", ".join(f"val {key}: {kind}" + (f" = {default}" if default is not None else "") for key, kind, _, default in free)
    # A data class needs a constructor parameter: one with none is a class equal to its like.
    header = f"data class {name}({params})" if free else f"class {name}"
    if supers:
        header += " : " + ", ".join(pascal(s) + ("()" if is_sealed(s, defs, unions) else "") for s in supers)
    lines.append(header + " {")
    for key, value in fixed.items():
        lines.append(f"    /** The wire `{key}`, fixed by the class: {json.dumps(value)}. */")
        lines.append(f"    val {key}: String get() = {json.dumps(value)}")
        lines.append("")
    lines.append("    /** This value as JSON-ready maps and lists (write it with [Json.write]). */")
    # Optional members are written only when set (a library refuses `"member": null`).
    present = ", ".join(f'"{key}" to {kt_write(key, kind)}' for key, kind, _, _ in fields if key in required)
    # Behind `if (key != null)` the member is smart-cast: written as the non-null type.
    optional = "; ".join(f'if ({key} != null) put("{key}", {kt_write(key, kind.rstrip("?"))})' for key, kind, _, _ in fields if key not in required)
    body = f"linkedMapOf<String, Any?>({present})" + (f".apply {{ {optional} }}" if optional else "")
    lines.append(f"    {'override ' if supers else ''}fun toJson(): Map<String, Any?> = {body}")
    if not free:
        lines.append("")
        lines.append(f"    override fun equals(other: Any?): Boolean = other is {name}")
        lines.append(f"    override fun hashCode(): Int = {json.dumps(name)}.hashCode()")
        lines.append(f'    override fun toString(): String = "{name}()"')
    lines.append("")
    lines.append("    companion object {")
    lines.append(f"        /** Reads a {name} from JSON text or from [Json.parse]'s result. */")
    lines.append("        fun fromJson(value: Any?): " + name + " {")
    lines.append("            val map = (if (value is String) Json.parse(value) else value) as Map<*, *>")
    for key, value in fixed.items():
        lines.append(f'            require(map["{key}"] == {json.dumps(value)}) {{ "{name}: {key} ${{map["{key}"]}} is not {value}" }}')
    lines.append(f"            return {name}(" + ", ".join(f"{key} = {read}" for key, _, read, _ in free) + ")")
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
            sealed = is_sealed(name, defs, unions)
            lines = [f"/** {doc} */", f"sealed class {pascal(name)} {{" if sealed else f"interface {pascal(name)} {{",
                     "    /** This value as JSON-ready maps and lists (write it with [Json.write]). */",
                     f"    {'abstract ' if sealed else ''}fun toJson(): Map<String, Any?>", "", "    companion object {",
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
