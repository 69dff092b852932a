"""A file that is not a recording (python -m cinematic.testing.from_recording): not JSON,
wrong types, missing members, huge numbers, deep nesting, invalid UTF-8, an empty file, a
directory, a FIFO, a device, a socket, a file too large... Each gets one line on stderr,
``from_recording: FILE: line N: what is wrong`` (no line for what is wrong with the whole
file) and exit status 2: never a traceback, never a hang."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import hostile_recordings as hostile
from cinematic.wire import VERSION
Lines = List[hostile.Line]


@pytest.fixture(scope="module")
def lines(tmp_path_factory: pytest.TempPathFactory) -> Lines:
    path = tmp_path_factory.mktemp("recording") / "host.jsonl"
    hostile.host_recording(path)
    return hostile.lines_of(path)


def text(lines: Lines) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


def edited(line_event: str, **members: Any) -> Callable[[Path, Lines], None]:
    """Writes the recording with the first ``event`` line's members replaced (a value of
    ``...`` removes the member; a ``raw:`` string is written as raw JSON)."""
    def write(path: Path, lines: Lines) -> None:
        index = next(i for i, line in enumerate(lines) if line["event"] == line_event)
        line = {k: v for k, v in lines[index].items() if members.get(k, None) is not ...}
        raw = {k: v[4:] for k, v in members.items() if isinstance(v, str) and v.startswith("raw:")}
        line.update({k: (f"\u0000{k}" if k in raw else v) for k, v in members.items() if v is not ...})
        body = json.dumps(line)
        for key, value in raw.items():
            body = body.replace(json.dumps(f"\u0000{key}"), value)
        path.write_text(text(lines[:index]) + body + "\n" + text(lines[index + 1:]))
    return write


def fifo(path: Path, lines: Lines) -> None:
    os.mkfifo(path)


def too_large(path: Path, lines: Lines) -> None:
    from cinematic.testing._recording import MAX_BYTES

    path.write_text(text(lines))
    os.truncate(path, MAX_BYTES + 1)   # sparse: refused before it is read


def unix_socket(path: Path, lines: Lines) -> None:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))   # left open until the process ends: a live socket


#: name -> (what makes the file, what the message must say).
CASES: Dict[str, Tuple[Callable[[Path, Lines], None], str]] = {
    "an empty file": (lambda p, lines: p.write_bytes(b""), "line 1: the file is empty"),
    "not JSON": (lambda p, lines: p.write_text("hello\nworld\n"), "line 1: it is not JSON"),
    "a line cut short, alone": (lambda p, lines: p.write_text('{"event":"sess'), "line 1: it is not JSON"),
    "a line in the middle that is not JSON": (lambda p, lines: p.write_text(text(lines[:3]) + "{oops\n" + text(lines[3:])),
                                              "line 4: it is not JSON"),
    "an empty line in the middle": (lambda p, lines: p.write_text(text(lines[:3]) + "\n" + text(lines[3:])), "line 4: "),
    "invalid UTF-8": (lambda p, lines: p.write_bytes(text(lines).replace(VERSION, "\udcff", 1).encode("utf-8", "surrogateescape")),
                      "line 1: it is not UTF-8"),
    "a byte order mark": (lambda p, lines: p.write_bytes(b"\xef\xbb\xbf" + text(lines).encode()), "line 1: it is not JSON"),
    "a lone surrogate": (edited("open", feature="raw:\"\\ud800\""), "lone surrogate"),
    "an array line": (lambda p, lines: p.write_text(text(lines[:1]) + "[1, 2]\n"), "line 2: a line must be a JSON object"),
    "a null line": (lambda p, lines: p.write_text("null\n"), "line 1: a line must be a JSON object"),
    "no session first": (lambda p, lines: p.write_text(text(lines[1:])), "line 1: not a recording"),
    "a second session": (lambda p, lines: p.write_text(text(lines + lines[:1])), "line {}: not a recording"),
    "config an array": (edited("session", config=[]), "line 1: session line: member 'config' must be an object"),
    "library a number": (edited("session", library=2), "member 'library' must be a string"),
    "debounceMs true": (edited("session", config={"search": {"debounceMs": True}}), "'debounceMs' must be an integer"),
    "requestDeadlineMs a string": (edited("session", config={"requestDeadlineMs": "10"}), "'requestDeadlineMs'"),
    "a store number as a string": (edited("open", store="2"), "member 'store' must be an integer"),
    "a store number as a boolean": (edited("open", store=True), "member 'store' must be an integer"),
    "a store number as a float": (edited("intent", store=2.0), "member 'store' must be an integer"),
    "a time as a string": (edited("open", t="0"), "member 't' must be a number"),
    "a negative time": (edited("open", t=-1), "member 't' must be a number"),
    "a time of 1e400": (edited("open", t="raw:1e400"), "out of range"),
    "a NaN time": (edited("open", t="raw:NaN"), "NaN is not a JSON number"),
    "a sequence of 10**30": (edited("intent", sequence=10 ** 30), "out of range"),
    "an integer of 5000 digits": (edited("revert", sequence="raw:1" + "0" * 5000), "out of range"),
    "a revert sequence of 1.5": (edited("revert", sequence=1.5), "member 'sequence' must be an integer"),
    "a missing member": (edited("open", feature=...), "open line: has no 'feature' member"),
    "a missing time": (edited("close", t=...), "close line: has no 't' member"),
    "an unknown feature": (edited("open", feature="os._exit"), "member 'feature' must be one of search"),
    "an intent without a type": (edited("intent", intent={"query": "x"}), "has no 'type' member"),
    "an intent that is a string": (edited("intent", intent="task"), "member 'intent' must be an object"),
    "a request member the protocol lacks": (edited("request", request={"op": "search", "query": "x", "timeout": 1}),
                                            "'timeout', which a search request does not have"),
    "a request id as a list": (edited("request", id=[1]), "member 'id' must be an integer"),
    "an event that is a number": (edited("end", event=7), "member 'event' must be a string"),
    "nested 100 levels": (edited("open", args="raw:" + "[" * 100 + "]" * 100), "nests deeper than 64 levels"),
    "nested 100000 levels": (edited("open", args="raw:" + "[" * 100000 + "]" * 100000), "nests deeper than 64 levels"),
    "larger than the limit": (too_large, "it is larger than"),
    "a directory": (lambda p, lines: p.mkdir(), "it is a directory, not a regular file"),
    "a FIFO": (fifo, "it is a FIFO, not a regular file"),
    "a symbolic link to a FIFO": (lambda p, lines: (fifo(p.with_suffix(".fifo"), lines), p.symlink_to(p.with_suffix(".fifo"))),
                                  "it is a FIFO, not a regular file"),
    "a character device": (lambda p, lines: p.symlink_to("/dev/null"), "it is a character device, not a regular file"),
    "a socket": (unix_socket, "it is a socket, not a regular file"),
    "a missing file": (lambda p, lines: None, "No such file or directory"),
    "a dangling symbolic link": (lambda p, lines: p.symlink_to(p.with_suffix(".gone")), "No such file or directory"),
}


def run(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cinematic.testing.from_recording", str(path)],
                          capture_output=True, text=True, timeout=60, cwd=str(hostile.REPO))


@pytest.mark.parametrize("case", list(CASES))
def test_a_malformed_recording_is_one_line_and_exit_2(lines, tmp_path, case):
    make, expected = CASES[case]
    path = tmp_path / "session.jsonl"
    make(path, lines)
    done = run(path)   # a FIFO or a device read would hang here: the timeout fails the test
    assert done.returncode == 2, done.stdout[:500] + done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"from_recording: {path}: "), done.stderr
    assert expected.format(len(lines) + 1) in done.stderr, done.stderr


def test_a_last_line_cut_short_is_left_out(lines, tmp_path):
    path = tmp_path / "session.jsonl"
    path.write_text(text(lines) + '{"event":"intent","t":2')
    done = run(path)
    assert done.returncode == 0 and "def test_session():" in done.stdout, done.stderr


def test_a_file_name_that_is_not_one_line_is_shown_on_one_line(lines, tmp_path):
    path = tmp_path / "two\nlines.jsonl"
    path.write_text("[]\n")
    done = run(path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "two\\nlines.jsonl: line 1: a line must be a JSON object" in done.stderr


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_value_anywhere_and_any_bytes_as_a_line_is_refused_or_inert(lines, tmp_path, data):
    """Random JSON (NaN and infinities included) in a random member of a random line, a
    random member renamed, or random bytes instead of a line: exit 0 with a test that is
    our frame of calls on literals, or exit 2 with one line."""
    path, output = tmp_path / "session.jsonl", tmp_path / "test_session.py"
    index = data.draw(st.integers(0, len(lines) - 1), "line")
    where = data.draw(st.sampled_from(list(hostile.members(lines[index]))), "member")
    how = data.draw(st.sampled_from(["value", "name", "bytes"]), "how")
    if how == "bytes":
        path.write_bytes(text(lines[:index]).encode() + data.draw(st.binary(max_size=60), "bytes") + b"\n"
                         + text(lines[index + 1:]).encode())
    elif how == "name":
        path.write_text(hostile.injected(lines, index, where, json.dumps(data.draw(st.text(), "name")), rename=True))
    else:
        path.write_text(hostile.injected(lines, index, where, json.dumps(data.draw(JSON, "value"))))
    status, stderr, generated = hostile.generate(path, output)
    if status == 0:
        assert hostile.code_problem(generated, hostile.from_recording.DOCSTRING) is None
    else:
        assert hostile.refused_properly(status, stderr, path) is None, (status, stderr)
