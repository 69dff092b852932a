#!/usr/bin/env python3
"""`make wire-check`: today's wire against the last release's (release/<version>/).

1. Every difference between release/<last>/cinematic.schema.json and
   schema/cinematic.schema.json is classified (tools/wire_compat.py) and printed; a breaking
   one fails unless the version says so (a new major version, or a new minor one before 1.0).
2. Hosts built for the last release's wire still get its documented answers: each of its
   golden intents (release/<last>/golden/intents.jsonl) is in schema/golden/intents.jsonl with
   the same status (which test_golden.c checks against the library, and also sends the last
   release's file itself), and each of its golden initial states is contained in today's
   (every member it had, with the same value; new members allowed).

  tools/wire-check.py [--baseline release/0.2.0] [--schema schema/cinematic.schema.json]
                      [--golden schema/golden] [--version 0.3.0]

Without --baseline, the newest release/ folder at or before today's version. Exit status 0 when
compatible or allowed, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import wire_compat  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def golden_intents(path: Path) -> dict[str, str]:
    """Each golden line's feature and intent (canonical JSON) -> its status."""
    answers = {}
    for line in path.read_text().splitlines():
        if line.strip():
            entry = json.loads(line)
            answers[json.dumps([entry["feature"], entry["intent"]], sort_keys=True)] = entry["status"]
    return answers


def contained(old, new, where: str) -> list[str]:
    """Where `new` lacks or changes what `old` holds (objects may gain members)."""
    if isinstance(old, dict) and isinstance(new, dict):
        problems = []
        for key, value in old.items():
            if key not in new:
                problems.append(f"{where}.{key} is gone")
            else:
                problems += contained(value, new[key], f"{where}.{key}")
        return problems
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [p for i, (a, b) in enumerate(zip(old, new)) for p in contained(a, b, f"{where}[{i}]")]
    return [] if old == new else [f"{where} was {json.dumps(old)}, is {json.dumps(new)}"]


def golden_problems(baseline: Path, golden: Path) -> list[str]:
    """How today's golden files fail the last release's hosts."""
    problems = []
    old, new = golden_intents(baseline / "golden/intents.jsonl"), golden_intents(golden / "intents.jsonl")
    for key, status in old.items():
        if key not in new:
            problems.append(f"golden intent {key} of {baseline.name} is missing from {golden}/intents.jsonl")
        elif new[key] != status:
            problems.append(f"golden intent {key}: {baseline.name} answered {status}, today {new[key]}")
    old_states = json.loads((baseline / "golden/initial-states.json").read_text())
    new_states = json.loads((golden / "initial-states.json").read_text())
    for feature, state in old_states.items():
        problems += contained(state, new_states.get(feature), f"initial state of {feature}")
    return problems


def corrections(baseline: Path, breaking: list[str]) -> dict[str, str]:
    """The breaking lines that `baseline/corrections.json` excuses: where the release's recorded
    schema understated what its library already did (a bound it enforced but did not state),
    each with the evidence. The exact report line is the key, so only that change is excused."""
    path = baseline / "corrections.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    return {line: known[line] for line in breaking if line in known}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--schema", type=Path, default=ROOT / "schema/cinematic.schema.json")
    parser.add_argument("--golden", type=Path, default=ROOT / "schema/golden")
    parser.add_argument("--version", help="today's version (default: the schema's)")
    args = parser.parse_args()
    new = json.loads(args.schema.read_text())
    version = args.version or new["x-cinematic"]["version"]
    baseline = args.baseline or wire_compat.last_release(ROOT / "release", version)
    old = json.loads((baseline / "cinematic.schema.json").read_text())
    released = old["x-cinematic"]["version"]
    report = wire_compat.compare(old, new)
    corrected = corrections(baseline, report.breaking)
    report.breaking = [line for line in report.breaking if line not in corrected]
    print(f"wire-check: {released} ({baseline.relative_to(ROOT) if baseline.is_relative_to(ROOT) else baseline})"
          f" -> {version}: {len(report.compatible)} compatible, {len(report.breaking)} breaking")
    for line in report.breaking:
        print(f"  breaking    {line}")
    for line, why in corrected.items():
        print(f"  corrected   {line}\n              ({baseline.name}'s schema understated its library: {why})")
    for line in report.compatible:
        print(f"  compatible  {line}")
    failures = []
    if report.breaking and not wire_compat.breaking_allowed(released, version):
        failures.append(f"{len(report.breaking)} breaking change(s) since {released}, and {version} does not say so "
                        f"(a breaking change needs {'a new major' if wire_compat.version_key(version)[0] else 'a new minor'} "
                        f"version): restore the wire, or bump the version in the schema")
    elif report.breaking:
        print(f"wire-check: breaking changes allowed: {version} is a breaking release after {released}")
    failures += golden_problems(baseline, args.golden)
    for failure in failures:
        print(f"wire-check: FAIL: {failure}")
    print(f"wire-check: {'FAILED' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
