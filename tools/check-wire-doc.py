#!/usr/bin/env python3
"""Checks docs/wire.md against schema/cinematic.schema.json: every ```json <definition>
block validates against that definition, every feature has a `### <name>` section, and each
section names every host intent and internal intent of its feature. Prints
`wire doc check: N passed, M failed`."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wirecheck  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    text = (ROOT / "docs" / "wire.md").read_text()
    schema = wirecheck.schema()
    passed = failed = 0
    for definition, body in re.findall(r"```json (\w+)\n(.*?)\n```", text, re.S):
        try:
            value = json.loads(body)
            errors = list(wirecheck.validator(definition).iter_errors(value))
        except (ValueError, KeyError) as error:
            errors = [error]
        if errors:
            failed += 1
            print(f"docs/wire.md: the {definition} example does not validate: {errors[0]}")
        else:
            passed += 1
    sections = dict(re.findall(r"^### (\w+)\n(.*?)(?=^### |^## )", text, re.S | re.M))
    for feature in schema["x-cinematic"]["features"]:
        section = sections.get(feature["name"])
        intent_union = schema["$defs"][feature["intent"]]["oneOf"]
        host = [schema["$defs"][o["$ref"].split("/")[-1]]["properties"]["type"]["const"] for o in intent_union]
        missing = [name for name in host + feature["internalIntents"] if section is None or f"`{name}`" not in section]
        if section is None or missing:
            failed += 1
            print(f"docs/wire.md: feature {feature['name']}: no section" if section is None
                  else f"docs/wire.md: feature {feature['name']} does not mention {missing}")
        else:
            passed += 1
    print(f"wire doc check: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
