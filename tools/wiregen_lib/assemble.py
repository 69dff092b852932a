"""The schema, assembled from the pieces people write: the core, schema/core/*.json (wire.json:
the schema's head, statuses, version and the values features share; then snapshots, config,
the provider and debugging, one file each), and one wire file per feature,
`Sources/CinematicFeatures/<Name>/<name>.wire.md` (docs/adding-a-feature.md), which a large
feature may continue in parts, `<name>.<part>.wire.md` in the same folder (their keys merged
into the wire file's, their prose appended to its own).

A wire file is Markdown: its prose is the feature's section of docs/wire.md, and its one
```json wire``` block declares the feature:

    args            a core def's name, or the arguments' def (default: "noArgs", none)
    sampleArgs      arguments a store can always be opened with (when args are required)
    intents         host intents by wire `type`: each the intent's def (its `type` member, `required`,
                    `additionalProperties` and an int64 member's bounds are filled in when left out;
                    members with `examples` make golden lines) or a `$ref` to a core def
    internalIntents the wire types of the effects' results (never sent by a host)
    state           the state's def (`required`: every member unless given; `default`s make the
                    golden initial state unless `initialState` is given)
    snapshot        the snapshot data's def, when the store keeps more than its arguments
    restore         host intents a restored store sends itself
    $defs           the feature's other defs
    golden          golden intent lines beyond the generated ones ({"status", "why", "path", "intent"}:
                    a refusal says why and the member it names, as the error envelope's `path`)
    initialState    the state a new store shows (default: the state members' defaults)

Names are the feature's own: a def named as another feature's, a core def or a feature gets the
feature's name in front in the schema (`removed` in watchlist becomes `watchlistRemoved`); a
`$ref` names a `$defs` entry of the same file (or `args`, `intent`, `state`, `snapshot`) first,
then a core or another feature's def by its schema name.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

from .prose import declared_names, misnamed
from .schema import ROOT, pascal

Schema = Dict[str, Any]
CORE_DIR = ROOT / "schema" / "core"
FEATURES_DIR = ROOT / "Sources" / "CinematicFeatures"
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
WIRE_BLOCK = re.compile(r"^```json wire\n(.*?)^```\n?", re.S | re.M)


class WireError(SystemExit):
    """A wire file that cannot be assembled (the message names the file and what is wrong)."""


def shown(path: Path) -> str:
    """A path as messages show it: from the repository's root when it is inside."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def read_core() -> Schema:
    """The core: schema/core/wire.json (head, x-cinematic, shared defs) with every other
    schema/core/*.json's `$defs` added, in name order (a def declared twice is an error)."""
    core = json.loads((CORE_DIR / "wire.json").read_text())
    for path in sorted(CORE_DIR.glob("*.json")):
        if path.name == "wire.json":
            continue
        defs = json.loads(path.read_text()).get("$defs", {})
        twice = sorted(set(defs) & set(core["$defs"]))
        if twice:
            raise WireError(f"{shown(path)}: {twice} are declared in another core file too")
        core["$defs"].update(defs)
    return core


def wire_files() -> List[Path]:
    """Every feature's wire file: the core's `featureOrder` first, in that order, then the rest by name."""
    order = json.loads((CORE_DIR / "wire.json").read_text())["x-cinematic"].get("featureOrder", [])
    found = {path.name[: -len(".wire.md")]: path for path in FEATURES_DIR.glob("*/*.wire.md") if path.name.count(".") == 2}
    return [found[name] for name in order if name in found] + [found[name] for name in sorted(set(found) - set(order))]


