"""The app's state file is hostile until proven ours, and it is the library's to read: a file
that is not an app state file of ours (another program's, the terminal app's own from before
the app store, damaged, nested too deep, of a newer format...) or not a regular file (a
directory, a FIFO, a device, a socket, a symbolic link to any of them) gives the app store's
one-line notice (kind "stateFile") and a fresh start, and is left untouched: never a crash,
never a hang. Every kind is checked on an app store (fast); the kinds the issue names also in
the terminal app, in a pty."""

from __future__ import annotations

import json
import os
import socket
import stat
from pathlib import Path
from typing import Any, Callable, Dict

import pytest

import cinematic
from conftest import HOST_CONFIG
from test_terminal_app import line_with
from terminal_resume import Resumable, read_data


def state_file(query: str) -> str:
    """An app state file of ours for a search of ``query`` (raw JSON string content)."""
    return ('{"cinematicAppState":1,"snapshot":{"format":1,"library":"0.3.0","feature":"app","data":'
            '{"tab":"search","section":"popular","query":"%s","searchPages":1,"sections":[],"details":[],'
            '"positions":{},"removed":[]}}}\n' % query)


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
    "truncated": lambda p: p.write_text(state_file("alien")[:-9]),
    "not json": lambda p: p.write_bytes(bytes(range(256))),
    "not UTF-8 inside a state file": lambda p: p.write_bytes(state_file("alien").encode().replace(b"alien", b"al\xffen")),
    "a lone surrogate": lambda p: p.write_text(state_file("\\ud800")),
    "nested too deep (30 KB)": lambda p: p.write_text('{"cinematicAppState":1,"snapshot":' + "[" * 15000 + "]" * 15000 + "}"),
    "a NaN": lambda p: p.write_text(state_file("alien").replace('"searchPages":1', '"searchPages":NaN')),
    "a huge integer": lambda p: p.write_text(state_file("alien").replace('"searchPages":1', '"searchPages":1' + "0" * 5000)),
    "foreign json": lambda p: p.write_text('{"hello": "world"}\n'),
    "the terminal app's own file of 0.2": lambda p: p.write_text(json.dumps({"format": 1, "library": "0.2.0", "stores": [
        {"format": 1, "feature": "search", "data": {"query": "alien", "pagesLoaded": 1}}]})),
    "a newer format": lambda p: p.write_text('{"cinematicAppState":2,"snapshot":{}}'),
    "bad data": lambda p: p.write_text(state_file("x" * 5000)),
    "too large": lambda p: p.write_text(state_file("alien")[:-2] + " " * (1 << 20) + "}\n"),
    "a directory": lambda p: p.mkdir(),
    "a FIFO": os.mkfifo,
    "a character device": device,
    "a socket": unix_socket,
    "a symbolic link": link_to(lambda p: p.write_text(state_file("alien"))),
    "a symbolic link to a FIFO": link_to(os.mkfifo),
    "a symbolic link to a directory": link_to(lambda p: p.mkdir()),
}
#: The kinds the issue names, also run in the terminal app.
IN_THE_TERMINAL = ["foreign json", "a symbolic link", "a FIFO", "nested too deep (30 KB)", "a newer format",
                   "the terminal app's own file of 0.2"]


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


def make_bad(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "state" / "session.json"
    path.parent.mkdir()
    BAD_FILES[kind](path)
    return path


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_an_app_store_refuses_a_bad_state_file_with_one_line(tmp_path, kind):
    path = make_bad(tmp_path, kind)
    before = (snapshot_of(path), snapshot_of(tmp_path / "elsewhere"))
    with cinematic.Runtime(HOST_CONFIG) as runtime:
        runtime.set_provider(lambda request_id, request: None)
        with runtime.app({"stateFile": str(path)}) as app:
            notice = app.wait_for(lambda s: s["notice"] is not None, 10)["notice"]
            assert notice["kind"] == "stateFile" and notice["text"].startswith("Started fresh: "), notice
            assert "\n" not in notice["text"] and "left unchanged" in notice["text"] and len(notice["text"]) < 300
            assert app.state["search"]["query"] == ""   # a fresh start
            app.query_changed("dune")
            runtime.advance_clock(5000)                 # a quiet second and more: nothing is saved over it
    assert (snapshot_of(path), snapshot_of(tmp_path / "elsewhere")) == before
    assert sorted(os.listdir(path.parent)) == ["session.json"]  # no temporary left either


@pytest.mark.parametrize("kind", IN_THE_TERMINAL)
def test_a_bad_state_file_is_a_one_line_note_a_fresh_start_and_left_untouched(tmp_path, kind):
    session = Resumable(tmp_path)
    session.state.parent.mkdir(parents=True, exist_ok=True)
    BAD_FILES[kind](session.state)
    target = tmp_path / "elsewhere"
    before = (snapshot_of(session.state), snapshot_of(target))
    app = session.start()
    try:
        def note() -> str:   # the notice lines, above the footer (wrapped at the screen's width)
            return " ".join(line.strip() for line in app.screen.lines()[-5:-1] if line.strip())

        app.wait_for(lambda s: "Search: _" in s and note().startswith("Started fresh: ") and "left unchanged" in note(),
                     f"the note about {kind}")   # the library's words, whole
        app.send("dune")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None, "a search, as usual")
        app.send("\x11")
        assert app.wait_exit() == 0
        last = app.transcript.decode("utf-8", "replace").splitlines()[-1]
        assert "cinematic-tui: Started fresh: " in last and "left unchanged" in last, last
    finally:
        app.close()
    assert (snapshot_of(session.state), snapshot_of(target)) == before
    assert sorted(os.listdir(session.state.parent)) == ["session.json"]  # no temporary left either


def test_fresh_starts_clean_and_replaces_our_file(tmp_path):
    resumable = Resumable(tmp_path)
    resumable.state.parent.mkdir(parents=True, exist_ok=True)
    resumable.state.write_text(state_file("alien"))
    try:
        app = resumable.start("--fresh")
        app.wait_for(lambda s: "Search: _" in s, "an empty Search tab")
        assert "Alien" not in app.screen.text()
        app.send("dune")
        app.wait_for(lambda s: line_with(s, "Dune", "1984") is not None, "results for dune")
        app.send("\x11")
        assert app.wait_exit() == 0
        data = read_data(resumable.state)
        assert data is not None and data["query"] == "dune"
        # Without --fresh the next start reopens on it.
        app = resumable.start()
        app.wait_for(lambda s: "Search: dune_" in s and line_with(s, "Dune", "1984") is not None, "dune restored")
        app.send("\x11")
        assert app.wait_exit() == 0
    finally:
        resumable.close()
