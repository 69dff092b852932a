"""Schema-driven property tests: random valid and invalid intents and args, generated from
schema/cinematic.schema.json (hypothesis-jsonschema), driven in random sequences over all
the stores of one runtime (one per feature of the schema, opened with random valid args). The library never crashes, every valid intent is accepted, every
invalid one gets `invalid`, and every state it emits validates (the conftest checks each).

A short pass runs in `make test`; `make fuzz` runs a long one (HYPOTHESIS_PROFILE=long).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis_jsonschema import from_schema

import cinematic

from conftest import REPO

SCHEMA: Dict[str, Any] = json.loads((REPO / "schema" / "cinematic.schema.json").read_text())
FEATURES: List[Dict[str, Any]] = SCHEMA["x-cinematic"]["features"]

settings.register_profile("short", max_examples=40, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.register_profile("long", max_examples=3000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "short"))


def of(definition: str) -> st.SearchStrategy[Any]:
    """Values valid against `#/$defs/<definition>`."""
    return from_schema({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{definition}"})


VALID = {f["name"]: of(f["intent"]) for f in FEATURES}


def broken(intent: Dict[str, Any], how: int) -> Dict[str, Any]:
    """A valid intent made invalid: an unknown member, a missing member, a member of the
    wrong type, or an unknown type."""
    broken_intent = dict(intent)
    members = [key for key in broken_intent if key != "type"]
    if how == 0:
        broken_intent["unexpectedMember"] = 1
    elif how == 1 and members:
        del broken_intent[members[0]]
    elif how == 2 and members:
        broken_intent[members[0]] = [] if not isinstance(broken_intent[members[0]], list) else "x"
    else:
        broken_intent["type"] = str(broken_intent.get("type", "")) + "Unknown"
    return broken_intent


def answer(request: Dict[str, Any]) -> Dict[str, Any]:
    """A provider that always answers, with movies shaped by the request."""
    if request["op"] == "movie":
        return {"movie": {"id": request["id"], "title": f"Movie {request['id']}", "budget": None,
                          "ratingDistribution": [10.0] * 10}}
    return {"movies": [{"id": i, "title": f"{request.get('query', request.get('section'))} {i}"} for i in range(3)]}


Step = Tuple[str, str, Any]  # (feature, "valid" | "invalid" | "advance", intent or ms)


def assert_patched_state_converges(store: Any, timeout: float = 5.0) -> None:
    """The state rebuilt from every patch delivered equals ``cinematic_store_state`` once
    the store's deliveries caught up."""
    deadline = time.monotonic() + timeout
    while store.delivered_state != store.state:
        if time.monotonic() > deadline:
            raise AssertionError(f"{store.feature}: patched {str(store.delivered_state)[:300]} != state {str(store.state)[:300]}")
        time.sleep(0.002)


@st.composite
def steps(draw: Callable[..., Any]) -> List[Step]:
    out: List[Step] = []
    for _ in range(draw(st.integers(1, 12))):
        feature = draw(st.sampled_from([f["name"] for f in FEATURES]))
        kind = draw(st.sampled_from(["valid", "valid", "invalid", "advance"]))
        if kind == "advance":
            out.append((feature, kind, draw(st.integers(0, 1000))))
        elif kind == "valid":
            out.append((feature, kind, draw(VALID[feature])))
        else:
            out.append((feature, kind, broken(draw(VALID[feature]), draw(st.integers(0, 3)))))
    return out


#: Where an app opened with a state file keeps it (the schema's random paths are relative:
#: they would land in the directory the tests run in).
SCRATCH = Path(tempfile.mkdtemp(prefix="cinematic-wire-properties-"))


def contained(feature: str, args: Any) -> Any:
    """``args`` with an app's state file in SCRATCH."""
    if feature == "app" and isinstance(args, dict) and "stateFile" in args:
        return {**args, "stateFile": str(SCRATCH / "app-state.json")}
    return args


@given(sequence=steps(), args=st.fixed_dictionaries({f["name"]: of(f["args"]) for f in FEATURES}))
def test_random_sequences_over_all_stores(runtimes, sequence: List[Step], args: Dict[str, Any]) -> None:
    runtime = runtimes({"clock": "manual", "catalog": "host", "offlineCache": {"path": ":memory:"}})
    runtime.set_provider(lambda request_id, request: answer(request))
    stores = {f["name"]: runtime.open_store(f["name"], contained(f["name"], args[f["name"]])) for f in FEATURES}
    for store in stores.values():  # observed in patch mode (the runtime's default)
        store.subscribe(lambda state: None)
    for feature, kind, value in sequence:
        store = stores[feature]
        if kind == "advance":
            runtime.advance_clock(value)
        elif kind == "valid":
            store.send(json.dumps(value))
        else:
            try:
                store.send(json.dumps(value))
            except cinematic.InvalidError:
                pass
            else:
                raise AssertionError(f"{feature} accepted the invalid intent {value}")
        for each in stores.values():
            assert isinstance(each.state, dict)  # read back, and validated by the conftest
            # The state rebuilt from the patches delivered so far is the store's state once
            # its deliveries caught up (the provider answers on the library's threads).
            assert_patched_state_converges(each)
    runtime.close()


@given(config=of("runtimeConfig"))
def test_random_valid_configs_open_or_fail_with_io(runtimes, tmp_path_factory, config: Any) -> None:
    """A schema-valid config is accepted, or (a path that cannot be opened) refused with io."""
    if isinstance(config, dict):
        config = {**config, "catalog": "host"} if isinstance(config.get("catalog"), dict) else config
        if isinstance(config.get("favorites"), (str, dict)):
            config = {**config, "favorites": ":memory:"}
        if "record" in config:  # a generated path would be created in the working directory
            config = {**config, "record": str(tmp_path_factory.mktemp("record") / "session.jsonl")}
        if isinstance(config.get("offlineCache"), dict) and "path" in config["offlineCache"]:
            config = {**config, "offlineCache": {**config["offlineCache"], "path": ":memory:"}}
    try:
        runtime = runtimes(json.dumps(config) if config is not None else None)
    except cinematic.CinematicIOError:
        return
    runtime.close()
