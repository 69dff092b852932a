#!/usr/bin/env python3
"""Tests of the release checks themselves (part of `make abi-check` and `make wire-check`).

Each test mutates a scratch copy of today's wire or ABI the way a careless change would (a
member renamed, an intent removed, a type narrowed, a function removed, a new function under
an old symbol version) and runs the real check on it: a breaking mutation must fail unless
the version (or the SONAME) says so, a compatible one must pass. (A real library linked
without cinematic_store_send fails `make abi-check` three ways: docs/releasing.md.) Seconds, no library needed:
the ABI tests describe the header probe (tools/abi_probe.py), which exports exactly the
library's functions under the library's symbol versions.
"""
from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import abi_probe  # noqa: E402

SCHEMA = json.loads((ROOT / "schema/cinematic.schema.json").read_text())
#: Today's version (the schema's), a patch release after it (no breaking change allowed) and
#: the next minor one (a breaking release before 1.0).
TODAY = SCHEMA["x-cinematic"]["version"]
_MAJOR, _MINOR, _PATCH = map(int, TODAY.split("."))
PATCH, MINOR = f"{_MAJOR}.{_MINOR}.{_PATCH + 1}", f"{_MAJOR}.{_MINOR + 1}.0"
SCRATCH = Path(tempfile.mkdtemp(prefix="release-checks-"))


def wire_check(schema: dict, version: str, golden: Path | None = None) -> tuple[int, str]:
    """tools/wire-check.py with today's schema (and goldens) as the last release and `schema` as
    today's, at `version`."""
    baseline = SCRATCH / "baseline"
    if not baseline.exists():
        (baseline / "golden").mkdir(parents=True)
        (baseline / "cinematic.schema.json").write_text(json.dumps(SCHEMA))
        for name in ("intents.jsonl", "initial-states.json"):
            shutil.copy(ROOT / "schema/golden" / name, baseline / "golden" / name)
    mutated = SCRATCH / "mutated.schema.json"
    mutated.write_text(json.dumps(schema))
    result = subprocess.run([sys.executable, str(ROOT / "tools/wire-check.py"), "--baseline", str(baseline),
                             "--schema", str(mutated), "--version", version,
                             "--golden", str(golden or ROOT / "schema/golden")], capture_output=True, text=True)
    return result.returncode, result.stdout


def mutated(change) -> dict:
    schema = copy.deepcopy(SCHEMA)
    change(schema["$defs"])
    return schema


def rename_query(defs: dict) -> None:
    member = defs["queryChanged"]["properties"].pop("query")
    defs["queryChanged"]["properties"]["text"] = member
    defs["queryChanged"]["required"] = ["type", "text"]


def test_a_renamed_member_is_breaking_unless_the_version_says_so() -> None:
    status, out = wire_check(mutated(rename_query), PATCH)
    assert status == 1 and "member 'query' renamed 'text'" in out and "breaking" in out, out
    status, out = wire_check(mutated(rename_query), MINOR)
    assert status == 0 and "breaking changes allowed" in out, out


def test_a_removed_output_member_is_breaking() -> None:
    status, out = wire_check(mutated(lambda d: d["searchState"]["properties"].pop("pagesLoaded")), PATCH)
    assert status == 1 and "member 'pagesLoaded' removed" in out, out


def test_a_removed_intent_is_breaking() -> None:
    status, out = wire_check(mutated(lambda d: d["searchIntent"]["oneOf"].pop()), PATCH)
    assert status == 1 and "search.intent: alternative type=loadMore removed" in out, out


def test_a_narrowed_type_or_enum_is_breaking() -> None:
    status, out = wire_check(mutated(lambda d: d["sectionId"]["enum"].remove("short")), PATCH)
    assert status == 1 and "values removed: ['short']" in out, out
    status, out = wire_check(mutated(lambda d: d["queryChanged"]["properties"]["query"].update(maxLength=100)), PATCH)
    assert status == 1 and "maxLength 256 -> 100 (narrowed)" in out, out


