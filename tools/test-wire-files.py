#!/usr/bin/env python3
"""Checks tools/wiregen_lib/assemble.py: how wire files become the schema. Each case writes a
Watchlist wire file beside copies of the real ones (in a scratch directory) and assembles:
names scoped per feature, what the generator fills in, golden lines and initial states made
from the declaration, and every mistake refused with a message naming the file. Prints
`wire file check: N passed, M failed`. Standard library only."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wiregen_lib import assemble  # noqa: E402

REAL_FEATURES = assemble.FEATURES_DIR
WATCHLIST: Dict[str, Any] = {
    "intents": {"added": {"description": "Added.", "properties": {"movieId": {"type": "integer", "format": "int64"}}},
                "removed": {"description": "Removed (the Watchlist's own).", "properties": {"movieId": {"type": "integer", "format": "int64"}}},
                "task": {"$ref": "#/$defs/task"}},
    "internalIntents": ["saved"],
    "state": {"properties": {"movieIds": {"type": "array", "items": {"type": "integer"}, "default": []}}},
}


def assembled_with(declaration: Dict[str, Any], prose: str = "The Watchlist.\n", name: str = "watchlist",
                   folder: str = "Watchlist", parts: Dict[str, Dict[str, Any]] | None = None):
    scratch = Path(tempfile.mkdtemp(prefix="wire-files-"))
    try:
        shutil.copytree(REAL_FEATURES, scratch, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.swift", "Generated"))
        (scratch / folder).mkdir(exist_ok=True)
        (scratch / folder / f"{name}.wire.md").write_text(f"{prose}\n```json wire\n{json.dumps(declaration)}\n```\n")
        for part, body in (parts or {}).items():
            (scratch / folder / f"{name}.{part}.wire.md").write_text(f"```json wire\n{json.dumps(body)}\n```\n")
        assemble.FEATURES_DIR = scratch
        return assemble.assemble()
    finally:
        assemble.FEATURES_DIR = REAL_FEATURES
        shutil.rmtree(scratch, ignore_errors=True)


def refused(declaration: Dict[str, Any], words: str, **options: Any) -> None:
    try:
        assembled_with(declaration, **options)
    except assemble.WireError as error:
        assert words in str(error), f"refused, but the message {str(error)!r} lacks {words!r}"
        assert "watchlist" in str(error), f"the message {str(error)!r} names no file"
        return
    raise AssertionError(f"accepted; expected a refusal saying {words!r}")


def names_are_scoped() -> None:
    schema, _, _, _ = assembled_with(WATCHLIST)
    defs = schema["$defs"]
    union = [option["$ref"].split("/")[-1] for option in defs["watchlistIntent"]["oneOf"]]
    assert union == ["added", "watchlistRemoved", "task"], union
    assert defs["watchlistRemoved"]["description"] == "Removed (the Watchlist's own)."
    assert defs["removed"]["description"] == "The user removed a favorite.", "Favorites' removed changed"
    assert schema["x-cinematic"]["features"][-1]["name"] == "watchlist"


def omissions_are_filled_in() -> None:
    defs = assembled_with(WATCHLIST)[0]["$defs"]
    added = defs["added"]
    assert list(added["properties"]) == ["type", "movieId"] and added["properties"]["type"] == {"const": "added"}
    assert added["required"] == ["type", "movieId"] and added["additionalProperties"] is False
    assert added["properties"]["movieId"]["minimum"] == -(2 ** 63) and added["properties"]["movieId"]["maximum"] == 2 ** 63 - 1
    assert defs["watchlistState"]["required"] == ["movieIds"] and defs["watchlistState"]["additionalProperties"] is False


def golden_lines_and_state_follow_the_declaration() -> None:
    declaration = {**WATCHLIST, "golden": [{"status": "ok", "intent": {"type": "added", "movieId": 1}}]}
    _, golden, states, prose = assembled_with(declaration)
    mine = [line for line in golden if line["feature"] == "watchlist"]
    assert mine[0] == {"feature": "watchlist", "status": "ok", "intent": {"type": "added", "movieId": 1}}
    assert {"feature": "watchlist", "status": "invalid", "why": "internalType", "path": "$.type", "intent": {"type": "saved"}} in mine
    assert any(line.get("why") == "unknownType" for line in mine)
    assert states["watchlist"] == {"movieIds": []} and prose["watchlist"] == "The Watchlist.\n"
    # Members with examples make an ok line, a line missing each, a line with each of the wrong
    # type; an intent without members makes an ok line.
    with_examples = {**WATCHLIST, "intents": {
        "added": {"properties": {"movieId": {"type": "integer", "format": "int64", "examples": [7]}}}, "cleared": {}}}
    made = [(line["status"], line.get("why"), line.get("path"), line["intent"]) for line in assembled_with(with_examples)[1]
            if line["feature"] == "watchlist"]
    for expected in [("ok", None, None, {"type": "added", "movieId": 7}), ("invalid", "member", "$.movieId", {"type": "added"}),
                     ("invalid", "member", "$.movieId", {"type": "added", "movieId": []}), ("ok", None, None, {"type": "cleared"})]:
        assert expected in made, f"{expected} not among {made}"


def a_refusal_without_its_path_is_refused() -> None:
    line = {"status": "invalid", "why": "member", "intent": {"type": "added"}}
    refused({**WATCHLIST, "golden": [line]}, 'the "path" of the member its error names')
    refused({**WATCHLIST, "golden": [{"status": "ok", "path": "$.movieId", "intent": {"type": "added", "movieId": 1}}]},
            "an accepted line neither")


def a_name_the_prose_misspells_is_refused() -> None:
    assembled_with(WATCHLIST, prose="The Watchlist: `added` (`{\"type\":\"added\",\"movieId\":1}`) and `movieIds`; `null`.\n")
    for prose, name in [("`addde` puts a film on top.\n", "addde"), ("Send `{\"type\":\"added\",\"movieID\":1}`.\n", "movieID"),
                        ("\n\nIts `movieIDs` list.\n", "movieIDs"), ("Send `{\"type\":\"aded\"}`.\n", "aded")]:
        refused(WATCHLIST, f"`{name}`", prose=prose)
    refused(WATCHLIST, "watchlist.wire.md:3:", prose="\n\nIts `movieIDs` list.\n")


def parts_are_merged() -> None:
    parts = {"values": {"$defs": {"watchlistEntry": {"type": "integer"}}}}
    schema = assembled_with(WATCHLIST, parts=parts)[0]
    assert schema["$defs"]["watchlistEntry"] == {"type": "integer"}
    refused(WATCHLIST, "is declared in", parts={"again": {"state": WATCHLIST["state"]}})


def mistakes_are_refused() -> None:
    refused({**WATCHLIST, "intent": {}}, "unknown key")
    refused({key: value for key, value in WATCHLIST.items() if key != "state"}, "has no 'state'")
    refused({**WATCHLIST, "intents": {"added": {"properties": {"movieId": {"type": "integer"}}, "required": ["movieID"]}}},
            "`required` names ['movieID']")
    refused({**WATCHLIST, "intents": {"added": {"properties": {"type": {"const": "add"}}}}}, "its key 'added'")
    refused({**WATCHLIST, "intents": {"added": {"properties": {"movie": {"$ref": "#/$defs/nowhere"}}}}}, "names no def")
    refused({**WATCHLIST, "intents": {"added": {"$ref": "#/$defs/removed"}}}, "whose type is not 'added'")
    refused({**WATCHLIST, "args": "nowhere"}, "is no core def")
    refused({**WATCHLIST, "state": {"properties": {"movieIds": {"type": "array"}}}}, "have no `default`")
    refused(WATCHLIST, "lives in Sources/CinematicFeatures/<Name>/<name>.wire.md", folder="Watch")
    refused(WATCHLIST, "exactly one", prose="The Watchlist.\n```json wire\n{}\n```\n")


CASES: List[Tuple[str, Callable[[], None]]] = [
    ("names are scoped per feature", names_are_scoped),
    ("what a wire file leaves out is filled in", omissions_are_filled_in),
    ("golden lines and the initial state follow the declaration", golden_lines_and_state_follow_the_declaration),
    ("a refusal without its path, or an accepted line with one, is refused", a_refusal_without_its_path_is_refused),
    ("a name the prose misspells is refused, naming the file and line", a_name_the_prose_misspells_is_refused),
    ("a feature's parts are merged", parts_are_merged),
    ("mistakes are refused, naming the file", mistakes_are_refused),
]


def main() -> int:
    failed = 0
    for title, case in CASES:
        try:
            case()
            print(f"ok   {title}")
        except (AssertionError, assemble.WireError) as error:
            failed += 1
            print(f"FAIL {title}: {error}")
    print(f"wire file check: {len(CASES) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
