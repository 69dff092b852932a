"""The one way the package reads a file (cinematic._files): only a regular file, never
opened when it is anything else, its size checked before it is read, read whole through
interrupted and short reads; and strict JSON, whose fast path agrees with a full check."""

from __future__ import annotations

import json
import os
import socket
import stat
from pathlib import Path
from typing import Any, List

import pytest
from hypothesis import given, settings, strategies as st

from cinematic import _files
from cinematic._files import RefusedFile


def unix_socket(path: Path) -> None:
    here = os.getcwd()
    os.chdir(path.parent)   # a socket's path is at most 108 bytes: bound from its folder
    try:
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(path.name)
    finally:
        os.chdir(here)


@pytest.mark.parametrize("kind, make", [
    ("a directory", lambda p: p.mkdir()),
    ("a FIFO", os.mkfifo),
    ("a socket", unix_socket),
])
def test_only_a_regular_file_is_opened_and_the_kind_is_named(tmp_path, kind, make):
    path = tmp_path / "file"
    make(path)
    with pytest.raises(RefusedFile, match=f"^it is {kind}, not a regular file$"):
        _files.read_json(path, 100)
    link = tmp_path / "link"
    link.symlink_to(path)
    with pytest.raises(RefusedFile, match=f"^it is {kind}, not a regular file$"):
        _files.read_json(link, 100)
    with pytest.raises(RefusedFile, match="^it is a symbolic link, not a regular file$"):
        _files.read_json(link, 100, follow_symlinks=False)


def test_a_device_is_named_and_never_opened(monkeypatch):
    opened: List[str] = []
    real_open = os.open
    monkeypatch.setattr(os, "open", lambda path, *rest: opened.append(str(path)) or real_open(path, *rest))
    with pytest.raises(RefusedFile, match="^it is a character device, not a regular file$"):
        _files.read_json("/dev/zero", 100)
    assert opened == []   # /dev/zero would be read forever; a tape would rewind on open
    assert _files.kind_of(stat.S_IFBLK) == "a block device"


def test_a_missing_file_is_the_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        _files.read_json(tmp_path / "missing", 100)


def test_the_size_is_checked_before_reading_and_while_reading(tmp_path):
    sparse = tmp_path / "sparse"
    with open(sparse, "wb") as file:
        file.truncate(1 << 40)   # a terabyte of nothing: refused at once, never read
    with pytest.raises(RefusedFile, match=r"^it is larger than 1000 bytes \(1099511627776 bytes\)$"):
        _files.read_json(sparse, 1000)
    # A regular file whose size says 0 and that holds more (a /proc file): refused while read.
    with pytest.raises(RefusedFile, match="^it grew larger than 10 bytes while it was read$"):
        fd = _files.open_regular("/proc/self/status")
        try:
            _files.read_regular(fd, 10)
        finally:
            os.close(fd)


def test_interrupted_and_short_reads_are_retried(tmp_path, monkeypatch):
    path = tmp_path / "doc.json"
    document = {"movies": [{"id": n, "title": "Dune" * n} for n in range(200)]}
    path.write_text(json.dumps(document))
    real_read = os.read
    calls = {"n": 0}

    def stingy(fd: int, size: int) -> bytes:
        calls["n"] += 1
        if calls["n"] % 3 == 1:
            raise InterruptedError()
        return real_read(fd, min(size, 7))   # short reads

    monkeypatch.setattr(os, "read", stingy)
    assert _files.read_json(path, 1 << 20) == document
    assert calls["n"] > 1000


@pytest.mark.parametrize("data, reason", [
    (b'{"a": "\xff"}', "it is not UTF-8 (byte 7)"),
    (b"\xef\xbb\xbf{}", "it is not JSON: it starts with a byte order mark (line 1, column 1)"),
    (b"", "it is not JSON: Expecting value (line 1, column 1)"),
    (b'{"a": 1} x', "it is not JSON: Extra data (line 1, column 10)"),
    (b"[NaN]", "NaN is not a JSON number"),
    (b"[-Infinity]", "-Infinity is not a JSON number"),
    (b"[1e400]", "the number 1e400 is out of range"),
    (b"[18446744073709551616]", "the integer 18446744073709551616 is out of range (64 bits)"),
    (b"[-9223372036854775809]", "the integer -9223372036854775809 is out of range (64 bits)"),
    (b"[1" + b"0" * 5000 + b"]", "is out of range (64 bits)"),
    (b'["\\ud800"]', "a string holds a lone surrogate"),
    (b'{"\\udc00": 1}', "a string holds a lone surrogate"),
    (b"[" * 65 + b"]" * 65, "it nests deeper than 64 levels"),
    (b"[" * 64 + b"1" + b"]" * 64, "it nests deeper than 64 levels"),
    (b"[" * 100000 + b"]" * 100000, "it nests deeper than 64 levels"),
    (b'{"a":' * 30000 + b"1" + b"}" * 30000, "it nests deeper than 64 levels"),
])
def test_json_that_is_not_strict_is_refused_in_one_line(data, reason):
    with pytest.raises(RefusedFile) as refused:
        _files.parse_json(data)
    assert reason in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("data, value", [
    (b"[" * 64 + b"]" * 64, None),
    (b"[" * 63 + b"1" + b"]" * 63, None),
    (b'["\\ud83c\\udfac", "[[[[", "\\\\ud800"]', ["\U0001f3ac", "[[[[", "\\ud800"]),
    (b"[18446744073709551615, -9223372036854775808, 1.5e300, 1e-400]",
     [18446744073709551615, -9223372036854775808, 1.5e300, 0.0]),
])
def test_strict_json_at_the_limits_is_read(data, value):
    parsed = _files.parse_json(data)
    assert parsed == (json.loads(data) if value is None else value)


def test_check_value_refuses_what_json_cannot_hold():
    for value in [{1: "a"}, [float("nan")], [1 << 64], {"a": {1, 2}}, ["\ud800"]]:
        with pytest.raises(RefusedFile):
            _files.check_value(value)
    _files.check_value({"a": [1, 2.5, True, None, "é"]})


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
                    max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(value=JSON, depth=st.integers(0, 70), ascii=st.booleans())
def test_the_fast_path_agrees_with_the_full_check(value: Any, depth: int, ascii: bool):
    """parse_json accepts exactly what json.loads plus check_value accept."""
    text = "[" * depth + json.dumps(value, ensure_ascii=ascii) + "]" * depth
    try:
        expected: Any = json.loads(text)
        _files.check_value(expected)
    except (ValueError, RecursionError):
        with pytest.raises(RefusedFile):
            _files.parse_json(text.encode("utf-8", "surrogatepass"))
        return
    assert _files.parse_json(text.encode("utf-8")) == expected
