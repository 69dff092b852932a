"""Turns a recording (runtime config ``"record"``; docs/wire.md, Recordings) into a pytest
test built on :class:`cinematic.testing.TestRuntime`::

    python -m cinematic.testing.from_recording session.jsonl > test_session.py
    python -m cinematic.testing.from_recording session.jsonl -o test_session.py --name dune_favorite

Each store the session opened becomes a :class:`~cinematic.testing.TestStore` on one test
runtime (one manual clock, one scripted catalog, in-memory favorites); each host intent a
``send`` asserting the members its recorded state changed; each effect result a ``receive``
(several results of one store in the same millisecond, which concurrent effects may deliver
in either order, one ``receive_all``); each catalog answer a canned answer, given as many
milliseconds after its request as it was recorded; each store's close a ``finish()``. The
clock is advanced to each step's recorded time, so a system-clock session (the terminal app)
runs on the manual clock like a replay does.

Limits (each reported as a comment in the generated test): favorites start empty (favorites
requests are answered by the test's in-memory database, not from the recording); an answer
the offline cache gave (``"source": "cache"``) is given as a live one; time travel
(``revert``) is replayed with ``TestStore.revert``.
"""

from __future__ import annotations

import argparse
import json
import math
import pprint
import re
import sys
from typing import Any, Dict, List, Optional, Sequence, TextIO, Tuple

__all__ = ["generate", "main", "OBSERVATIONS"]

#: The long-lived effect each feature starts with ``task`` (running until the store closes).
OBSERVATIONS: Dict[str, str] = {"favorites": "favorites.observe", "detail": "detail.favorites"}
#: The catalog's request ops (favorites requests are answered by the test's own database).
CATALOG_OPS = ("search", "discover", "movie")


def _py(value: Any, indent: int, lead: int = 0, width: int = 150) -> str:
    """``value`` as a Python literal on a line indented ``indent`` (``lead`` characters already
    before it on that line): on one line when it fits, else one member (one movie) per line."""
    flat = repr(value)
    if indent + lead + len(flat) <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = indent + 4
    pad = " " * inner
    if isinstance(value, dict):
        items = [f"{key!r}: {_py(member, inner, len(repr(key)) + 2, width)}" for key, member in value.items()]
        opening, closing = "{", "}"
    else:
        items = [_py(member, inner, 0, width) for member in value]
        opening, closing = "[", "]"
    return opening + "\n" + ",\n".join(pad + item for item in items) + ",\n" + " " * indent + closing


def _host_state(feature: str, state: Dict[str, Any]) -> Dict[str, Any]:
    """A state of a recording made on another catalog, as the test's host catalog shows it:
    loaded catalog phases say ``"source": "live"``."""
    def live(phase: Any) -> Any:
        if isinstance(phase, dict) and phase.get("phase") == "loaded":
            phase = {k: v for k, v in phase.items() if k != "cachedAt"}
            phase["source"] = "live"
        return phase

    state = json.loads(json.dumps(state))
    if feature == "search" and "results" in state:
        state["results"] = live(state["results"])
    elif feature == "discover":
        for section in state.get("sections", []):
            section["movies"] = live(section.get("movies"))
    elif feature == "detail" and "detail" in state:
        state["detail"] = live(state["detail"])
    return state


