"""Data never becomes code (python -m cinematic.testing.from_recording): real recordings made
with the library, a payload put in every member of every line type (values and member names:
code that ends a docstring, a comment or a string, names such as ``os._exit``, keywords, huge
and non-finite numbers, booleans, deep nesting), each turned into a test. Every case must be
inert: refused (exit 2, one line ``from_recording: FILE: ...``), or a test that is our fixed
frame of calls on literals, which runs no payload when executed."""

from __future__ import annotations

import ast
import json
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

import pytest

import hostile_recordings as hostile
from cinematic.testing import from_recording


def payloads(sentinel: Path) -> Tuple[List[str], List[str]]:
    """(raw JSON values, JSON strings used as member names), each trying to run code: write
    the sentinel file, or exit with status 99."""
    touch = f"__import__('pathlib').Path({str(sentinel)!r}).touch()"
    leave = "__import__('os')._exit(99)"
    code = [f'"""; {touch}; """', f"'''; {touch}; '''", f"\n{leave}\n", f"x={leave}", touch,
            f"a\n{touch}  # a newline in a comment", f"x) or {touch} or (x", f"{touch} #", f"\\\n{leave}",
            f"\r{leave}", f"\u2028{leave}", f"\u202e{leave}", f"{{{touch}}}", f"'{leave}'", f"1);{touch};(1",
            f"x=1,**{{'a': {touch}}},y", f"x=1;{touch};y"]
    names = ["os._exit", "__import__", "import", "class", "None", "lambda", "rt", "TestRuntime", "NOTES",
             "timeout", "count", "search", "", "\\", "\x00", "\ud800", "é", "test_x():\n    pass"]
    numbers = [str(1 << 64), str(-(1 << 63) - 1), "1" + "0" * 5000, "-1", "1.5", "1e308", "1e400", "NaN",
               "Infinity", "true", "false", "null", "[]", "{}", "[" * 100 + "]" * 100, "[" * 50000 + "]" * 50000,
               json.dumps([touch]), json.dumps({touch: leave}), json.dumps({"type": touch, "op": "search"})]
    strings = [json.dumps(text) for text in code + names]
    return strings + numbers, [json.dumps(text) for text in code[:6] + names]


@contextmanager
def scratch(tmp_path: Path) -> Iterator[Path]:
    """A folder for thousands of short-lived files: in memory when the machine has /dev/shm."""
    if Path("/dev/shm").is_dir():
        with tempfile.TemporaryDirectory(dir="/dev/shm") as folder:
            yield Path(folder)
    else:
        yield tmp_path


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> List[List[hostile.Line]]:
    """A host-catalog session, an embedded-catalog one, and the latter with answers the
    offline cache gave (the generator notes them)."""
    folder = tmp_path_factory.mktemp("recordings")
    hostile.host_recording(folder / "host.jsonl")
    hostile.embedded_recording(folder / "embedded.jsonl")
    host, embedded = hostile.lines_of(folder / "host.jsonl"), hostile.lines_of(folder / "embedded.jsonl")
    cached = [dict(line, source="cache") if line["event"] == "answer" else line for line in embedded]
    return [host, embedded, cached]


def test_every_line_type_is_in_the_recordings(recordings):
    events = {line["event"] for lines in recordings for line in lines}
    assert events == {"session", "open", "close", "intent", "state", "revert", "advance", "request", "answer",
                      "observe", "snapshot", "providerRequest", "providerAnswer", "end"}, events


def test_a_payload_in_any_member_of_any_line_is_refused_or_inert(recordings, tmp_path):
    sentinel = tmp_path / "payload-ran"
    values, names = payloads(sentinel)
    problems: List[str] = []
    generated: List[Path] = []
    covered: Set[Tuple[str, hostile.Where]] = set()
    cases = 0
    with scratch(tmp_path) as folder:
        recording = folder / "session.jsonl"
        for lines in recordings:
            texts = hostile.texts_of(lines)
            recording.write_text("".join(texts))
            status, _, clean = hostile.generate(recording)
            assert status == 0
            docstring = ast.get_docstring(ast.parse(clean)) or ""  # what it says must not depend on the data
            for index, line in enumerate(lines):
                for where in hostile.members(line):
                    if (line["event"], where) in covered:
                        continue  # one line of each type is enough
                    covered.add((line["event"], where))
                    renames = names if where[-1] != "event" else []
                    for payload, rename in [(value, False) for value in values] + [(name, True) for name in renames]:
                        cases += 1
                        recording.write_text(hostile.injected(lines, index, where, payload, rename, texts))
                        status, stderr, text = hostile.generate(recording)
                        case = (f"{line['event']} line {index + 1}, {'the name of ' if rename else ''}"
                                f"{'.'.join(where)} = {payload[:60]}")
                        if status != 0:
                            problem = hostile.refused_properly(status, stderr, recording)
                            if problem is not None:
                                problems.append(f"{case}: {problem}")
                        elif text != clean:
                            problem = hostile.code_problem(text, docstring)
                            if problem is not None:
                                problems.append(f"{case}: generated code with data in it: {problem}")
                            generated.append(tmp_path / f"test_case_{len(generated)}.py")  # executed below
                            generated[-1].write_text(text, encoding="utf-8", errors="backslashreplace")
    assert cases > 5000 and len(covered) > 100, (cases, len(covered))
    problems += hostile.execute(generated, sentinel)
    assert not problems, f"{len(problems)} of {cases} cases not inert, e.g.:\n" + "\n".join(problems[::50][:40])


def test_the_generated_module_writes_what_it_was_made_from_as_literals(recordings, tmp_path):
    recording = tmp_path / 'a """name\n.jsonl'
    lines = [dict(line, library='0.2.0"""\nimport os') if line["event"] == "session" else line for line in recordings[2]]
    recording.write_text("".join(json.dumps(line) + "\n" for line in lines))
    output = tmp_path / "test_literals.py"
    assert hostile.generate(recording, output)[:2] == (0, "")
    namespace: Dict[str, object] = {}
    exec(compile(output.read_text(), str(output), "exec"), namespace)
    assert namespace["SOURCE"] == recording.name and namespace["LIBRARY"] == '0.2.0"""\nimport os'
    assert namespace["CATALOG"] == "embedded" and namespace["CLOCK"] == "manual"
    assert namespace["__doc__"] == from_recording.DOCSTRING
    assert hostile.code_problem(output.read_text(), from_recording.DOCSTRING) is None
    request = next(line["id"] for line in lines if line["event"] == "answer")
    assert f"request {request} was answered by the offline cache; the test answers it live" in namespace["NOTES"]  # type: ignore[operator]
