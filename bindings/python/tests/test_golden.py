"""The golden files every suite reads (schema/golden/): each host intent with the status it
must get, and each feature's initial state. The C and Kotlin suites read the same files."""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

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


@pytest.mark.parametrize("case", INTENTS, ids=lambda case: f"{case['feature']}-{json.dumps(case['intent'])[:40]}")
def test_golden_intent_gets_its_status(runtimes, case):
    runtime = runtimes(HOST_CONFIG)
    with runtime.open_store(case["feature"], args_for(case["feature"])) as store:
        if case["status"] == "ok":
            store.send(json.dumps(case["intent"]))
        else:
            with pytest.raises(cinematic.CinematicError) as raised:
                store.send(json.dumps(case["intent"]))
            assert raised.value.status_name == case["status"]


@pytest.mark.parametrize("feature", SAMPLE_ARGS)
def test_golden_initial_state(runtimes, feature):
    """The initial state is the golden one; a member that echoes the store's args (detail's
    ``movieId``) holds the args it was opened with."""
    runtime = runtimes(HOST_CONFIG)
    args = args_for(feature) or {}
    expected = {**INITIAL[feature], **{key: value for key, value in args.items() if key in INITIAL[feature]}}
    with runtime.open_store(feature, args_for(feature)) as store:
        assert store.state == expected