def _changes(before: Dict[str, Any], after: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    changed = {k: v for k, v in after.items() if before.get(k) != v}
    return changed or None


def _canned(request: Dict[str, Any], answer: Dict[str, Any], asked: float, answered: float) -> str:
    delay = int(math.floor(answered)) - int(math.floor(asked))
    options = f", delay_ms={delay}" if delay > 0 else ""
    return f"rt.catalog.answer({_py(request, 0, 18)},\n                  {_py(answer, 18)}{options}, times=1)"


class _Store:
    def __init__(self, number: int, feature: str, args: Any, name: str) -> None:
        self.number = number
        self.feature = feature
        self.args = args
        self.name = name
        self.state: Optional[Dict[str, Any]] = None  # the expected state so far
        self.had_task = False
        self.closed = False


def generate(lines: Sequence[Dict[str, Any]], name: str = "recorded_session", source: str = "the recording") -> str:
    """The text of a pytest module with one test, ``test_<name>``, from the recording's lines."""
    session = next((line for line in lines if line.get("event") == "session"), None)
    if session is None:
        raise ValueError("not a recording: no session line")
    config = session.get("config", {})
    runtime_config: Dict[str, Any] = {}
    if isinstance(config.get("search"), dict) and "debounceMs" in config["search"]:
        runtime_config["search"] = {"debounceMs": config["search"]["debounceMs"]}
    if isinstance(config.get("requestDeadlineMs"), int):
        runtime_config["requestDeadlineMs"] = config["requestDeadlineMs"]
    host_recording = config.get("catalog") == "host"

    notes: List[str] = []
    body: List[str] = []
    stores: Dict[int, _Store] = {}
    names: Dict[str, int] = {}
    now = 0
    requests: Dict[int, Tuple[Dict[str, Any], float]] = {}
    canned: List[str] = []
    seen_requests: Dict[str, int] = {}
    provider_ids: Dict[int, int] = {}  # a host provider's request id -> the recording's request id
    # Index: (store, sequence) -> state recorded after it.
    states = {(line["store"], line["sequence"]): line["state"] for line in lines if line.get("event") == "state"}

    def advance_to(t: float) -> None:
        nonlocal now
        target = int(math.floor(t))
        if target > now:
            body.append(f"rt.advance({target - now})")
            now = target

    index = 0
    events = list(lines)
    while index < len(events):
        line = events[index]
        event = line.get("event")
        if event == "open":
            feature = str(line["feature"])
            count = names.get(feature, 0) + 1
            names[feature] = count
            variable = feature if count == 1 else f"{feature}{count}"
            store = _Store(line["store"], feature, line.get("args"), variable)
            stores[store.number] = store
            advance_to(line["t"])
            args = "" if line.get("args") is None else ", " + _py(line["args"], 0, 30)
            body.append(f"{variable} = rt.store({feature!r}{args})")
        elif event == "intent" and line["store"] in stores:
            store = stores[line["store"]]
            if store.closed:
                index += 1
                continue
            if store.state is None:
                store.state = {}
            if line.get("host"):
                advance_to(line["t"])
                after = states.get((store.number, line["sequence"]))
                before = store.state
                changes = None
                if after is not None:
                    after = after if host_recording else _host_state(store.feature, after)
                    changes = _changes(before, after) if before else after
                    store.state = after
                if line["intent"].get("type") == "task":
                    store.had_task = True
                intent = _py(line["intent"], 0, len(store.name) + 6)
                if changes is None:
                    body.append(f"{store.name}.send({intent})")
                else:
                    body.append(f"{store.name}.send({intent},\n    {_py(changes, 4)})")
            else:
                # This store's effect results in the same millisecond: possibly concurrent.
                group = [line]
                scan = index + 1
                while scan < len(events):
                    other = events[scan]
                    if other.get("event") == "request" and other.get("request", {}).get("op") in CATALOG_OPS:
                        break  # what follows may answer it: causally after, not concurrent
                    if other.get("store") == store.number and other.get("event") in ("intent", "revert", "close"):
                        if (other.get("event") == "intent" and not other.get("host")
                                and math.floor(other["t"]) == math.floor(line["t"])):
                            group.append(other)
                        else:
                            break
                    scan += 1
                advance_to(group[-1]["t"])
                before = store.state
                after = before
                for member in group:
                    recorded = states.get((store.number, member["sequence"]))
                    if recorded is not None:
                        after = recorded if host_recording else _host_state(store.feature, recorded)
                changes = _changes(before or {}, after or {}) if after is not before else None
                if after is not None:
                    store.state = after
                change_text = "" if changes is None else ",\n    " + _py(changes, 4)
                if len(group) == 1:
                    body.append(f"{store.name}.receive({line['intent']['type']!r}{change_text})")
                else:
                    types = [member["intent"]["type"] for member in group]
                    body.append(f"{store.name}.receive_all({types!r}{change_text})")
                # The grouped intents are consumed here; skip them when the loop reaches them.
                for member in group[1:]:
                    member["_consumed"] = True
        elif event == "revert" and line["store"] in stores:
            store = stores[line["store"]]
            advance_to(line["t"])
            recorded = states.get((store.number, line["sequence"]))
            if recorded is not None:
                store.state = recorded if host_recording else _host_state(store.feature, recorded)
            body.append(f"{store.name}.revert({line['sequence']})")
        elif event == "request" and isinstance(line.get("request"), dict):
            request = line["request"]
            if request.get("op") in CATALOG_OPS:
                requests[line["id"]] = (request, line["t"])
                key = json.dumps(request, sort_keys=True)
                seen_requests[key] = seen_requests.get(key, 0) + 1
                count = seen_requests[key]
                pattern = ", ".join(f"{k}={v!r}" for k, v in request.items())
                # Its answer is timed from its arrival: make sure it arrived before the clock moves.
                body.append(f"rt.catalog.wait_for({pattern}" + (f", count={count})" if count > 1 else ")"))
        elif event == "providerRequest" and host_recording:
            # The provider's own view of a catalog request (its answers, late ones included,
            # are what the test's catalog gives): matched to the request line before it.
            match = next((rid for rid, (request, _) in requests.items()
                          if request == line.get("request") and rid not in provider_ids.values()), None)
            if match is not None:
                provider_ids[line["requestId"]] = match
        elif event == "providerAnswer" and host_recording and line.get("requestId") in provider_ids:
            rid = provider_ids.pop(line["requestId"])
            request, asked = requests.pop(rid)
            canned.append(_canned(request, line.get("answer", {}), asked, line["t"]))
        elif event == "answer" and not host_recording and line.get("id") in requests:
            request, asked = requests.pop(line["id"])
            if line.get("source") == "cache":
                notes.append(f"request {line['id']} was answered by the offline cache; the test answers it live")
            canned.append(_canned(request, line.get("answer", {}), asked, line["t"]))
        elif event == "close" and line.get("store") in stores:
            store = stores[line["store"]]
            advance_to(line["t"])
            observation = OBSERVATIONS.get(store.feature) if store.had_task else None
            body.append(f"{store.name}.finish(" + (f"still_running=[{observation!r}]" if observation else "") + ")")
            store.closed = True
        elif event == "request" and isinstance(line.get("request"), dict) and str(line["request"].get("op", "")).startswith("favorites."):
            pass
        index += 1
        while index < len(events) and events[index].get("_consumed"):
            index += 1
    for store in stores.values():  # stores the session left open (closed with the runtime)
        if not store.closed:
            observation = OBSERVATIONS.get(store.feature) if store.had_task else None
            body.append(f"{store.name}.finish(" + (f"still_running=[{observation!r}]" if observation else "") + ")")
    for request, _ in requests.values():
        notes.append(f"the request {json.dumps(request)} was never answered: the test holds it")
        canned.append(f"rt.catalog.answer({_py(request, 0, 18)}, None, times=1)  # never answered")
    first_favorites = next((line for line in lines if line.get("event") == "snapshot"), None)
    if first_favorites is not None and first_favorites.get("movies"):
        notes.append("the favorites were not empty when the session started; the test's favorites are")

    function = re.sub(r"\W", "_", name)
    out: List[str] = [
        f'"""Generated by python -m cinematic.testing.from_recording from {source}',
        f"(library {session.get('library', '?')}, catalog {json.dumps(config.get('catalog'))}, clock {json.dumps(config.get('clock'))}).",
        "Each host intent is a send, each effect result a receive, each catalog answer a canned one.\"\"\"",
        "",
        "from cinematic.testing import TestRuntime",
        "",
        "",
        f"def test_{function}():",
    ]
    for note in notes:
        out.append(f"    # note: {note}")
    out.append(f"    with TestRuntime({repr(runtime_config) if runtime_config else ''}) as rt:")
    for statement in canned + body:
        out.append("        " + statement.replace("\n", "\n        "))
    if not body:
        out.append("        pass")
    return "\n".join(out) + "\n"


def read(path: str) -> List[Dict[str, Any]]:
    """The lines of a recording (a last line cut short is left out)."""
    lines = []
    with open(path, encoding="utf-8") as recording:
        for text in recording:
            try:
                lines.append(json.loads(text))
            except ValueError:
                break
    return lines


def main(argv: Optional[Sequence[str]] = None, out: TextIO = sys.stdout) -> int:
    parser = argparse.ArgumentParser(prog="python -m cinematic.testing.from_recording",
                                     description="Turn a recording into a TestStore test (pytest).")
    parser.add_argument("recording", help="a recording (runtime config \"record\")")
    parser.add_argument("-o", "--output", help="write the test here (default: standard output)")
    parser.add_argument("--name", help="the test's name (default: from the recording's file name)")
    args = parser.parse_args(argv)
    stem = re.sub(r"\.jsonl?$", "", args.recording.rsplit("/", 1)[-1])
    try:
        text = generate(read(args.recording), args.name or stem, args.recording.rsplit("/", 1)[-1])
    except (OSError, ValueError) as problem:
        print(f"from_recording: {args.recording}: {problem}", file=sys.stderr)
        return 1
    if args.output:
        with open(args.output, "w", encoding="utf-8") as target:
            target.write(text)
    else:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
