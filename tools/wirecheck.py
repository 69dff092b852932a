#!/usr/bin/env python3
"""Validates what a test suite received from the library against schema/cinematic.schema.json.

The C and Kotlin suites (and the Python one, through its conftest) log every state, error
envelope and provider request they receive as JSON lines:

    {"kind": "state", "feature": "search", "value": {...}}      feature may be null
    {"kind": "envelope", "value": {...}}
    {"kind": "request", "value": {...}}
    {"kind": "history" | "recording" | "replay", "value": ...}   debugging outputs
    {"kind": "patched", "feature": "search", "value": {"seq": 2, "patch": [...]}}  patch mode

`tools/wirecheck.py LOG...` checks each against its definition (a state of an unknown
feature must match one feature's state) and prints `wire validation: N passed, M failed`,
with the first failures. Import it for `validate(kind, value, feature)`.
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Optional

from jsonschema import Draft202012Validator

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "cinematic.schema.json"


@lru_cache(maxsize=None)
def schema() -> Dict[str, Any]:
    loaded: Dict[str, Any] = json.loads(SCHEMA_PATH.read_text())
    return loaded


@lru_cache(maxsize=None)
def validator(definition: str) -> Draft202012Validator:
    """A validator for `#/$defs/<definition>`."""
    root = dict(schema())
    root.pop("$id", None)
    return Draft202012Validator({**root, "$ref": f"#/$defs/{definition}"})


def features() -> List[Dict[str, Any]]:
    found: List[Dict[str, Any]] = schema()["x-cinematic"]["features"]
    return found


def definition_for(kind: str, feature: Optional[str]) -> List[str]:
    """The definitions a value of `kind` may match."""
    if kind == "state":
        return [f["state"] for f in features() if feature is None or f["name"] == feature]
    if kind == "intent":
        return [f["intent"] for f in features() if feature is None or f["name"] == feature]
    return {"envelope": ["errorEnvelope"], "request": ["providerRequest"], "config": ["runtimeConfig"],
            "history": ["history"], "recording": ["recordingLine"], "replay": ["replayReport"],
            "patched": ["patchedDelivery"], "snapshot": ["storeSnapshot"], "runtimeSnapshot": ["runtimeSnapshot"]}[kind]


def validate(kind: str, value: Any, feature: Optional[str] = None) -> Optional[str]:
    """None when `value` is a valid `kind` (of `feature`), else why not."""
    definitions = definition_for(kind, feature)
    if not definitions:
        return f"no {kind} definition for feature {feature!r}"
    errors = []
    for definition in definitions:
        error = next(iter(sorted(validator(definition).iter_errors(value), key=lambda e: e.path)), None)
        if error is None:
            return None
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        errors.append(f"{definition} at {where}: {error.message[:300]}")
    return "; ".join(errors)


def main(paths: List[str]) -> int:
    passed = failed = 0
    shown = 0
    for path in paths:
        if not Path(path).exists():
            continue
        for number, line in enumerate(Path(path).read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                problem = validate(entry["kind"], entry["value"], entry.get("feature"))
            except (ValueError, KeyError) as error:
                problem = f"unreadable log line: {error}"
                entry = {"kind": "?"}
            if problem is None:
                passed += 1
                continue
            failed += 1
            if shown < 10:
                shown += 1
                print(f"{path}:{number}: invalid {entry.get('kind')} ({entry.get('feature')}): {problem}")
    print(f"wire validation: {passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
