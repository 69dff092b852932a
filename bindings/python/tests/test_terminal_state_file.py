"""The terminal app's state file is hostile until proven ours (examples/python/cinematic_tui,
saved.py): a file that is not a snapshot of ours (not JSON, nested too deep, not UTF-8, a lone
surrogate, too large, another format...) or not a regular file (a directory, a FIFO, a
device, a socket, a symbolic link to any of them) gets a one-line note and a fresh start, and
is left untouched: never a crash, never a hang. Each case runs the app in a pty; the reader
itself is also checked without it, case by case."""

from __future__ import annotations

import json
import os
import socket
import stat
import sys
from pathlib import Path
from typing import Any, Callable, Dict, Optional

import pytest

import cinematic
from conftest import REPO
from test_terminal_app import line_with
from test_terminal_resume import Doc, Resumable, read_doc, store_of

sys.path.insert(0, str(REPO / "examples" / "python"))
from cinematic_tui.saved import StateFile, read_state  # noqa: E402


def valid_snapshot(query: str) -> Doc:
    with cinematic.Runtime({}) as runtime:
        search = runtime.search()
        search.query_changed(query)
        search.settle(10)
        return runtime.snapshot()  # type: ignore[return-value]


def snapshot_text(query: str) -> str:
    """A snapshot of a search for ``query``, written as JSON by hand (``query`` is raw JSON
    string content: an escape stays one)."""
    return '{"format":1,"stores":[{"format":1,"feature":"search","data":{"query":"%s","pagesLoaded":1}}]}' % query


def unix_socket(path: Path) -> None:
    """A socket bound at ``path`` (bound from its folder: a socket's path is at most 108 bytes)."""
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(path.name)
    finally:
        os.chdir(here)


def device(path: Path) -> None:
    """A character device at ``path`` (the numbers of /dev/null); skips where that is not allowed."""
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("making a device node needs privileges")


def link_to(make: Callable[[Path], None]) -> Callable[[Path], None]:
    """A symbolic link at the path to what ``make`` makes beside it."""
    def write(path: Path) -> None:
        target = path.parent.parent / "elsewhere"
        make(target)
        path.symlink_to(target)
    return write


BAD_FILES: Dict[str, Callable[[Path], None]] = {
    "truncated": lambda p: p.write_text(json.dumps(valid_snapshot("alien"))[:-7]),
    "not json": lambda p: p.write_bytes(bytes(range(256))),
    "not UTF-8 inside a snapshot": lambda p: p.write_bytes(snapshot_text("alien").encode().replace(b"alien", b"al\xffen")),
    "a lone surrogate": lambda p: p.write_text(snapshot_text("\\ud800")),
    "nested too deep (30 KB)": lambda p: p.write_text('{"format":1,"stores":' + "[" * 15000 + "]" * 15000 + "}"),
    "nested too deep in a view": lambda p: p.write_text(snapshot_text("alien")[:-2] + ',"view":' + "[" * 200 + "]" * 200 + "}]}"),
    "a NaN": lambda p: p.write_text(snapshot_text("alien").replace('"pagesLoaded":1', '"pagesLoaded":NaN')),
    "a huge integer": lambda p: p.write_text(snapshot_text("alien").replace('"pagesLoaded":1', '"pagesLoaded":1' + "0" * 5000)),
    "foreign json": lambda p: p.write_text('{"hello": "world"}\n'),
    "a newer format": lambda p: p.write_text(json.dumps({"format": 2, "library": "9.0.0", "stores": []})),
    "bad data": lambda p: p.write_text(json.dumps({"format": 1, "stores": [
        {"format": 1, "feature": "search", "data": {"query": "x" * 5000, "pagesLoaded": 1}}]})),
    "stores this app does not show": lambda p: p.write_text(json.dumps({"format": 1, "stores": [
        {"format": 1, "feature": "detail", "data": {"movieId": 15249}}] * 3})),
    "too large": lambda p: p.write_text(" " * (1 << 20) + "{}"),
    "a directory": lambda p: p.mkdir(),
    "a FIFO": os.mkfifo,
    "a character device": device,
    "a socket": unix_socket,
    "a symbolic link": link_to(lambda p: p.write_text(json.dumps(valid_snapshot("alien")))),
    "a symbolic link to a FIFO": link_to(os.mkfifo),
    "a symbolic link to a directory": link_to(lambda p: p.mkdir()),
}