def read_feature(path: Path) -> Tuple[str, Schema, str]:
    """A feature's wire file with its parts (`<name>.<part>.wire.md` beside it) merged in."""
    name, declaration, prose = read_wire_file(path, required=("intents", "state"))
    for part in sorted(path.parent.glob(f"{name}.*.wire.md")):
        _, more, more_prose = read_wire_file(part, required=())
        for key, value in more.items():
            if isinstance(value, dict) and isinstance(declaration.get(key, {}), dict) and not set(value) & set(declaration.get(key, {})):
                declaration[key] = {**declaration.get(key, {}), **value}
            elif isinstance(value, list) and isinstance(declaration.get(key, []), list):
                declaration[key] = declaration.get(key, []) + value
            else:
                raise WireError(f"{shown(part)}: {key!r} is declared in {path.name} too")
        prose = prose.rstrip() + "\n\n" + more_prose if more_prose.strip() else prose
    return name, declaration, prose


def read_wire_file(path: Path, required: Tuple[str, ...]) -> Tuple[str, Schema, str]:
    """(feature name, declaration, prose) of a wire file (or of a part of one)."""
    text = path.read_text()
    blocks = WIRE_BLOCK.findall(text)
    if len(blocks) != 1:
        raise WireError(f"{shown(path)}: needs exactly one ```json wire``` block (found {len(blocks)})")
    try:
        declaration = json.loads(blocks[0])
    except ValueError as error:
        raise WireError(f"{shown(path)}: the wire block is not JSON: {error}")
    name = path.name.split(".")[0]
    if not re.fullmatch(r"[a-z][A-Za-z0-9]*", name) or path.parent.name != pascal(name):
        raise WireError(f"{shown(path)}: a feature `name` lives in Sources/CinematicFeatures/<Name>/<name>.wire.md")
    known = {"args", "sampleArgs", "intents", "internalIntents", "state", "snapshot", "restore", "$defs", "golden", "initialState"}
    unknown = sorted(set(declaration) - known)
    if unknown:
        raise WireError(f"{shown(path)}: unknown key(s) {unknown} (known: {sorted(known)})")
    for key in required:
        if key not in declaration:
            raise WireError(f"{shown(path)}: the wire block has no {key!r}")
    return name, declaration, WIRE_BLOCK.sub("", text).strip() + "\n"


def object_def(node: Schema, where: str, type_const: str | None = None) -> Schema:
    """An object def with what the wire file may leave out filled in: `type`, the intent's
    `type` member, `required` (every member) and `additionalProperties: false`."""
    node = dict(node)
    properties = dict(node.get("properties", {}))
    if type_const is not None:
        given = properties.get("type", {}).get("const", type_const)
        if given != type_const:
            raise WireError(f"{where}: its `type` member says {given!r}, its key {type_const!r}")
        properties = {"type": {"const": type_const}, **{k: v for k, v in properties.items() if k != "type"}}
    node.setdefault("type", "object")
    for key, prop in properties.items():
        if prop.get("type") == "integer" and prop.get("format") == "int64":
            properties[key] = {**prop, "minimum": prop.get("minimum", INT64_MIN), "maximum": prop.get("maximum", INT64_MAX)}
    node["properties"] = properties
    missing = [key for key in node.get("required", []) if key not in properties]
    if missing:
        raise WireError(f"{where}: `required` names {missing}, which are not among its members {list(properties)}")
    node.setdefault("required", list(properties))
    node.setdefault("additionalProperties", False)
    ordered = {key: node[key] for key in ("description", "type", "properties", "required", "additionalProperties") if key in node}
    return {**ordered, **{key: value for key, value in node.items() if key not in ordered}}


def rewrite_refs(node: Any, names: Dict[str, str], known: set, where: str) -> Any:
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref":
                target = value.split("/")[-1]
                if not value.startswith("#/$defs/") or (target not in names and target not in known):
                    raise WireError(f"{where}: $ref {value!r} names no def of this file, the core or a feature")
                out[key] = f"#/$defs/{names.get(target, target)}"
            else:
                out[key] = rewrite_refs(value, names, known, where)
        return out
    if isinstance(node, list):
        return [rewrite_refs(value, names, known, where) for value in node]
    return node


