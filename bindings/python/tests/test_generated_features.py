"""The generated per-feature stores (cinematic/features.py, from the schema): one class per
feature, one helper per host intent named after its wire type, and each helper's intent is
accepted by a real store of the library. No wire name is spelled by hand anywhere else in
the package or the terminal app."""

from __future__ import annotations

import ast
import inspect
import json
import re
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest

import cinematic
import cinematic.features

from conftest import HOST_CONFIG, REPO

SCHEMA: Dict[str, Any] = json.loads((REPO / "schema" / "cinematic.schema.json").read_text())
DEFS: Dict[str, Any] = SCHEMA["$defs"]
SCHEMA_FEATURES: List[Dict[str, Any]] = SCHEMA["x-cinematic"]["features"]


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def host_intents(feature: Dict[str, Any]) -> List[Tuple[str, Dict[str, Any]]]:
    """(wire type, definition) of each host intent of a schema feature, read from the schema."""
    out = []
    for option in DEFS[feature["intent"]]["oneOf"]:
        definition = DEFS[option["$ref"].split("/")[-1]]
        out.append((definition["properties"]["type"]["const"], definition))
    return out


def sample(node: Dict[str, Any]) -> Any:
    """A valid value for an intent member (an id the scripted catalog knows nothing about is
    fine); for an intent inside an intent (the app's ``{"type": "search", "intent": ...}``),
    the first intent it may be, with its members."""
    while "$ref" in node:
        node = DEFS[node["$ref"].split("/")[-1]]
    if "oneOf" in node:
        return sample(node["oneOf"][0])
    if "enum" in node:
        return node["enum"][0]
    if "const" in node:
        return node["const"]
    if node.get("type") == "object":
        return {key: sample(member) for key, member in node["properties"].items()}
    if node.get("type") == "integer":   # a film's id, within the member's range
        return min(max(15249, node.get("minimum", 15249)), node.get("maximum", 15249))
    return {"string": "dune", "boolean": True}[node["type"]]


CASES = [(feature, wire_type, definition) for feature in SCHEMA_FEATURES for wire_type, definition in host_intents(feature)]


def test_the_generated_feature_list_is_the_schemas():
    assert [f.name for f in cinematic.FEATURES] == [f["name"] for f in SCHEMA_FEATURES]
    assert list(cinematic.wire.FEATURES) == [f["name"] for f in SCHEMA_FEATURES]
    for generated, declared in zip(cinematic.FEATURES, SCHEMA_FEATURES):
        assert generated.intents == tuple(w for w, _ in host_intents(declared))
        assert generated.internal_intents == tuple(declared["internalIntents"])
        assert generated.store_class.FEATURE == generated.name


@pytest.mark.parametrize("feature", [f.name for f in cinematic.FEATURES])
def test_every_opener_and_open_store_return_the_generated_class(runtimes, feature):
    runtime = runtimes(HOST_CONFIG)
    generated = cinematic.features.STORE_CLASSES[feature]
    info = next(f for f in cinematic.FEATURES if f.name == feature)
    with runtime.open_store(feature, info.sample_args) as store:
        assert type(store) is generated
    opener = getattr(runtime, snake(feature))
    parameters = list(inspect.signature(opener).parameters)
    if parameters == ["args"]:   # arguments that are all optional (the app's): the whole object, or none
        with opener(None) as store:
            assert type(store) is generated
        return
    with opener(*[(info.sample_args or {})[key] for key in (info.sample_args or {})]) as store:
        assert type(store) is generated
        assert [snake(key) for key in (info.sample_args or {})] == parameters