def snapshot_of(path: Path) -> Any:
    """What is at ``path`` (without reading a FIFO or a device, or following a link)."""
    if not os.path.lexists(path):
        return None
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        return ("link", os.readlink(path), snapshot_of(path.parent / os.readlink(path)))
    if stat.S_ISDIR(info.st_mode):
        return ("dir", sorted(os.listdir(path)))
    if stat.S_ISREG(info.st_mode):
        return ("file", path.read_bytes())
    return ("special", info.st_mode, info.st_ino, info.st_rdev, info.st_mtime_ns)


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_the_reader_refuses_a_bad_state_file_with_one_line(tmp_path, kind):
    path = tmp_path / "state" / "session.json"
    path.parent.mkdir()
    BAD_FILES[kind](path)
    before = snapshot_of(path)
    document, note = read_state(path)
    if note is None:   # what the reader takes is the library's to refuse (a newer format, bad data...)
        assert document is not None and kind in ("a newer format", "bad data", "stores this app does not show")
    else:
        assert document is None and note and "\n" not in note and len(note) < 200, note
    assert snapshot_of(path) == before


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_bad_state_file_is_a_one_line_note_a_fresh_start_and_left_untouched(tmp_path, kind):
    session = Resumable(tmp_path)
    session.state.parent.mkdir(parents=True)
    BAD_FILES[kind](session.state)
    target = tmp_path / "elsewhere"
    before = (snapshot_of(session.state), snapshot_of(target))
    app = session.start()
    try:
        screen = app.wait_for(lambda s: "left untouched" in s and "Search: _" in s, f"the note about {kind}")
        note = app.screen.lines()[-2]
        assert "started fresh" in note and "Restored" not in screen, note
        app.send("dune")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None, "a search, as usual")
        app.send("\x11")
        assert app.wait_exit() == 0
        assert "left untouched" in app.transcript.decode("utf-8", "replace").splitlines()[-1]
    finally:
        app.close()
    assert (snapshot_of(session.state), snapshot_of(target)) == before
    assert sorted(os.listdir(session.state.parent)) == ["session.json"]  # no temporary left either


def test_a_state_file_that_is_ours_is_read_whole(tmp_path):
    """A snapshot of ours comes back as it was saved (the reader reads it all, whatever the
    size of its reads)."""
    path = tmp_path / "session.json"
    saved = valid_snapshot("alien")
    saved["stores"][0]["view"] = {"tab": "Search", "selected": 3, "padding": "x" * 300_000}  # type: ignore[typeddict-unknown-key]
    StateFile(path).write(json.dumps(saved, separators=(",", ":")))
    document: Optional[Dict[str, Any]] = StateFile(path).read()
    assert document == saved


def test_fresh_starts_clean_and_replaces_our_file(tmp_path):
    resumable = Resumable(tmp_path)
    resumable.state.parent.mkdir(parents=True)
    resumable.state.write_text(json.dumps(valid_snapshot("alien")))
    try:
        app = resumable.start("--fresh")
        app.wait_for(lambda s: "Search: _" in s, "an empty Search tab")
        assert "Restored" not in app.screen.text() and "Alien" not in app.screen.text()
        app.send("dune\x11")
        assert app.wait_exit() == 0
        doc = read_doc(resumable.state)
        assert doc is not None and (store_of(doc, "search") or {})["data"]["query"] == "dune"
        # Without --fresh the next start reopens on it.
        app = resumable.start()
        app.wait_for(lambda s: "Search: dune_" in s and "Restored where you left off" in s
                     and line_with(s, "Dune", "1984") is not None, "dune restored")
        app.send("\x11")
        assert app.wait_exit() == 0
    finally:
        resumable.close()