def assign_names(features: List[Tuple[str, Schema, str]], core: Dict[str, Schema]) -> Dict[str, Dict[str, Dict[str, str]]]:
    """Each feature's local def names → schema names: intents by wire type (under "intents"),
    `$defs` by key (under "$defs")."""
    taken = set(core) | {name for name, _, _ in features}
    for name, _, _ in features:
        taken |= {f"{name}{suffix}" for suffix in ("Args", "Intent", "State", "Snapshot")}
    assigned: Dict[str, Dict[str, Dict[str, str]]] = {}
    for name, declaration, _ in features:
        names: Dict[str, Dict[str, str]] = {"intents": {}, "$defs": {}}
        local = [("intents", key, body) for key, body in declaration["intents"].items() if "$ref" not in body]
        local += [("$defs", key, body) for key, body in declaration.get("$defs", {}).items()]
        for kind, key, body in local:
            wanted = body.get("x-defName", key)
            schema_name = wanted if wanted not in taken else f"{name}{pascal(wanted)}"
            if schema_name in taken:
                raise WireError(f"feature {name}: def {key!r} cannot be named ({schema_name!r} is taken)")
            taken.add(schema_name)
            names[kind][key] = schema_name
        assigned[name] = names
    return assigned


def golden_lines(name: str, declaration: Schema, defs: Dict[str, Schema], union: List[str]) -> List[Schema]:
    """The wire file's golden lines, then the ones its declaration implies: each host intent whose
    members all have `examples` (and each member missing, or of the wrong type), each internal
    intent refused as internal, an unknown type refused as unknown."""
    lines = [{"feature": name, **line} for line in declaration.get("golden", [])]
    for line in lines:
        refused = line.get("status") != "ok"
        if refused != isinstance(line.get("path"), str) or refused != isinstance(line.get("why"), str):
            raise WireError(f"{name}.wire.md: golden line {json.dumps(line['intent'])[:80]}: a refusal gives its \"why\" "
                            "and the \"path\" of the member its error names (\"$.query\"), an accepted line neither")
    seen = [line["intent"] for line in lines]
    def add(status: str, why: str | None, intent: Any, path: str | None = None) -> None:
        if intent not in seen:
            seen.append(intent)
            lines.append({"feature": name, "status": status, **({"why": why, "path": path} if why else {}), "intent": intent})
    for def_name in union:
        node = defs[def_name]
        wire = node["properties"]["type"]["const"]
        members = {key: prop for key, prop in node["properties"].items() if key != "type"}
        if not all(prop.get("examples") for prop in members.values()):
            continue
        add("ok", None, {"type": wire, **{key: prop["examples"][0] for key, prop in members.items()}})
        for key, prop in members.items():
            others = {other: p["examples"][0] for other, p in members.items() if other != key}
            if key in node.get("required", []):
                add("invalid", "member", {"type": wire, **others}, f"$.{key}")
            add("invalid", "member", {"type": wire, **others, key: {} if prop.get("type") == "array" else []}, f"$.{key}")
    for internal in declaration.get("internalIntents", []):
        add("invalid", "internalType", {"type": internal}, "$.type")
    add("invalid", "unknownType", {"type": f"{name}NoSuchIntent"}, "$.type")
    return lines


def initial_state(name: str, declaration: Schema, state: Schema) -> Schema:
    if "initialState" in declaration:
        return declaration["initialState"]
    missing = [key for key, prop in state["properties"].items() if "default" not in prop]
    if missing:
        raise WireError(f"feature {name}: state members {missing} have no `default` (or give `initialState`)")
    return {key: prop["default"] for key, prop in state["properties"].items()}


@functools.lru_cache(maxsize=None)
def assembled() -> Tuple[Schema, List[Schema], Dict[str, Schema], Dict[str, str]]:
    """`assemble()`, once per process (the generators share one schema)."""
    return assemble()