@pytest.mark.parametrize("feature,wire_type,definition", CASES, ids=[f"{c[0]['name']}-{c[1]}" for c in CASES])
def test_each_helper_sends_its_wire_intent_and_a_real_store_accepts_it(runtimes, feature, wire_type, definition):
    runtime = runtimes(HOST_CONFIG)
    info = next(f for f in cinematic.FEATURES if f.name == feature["name"])
    with runtime.open_store(info.name, info.sample_args) as store:
        helper = getattr(store, snake(wire_type))
        members = {key: sample(node) for key, node in definition["properties"].items() if key != "type"}
        assert list(inspect.signature(helper).parameters) == [snake(key) for key in members]
        sent: List[Any] = []
        send = store.send

        def recording_send(intent: Any) -> None:
            sent.append(intent)
            send(intent)  # the real library: an intent it does not accept raises here

        store.send = recording_send  # type: ignore[method-assign]
        helper(**{snake(key): value for key, value in members.items()})
        assert sent == [{"type": wire_type, **members}]


@pytest.mark.parametrize("feature", cinematic.FEATURES, ids=lambda f: f.name)
def test_internal_intents_are_refused_from_a_host(runtimes, feature):
    """The generated list of internal intents is what the library refuses (so it names real
    intents, and a host cannot send them)."""
    runtime = runtimes(HOST_CONFIG)
    with runtime.open_store(feature.name, feature.sample_args) as store:
        for internal in feature.internal_intents:
            with pytest.raises(cinematic.InvalidError):
                store.send({"type": internal})
            assert not hasattr(store, snake(internal)) or snake(internal) in map(snake, feature.intents)


def test_no_helper_shadows_a_store_member():
    for feature in cinematic.FEATURES:
        for wire_type in feature.intents:
            assert snake(wire_type) not in vars(cinematic.Store), (feature.name, wire_type)


@pytest.mark.parametrize("old,new,args", [
    ("submit", "submitted", ()), ("remove", "removed", (15249,)), ("toggle_favorite", "favorite_toggled", ()),
])
def test_the_old_helper_names_warn_and_send_the_same_intent(runtimes, old, new, args):
    runtime = runtimes(HOST_CONFIG)
    store_class = next(f.store_class for f in cinematic.FEATURES if hasattr(f.store_class, old))
    info = next(f for f in cinematic.FEATURES if f.store_class is store_class)
    with runtime.open_store(info.name, info.sample_args) as store:
        sent: List[Any] = []
        store.send = sent.append  # type: ignore[method-assign,assignment]
        with pytest.warns(DeprecationWarning, match=f"use {new}"):
            getattr(store, old)(*args)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            getattr(store, new)(*args)
        assert sent[0] == sent[1]


# ----------------------------------------------------------------------------------------
# No wire name spelled by hand: an intent is built only in the generated module.

PACKAGE = REPO / "bindings" / "python" / "cinematic"
GENERATED = {PACKAGE / "wire.py", PACKAGE / "_wire_types.py", PACKAGE / "features.py", PACKAGE / "keymap.py"}
HAND_WRITTEN = sorted(p for p in [*PACKAGE.glob("*.py"), *(REPO / "examples" / "python" / "cinematic_tui").glob("*.py")]
                      if p not in GENERATED)


def hand_built_intents(path: Path) -> List[str]:
    """Dict literals with a constant ``"type"`` member (an intent spelled by hand), and calls
    of ``send`` with a literal mapping or JSON text (not bytes: sockets send too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == "type" and isinstance(value, ast.Constant):
                    found.append(f"{path.name}:{node.lineno}: {{'type': {value.value!r}}}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "send" \
                and node.args and (isinstance(node.args[0], (ast.Dict, ast.JoinedStr))
                                   or isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.append(f"{path.name}:{node.lineno}: send(literal)")
    return found


def test_no_hand_written_module_builds_an_intent():
    assert HAND_WRITTEN, "no files scanned"
    found = [hit for path in HAND_WRITTEN for hit in hand_built_intents(path)]
    assert not found, "intents spelled by hand (use the generated helpers):\n" + "\n".join(found)


def test_the_intent_scan_finds_a_hand_built_intent(tmp_path):
    sample_file = tmp_path / "sample.py"
    sample_file.write_text('store.send({"type": "sumbitted"})\nintent = {"type": "loadMore"}\n'
                           'store.send(\'{"type": "task"}\')\nsock.send(b"\\0")\n')
    assert len(hand_built_intents(sample_file)) == 4
