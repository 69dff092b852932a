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


def args_for(feature: str) -> Optional[Dict[str, Any]]:
    return {"movieId": 15249} if feature == "detail" else None


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


@pytest.mark.parametrize("feature", cinematic.wire.FEATURES)
def test_golden_initial_state(runtimes, feature):
    runtime = runtimes(HOST_CONFIG)
    with runtime.open_store(feature, args_for(feature)) as store:
        assert store.state == INITIAL[feature]