def test_a_new_optional_member_and_a_new_intent_are_compatible() -> None:
    def grow(defs: dict) -> None:
        defs["submitted"]["properties"]["source"] = {"type": "string"}
        defs["cleared"] = {"type": "object", "properties": {"type": {"const": "cleared"}},
                           "required": ["type"], "additionalProperties": False}
        defs["searchIntent"]["oneOf"].append({"$ref": "#/$defs/cleared"})
    status, out = wire_check(mutated(grow), PATCH)
    assert status == 0 and "0 breaking" in out, out
    assert "new optional member 'source'" in out and "new alternative type=cleared (a new intent)" in out, out


def test_a_new_required_input_member_is_breaking() -> None:
    def require(defs: dict) -> None:
        defs["submitted"]["properties"]["source"] = {"type": "string"}
        defs["submitted"]["required"].append("source")
    status, out = wire_check(mutated(require), PATCH)
    assert status == 1 and "new required member 'source'" in out, out


def test_the_last_releases_golden_answers_must_hold() -> None:
    golden = SCRATCH / "golden"
    shutil.copytree(ROOT / "schema/golden", golden, dirs_exist_ok=True)
    lines = (golden / "intents.jsonl").read_text().splitlines()
    (golden / "intents.jsonl").write_text("\n".join(line.replace('"status":"invalid"', '"status":"ok"', 1)
                                                    if i == 4 else line for i, line in enumerate(lines)) + "\n")
    status, out = wire_check(SCHEMA, MINOR, golden)
    assert status == 1 and "answered invalid, today ok" in out, out
    states = json.loads((ROOT / "schema/golden/initial-states.json").read_text())
    states["search"]["query"] = "dune"
    (golden / "intents.jsonl").write_text("\n".join(lines) + "\n")
    (golden / "initial-states.json").write_text(json.dumps(states))
    status, out = wire_check(SCHEMA, MINOR, golden)
    assert status == 1 and "initial state of search.query was" in out, out


