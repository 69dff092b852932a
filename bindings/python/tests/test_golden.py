"""The golden files every suite reads (schema/golden/): each host intent with the status it
must get, and each feature's initial state. The C and Kotlin suites read the same files."""

from __future__ import annotations

import json
import re
from typing import Any, Dict, List, Optional, Set

import pytest

import cinematic

from conftest import HOST_CONFIG, REPO

GOLDEN = REPO / "schema" / "golden"
INTENTS: List[Dict[str, Any]] = [json.loads(line) for line in (GOLDEN / "intents.jsonl").read_text().splitlines() if line]
INITIAL: Dict[str, Any] = json.loads((GOLDEN / "initial-states.json").read_text())


#: The generated feature list (cinematic.features, from the schema): no hand-kept names.
SAMPLE_ARGS: Dict[str, Optional[Dict[str, Any]]] = {f.name: f.sample_args for f in cinematic.FEATURES}


def args_for(feature: str) -> Optional[Dict[str, Any]]:
    return SAMPLE_ARGS[feature]


def test_every_golden_feature_is_generated_and_every_generated_feature_has_goldens():
    assert set(INITIAL) == set(SAMPLE_ARGS)
    assert {case["feature"] for case in INTENTS} == set(SAMPLE_ARGS)


#: Why a golden line is invalid ("why"), and the words the library's message then holds: a
#: misspelled type on a line refused for a member is refused as an unknown type, and fails; a
#: misspelled member on a line refused for a member's value is refused as an unknown member.
WHY = {"unknownType": 'unknown intent "', "internalType": "is an internal effect result",
       "missingType": 'missing required member "type"', "notAnObject": "expected an intent object",
       "unknownMember": 'unknown member "'}
SCHEMA: Dict[str, Any] = json.loads((REPO / "schema" / "cinematic.schema.json").read_text())


def declared_members(feature: str, wire_type: str) -> Set[str]:
    """The members the feature's host intent `wire_type` declares (the schema's, generated from its wire file)."""
    defs = SCHEMA["$defs"]
    entry = next(f for f in SCHEMA["x-cinematic"]["features"] if f["name"] == feature)
    for option in defs[entry["intent"]]["oneOf"]:
        node = defs[option["$ref"].split("/")[-1]]
        if node["properties"]["type"].get("const") == wire_type:
            return set(node["properties"]) - {"type"}
    return set()


def why_of(message: str, feature: str = "", wire_type: str = "") -> str:
    """The "why" a refusal's message says: one of WHY, else "member" when the message's path
    names a member the intent declares (a missing member or a wrong value), else "?"."""
    found = next((why for why, words in WHY.items() if words in message), None)
    if found:
        return found
    path = re.search(r"\(at \$\.(\w+)", message)
    return "member" if path and (not feature or path.group(1) in declared_members(feature, wire_type)) else "?"


@pytest.mark.parametrize("case", INTENTS, ids=lambda case: f"{case['feature']}-{json.dumps(case['intent'])[:40]}")
def test_golden_intent_gets_its_status(runtimes, case):
    runtime = runtimes(HOST_CONFIG)
    with runtime.open_store(case["feature"], args_for(case["feature"])) as store:
        if case["status"] == "ok":
            assert "why" not in case
            store.send(json.dumps(case["intent"]))
        else:
            with pytest.raises(cinematic.CinematicError) as raised:
                store.send(json.dumps(case["intent"]))
            assert raised.value.status_name == case["status"]
            assert case.get("why") in (*WHY, "member"), "an invalid golden line says why: " + " | ".join((*WHY, "member"))
            wire_type = case["intent"].get("type", "") if isinstance(case["intent"], dict) else ""
            assert why_of(str(raised.value), case["feature"], wire_type) == case["why"], str(raised.value)
            # ...and the member it is about: the envelope's path is the line's.
            assert (raised.value.details or {}).get("path") == case["path"], str(raised.value)


def test_a_misspelled_type_on_a_line_refused_for_a_member_fails(runtimes):
    case = next(case for case in INTENTS if case.get("why") == "member" and case["feature"] == "search")
    misspelled = {**case["intent"], "type": case["intent"]["type"] + "x"}
    with runtimes(HOST_CONFIG).open_store("search") as store:
        with pytest.raises(cinematic.CinematicError) as raised:
            store.send(json.dumps(misspelled))
    assert raised.value.status_name == case["status"] and why_of(str(raised.value)) != case["why"]


@pytest.mark.parametrize("feature", SAMPLE_ARGS)
def test_golden_initial_state(runtimes, feature):
    """The initial state is the golden one; a member that echoes the store's args (detail's
    ``movieId``) holds the args it was opened with."""
    runtime = runtimes(HOST_CONFIG)
    args = args_for(feature) or {}
    expected = {**INITIAL[feature], **{key: value for key, value in args.items() if key in INITIAL[feature]}}
    with runtime.open_store(feature, args_for(feature)) as store:
        assert store.state == expected