def assemble() -> Tuple[Schema, List[Schema], Dict[str, Schema], Dict[str, str]]:
    """(the schema, its golden intent lines, the golden initial states, each feature's prose)."""
    core_doc = read_core()
    core = core_doc["$defs"]
    features = [read_feature(path) for path in wire_files()]
    assigned = assign_names(features, core)
    known = set(core) | {n for names in assigned.values() for kind in names.values() for n in kind.values()}
    known |= {f"{name}{suffix}" for name, _, _ in features for suffix in ("Args", "Intent", "State", "Snapshot")}
    defs: Dict[str, Schema] = dict(copy.deepcopy(core))
    entries, golden, states, prose = [], [], {}, {}
    for name, declaration, text in features:
        where = f"{name}.wire.md"
        intent_names = assigned[name]["intents"]
        names = {**assigned[name]["$defs"], "args": f"{name}Args", "intent": f"{name}Intent", "state": f"{name}State", "snapshot": f"{name}Snapshot"}
        local = lambda node: rewrite_refs(node, names, known, where)  # noqa: E731
        args = declaration.get("args", "noArgs")
        defs[f"{name}Args"] = {"$ref": f"#/$defs/{args}"} if isinstance(args, str) else local(args)
        if isinstance(args, str) and args not in core:
            raise WireError(f"{where}: args {args!r} is no core def")
        union = []
        for wire, body in declaration["intents"].items():
            if "$ref" in body:
                target = rewrite_refs(body, names, known, where)["$ref"].split("/")[-1]
                if defs.get(target, {}).get("properties", {}).get("type", {}).get("const") != wire:
                    raise WireError(f"{where}: intent {wire!r} refers to {target!r}, whose type is not {wire!r}")
                union.append(target)
            else:
                node = {k: v for k, v in body.items() if k != "x-defName"}
                defs[intent_names[wire]] = local(object_def(node, f"{where}: intent {wire!r}", type_const=wire))
                union.append(intent_names[wire])
        defs[f"{name}Intent"] = {"oneOf": [{"$ref": f"#/$defs/{target}"} for target in union]}
        defs[f"{name}State"] = local(object_def(declaration["state"], f"{where}: state"))
        for key, body in declaration.get("$defs", {}).items():
            defs[names[key]] = local({k: v for k, v in body.items() if k != "x-defName"})
        entry: Schema = {"name": name, "args": f"{name}Args", "intent": f"{name}Intent", "state": f"{name}State",
                         "internalIntents": declaration.get("internalIntents", [])}
        if "snapshot" in declaration:
            defs[f"{name}Snapshot"] = local(object_def(declaration["snapshot"], f"{where}: snapshot"))
            entry["snapshot"] = f"{name}Snapshot"
        for key in ("sampleArgs", "restore"):
            if key in declaration:
                entry[key] = declaration[key]
        entries.append(entry)
        golden += golden_lines(name, declaration, defs, union)
        states[name] = initial_state(name, declaration, defs[f"{name}State"])
        prose[name] = text
    meta = {key: value for key, value in core_doc["x-cinematic"].items() if key != "featureOrder"}
    meta["features"] = entries
    snapshot = defs["storeSnapshot"]
    def data_ref(entry: Schema) -> str:
        """A snapshot's data: the feature's snapshot def, else its arguments' (a plain $ref followed)."""
        return f"#/$defs/{entry['snapshot']}" if "snapshot" in entry else defs[entry["args"]].get("$ref", f"#/$defs/{entry['args']}")
    snapshot["allOf"] = [{"if": {"properties": {"feature": {"const": e["name"]}}}, "then": {"properties": {"data": {"$ref": data_ref(e)}}}}
                         for e in entries]
    head = {key: value for key, value in core_doc.items() if key not in ("$defs", "x-cinematic")}
    schema = {**head, "x-cinematic": meta, "$defs": defs}
    known_names = declared_names(schema)
    problems = [problem for path in wire_files() for part in [path, *sorted(path.parent.glob(f"{path.name.split('.')[0]}.*.wire.md"))]
                for problem in misnamed(part, known_names)]
    if problems:
        raise WireError("the prose names what the wire does not declare (a misspelling?):\n  " + "\n  ".join(problems))
    return schema, golden, states, prose