def abi_check(library_abi: Path, version: str = "0.3.0", soname: str = "libcinematic.so.0",
              header: Path = ROOT / "include/cinematic.h") -> tuple[int, str]:
    """tools/abi-check.py against release/0.2.0 with `library_abi` as today's library."""
    result = subprocess.run([sys.executable, str(ROOT / "tools/abi-check.py"), "--library", "unused",
                             "--soname", soname, "--version", version, "--baseline", str(ROOT / "release/0.2.0"),
                             "--library-abi", str(library_abi), "--work", str(SCRATCH / "abi"),
                             "--header", str(header)], capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def probe_description() -> str:
    """abidw of today's header probe: the functions, symbol versions and SONAME of the library."""
    (SCRATCH / "probe").mkdir(exist_ok=True)
    abi_probe.build(ROOT / "include/cinematic.h", ROOT / "Sources/Cinematic/cinematic.map", "libcinematic.so.0",
                    SCRATCH / "probe/libcinematic.so.0")
    return subprocess.run(["abidw", "--no-corpus-path", "--no-comp-dir-path", "--no-show-locs",
                           str(SCRATCH / "probe/libcinematic.so.0")], check=True, capture_output=True, text=True).stdout


def without_function(description: str, name: str) -> str:
    """The description with function `name` gone (its symbol and its declaration)."""
    description = re.sub(rf"\s*<elf-symbol name='{name}'[^>]*/>", "", description)
    return re.sub(rf"\s*<function-decl name='{name}'.*?</function-decl>", "", description, flags=re.S)


def test_a_removed_function_fails_unless_the_soname_is_bumped() -> None:
    base = probe_description()
    (SCRATCH / "intact.abi").write_text(base)
    status, out = abi_check(SCRATCH / "intact.abi")
    assert status == 0 and "abi-check: ok" in out, out
    (SCRATCH / "removed.abi").write_text(without_function(base, "cinematic_store_send"))
    status, out = abi_check(SCRATCH / "removed.abi")
    assert status == 1 and "cinematic_store_send" in out and "bump LIB_SONAME" in out, out
    bumped = without_function(base, "cinematic_store_send").replace("soname='libcinematic.so.0'",
                                                                    "soname='libcinematic.so.1'")
    (SCRATCH / "bumped.abi").write_text(bumped)
    status, out = abi_check(SCRATCH / "bumped.abi", soname="libcinematic.so.1")
    assert "SONAME went from libcinematic.so.0 to libcinematic.so.1" in out, out
    assert "cinematic_store_send is declared in include/cinematic.h but not exported" in out and status == 1, out


def test_a_changed_parameter_type_fails() -> None:
    (SCRATCH / "intact.abi").write_text(probe_description())
    changed = SCRATCH / "changed-include"
    shutil.copytree(ROOT / "include", changed, dirs_exist_ok=True)
    store = changed / "cinematic/store.h"
    store.write_text(store.read_text().replace(
        "int cinematic_store_settle(cinematic_store *store, int64_t timeout_ms);",
        "int cinematic_store_settle(cinematic_store *store, int timeout_ms);"))
    assert "int timeout_ms" in store.read_text()
    status, out = abi_check(SCRATCH / "intact.abi", header=changed / "cinematic.h")
    assert status == 1 and "type size changed from 64 to 32" in out and "the header's ABI changed" in out, out


def test_a_new_function_carries_the_new_release_node() -> None:
    moved = probe_description().replace("name='cinematic_store_scope' version='CINEMATIC_0.3'",
                                        "name='cinematic_store_scope' version='CINEMATIC_0.2'")
    assert "name='cinematic_store_scope' version='CINEMATIC_0.2'" in moved
    (SCRATCH / "moved.abi").write_text(moved)
    status, out = abi_check(SCRATCH / "moved.abi")
    assert status == 1 and "cinematic_store_scope is new since the last release: its node is CINEMATIC_0.3" in out, out


def release_records(changelog_releases: list[str], recorded: dict[str, str]) -> tuple[int, str]:
    """tools/check-releases.py on a scratch root: a CHANGELOG naming `changelog_releases`,
    release/<v>/ recorded for each of `recorded` (version -> commit) and its host."""
    root = SCRATCH / f"releases-{len(list(SCRATCH.glob('releases-*')))}"
    (root / "Tests/c").mkdir(parents=True)
    (root / "CHANGELOG.md").write_text("# Changelog\n\n## Unreleased\n\n" + "".join(
        f"## {version} (2026-12-01)\n\n- a change\n\n" for version in changelog_releases))
    for version, commit in recorded.items():
        (root / "release" / version).mkdir(parents=True)
        (root / "release" / version / "VERSION").write_text(version + "\n")
        (root / "release" / version / "COMMIT").write_text(commit + "\n")
        major, minor = version.split(".")[:2]
        (root / "Tests/c" / f"abi_host_{major}_{minor}.c").write_text("int main(void) { return 0; }\n")
    run = subprocess.run([sys.executable, str(ROOT / "tools/check-releases.py"), "--root", str(root)],
                         capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


def test_a_release_named_in_the_changelog_must_be_recorded() -> None:
    status, out = release_records(["0.9.0", "0.3.0"], {"0.3.0": "d13f94e4fb8dd13050f40b941639f70fcd3845d0"})
    assert status == 1 and "CHANGELOG names 0.9.0, but release/0.9.0/ is not recorded" in out, out
    status, out = release_records(["0.3.0"], {"0.3.0": "d13f94e4fb8dd13050f40b941639f70fcd3845d0"})
    assert status == 0, out


def test_a_recorded_release_names_its_commit() -> None:
    status, out = release_records(["0.3.0"], {"0.3.0": "not a commit"})
    assert status == 1 and "release/0.3.0/COMMIT is missing or not a commit" in out, out


def main() -> int:
    tests = [(name, test) for name, test in globals().items() if name.startswith("test_")]
    failed = 0
    for name, test in tests:
        try:
            test()
            print(f"  ok      {name}")
        except AssertionError as error:
            failed += 1
            print(f"  FAILED  {name}\n{error}")
    shutil.rmtree(SCRATCH, ignore_errors=True)
    print(f"release checks: {len(tests) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
